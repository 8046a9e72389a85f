// The shared store: PostgreSQL, for several `arbiter serve` processes on one database. The primary
// key (match_id, seq) refuses a second writer of the same step; every commit NOTIFYs the other
// servers (pg_notify inside the transaction is delivered only if it commits).

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { AppendResult, MatchFilter, MatchRow, MatchUpdate, SeatRow, Store, SubmissionRow } from './store.ts';
import { matchFromRow, seatFromRow, submissionFromRow } from './store-sqlite.ts';
import type { Json } from '../kernel/index.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS matches (
  id TEXT PRIMARY KEY,
  ruleset TEXT NOT NULL,
  version TEXT NOT NULL,
  seed BIGINT NOT NULL,
  config JSONB NOT NULL,
  header JSONB NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('waiting','running','finished')),
  spectate_hash TEXT,
  deadline_ms INTEGER,
  seats INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  hash TEXT NOT NULL,
  outcome JSONB NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS matches_by_status ON matches (status, ruleset, created_at);
CREATE TABLE IF NOT EXISTS seats (
  match_id TEXT NOT NULL REFERENCES matches(id),
  seat INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('open','player','agent')),
  name TEXT,
  token_hash TEXT,
  PRIMARY KEY (match_id, seat)
);
CREATE TABLE IF NOT EXISTS submissions (
  match_id TEXT NOT NULL REFERENCES matches(id),
  seq INTEGER NOT NULL,
  seat INTEGER NOT NULL,
  input JSONB NOT NULL,
  result TEXT NOT NULL CHECK (result IN ('accepted','defaulted')),
  events JSONB NOT NULL,
  dflt JSONB NOT NULL,
  idem_key TEXT,
  hash TEXT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (match_id, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS submissions_idem ON submissions (match_id, idem_key) WHERE idem_key IS NOT NULL;
`;

// JSONB comes back parsed; text columns holding JSON do not exist here
const same = (v: unknown): Json => v as Json;
const CHANNEL = 'arbiter_matches';

// A submission is one statement, so the insert, the head's move and the notification commit together
// or not at all. When the head has moved on (another server wrote this seq), 1/0 fails the statement
// and with it the insert.
const APPEND = `WITH ins AS (
    INSERT INTO submissions (match_id, seq, seat, input, result, events, dflt, idem_key, hash, at)
    VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING 1
  ), moved AS (
    UPDATE matches SET status = $11, seq = $14, hash = $15, outcome = $12, updated_at = $10
    WHERE id = $1 AND seq = $2 - 1 RETURNING 1
  )
  SELECT 1 / (SELECT count(*)::int FROM moved) AS ok, (SELECT count(*) FROM ins) AS n, pg_notify($13, $16)`;

/** What a refused append means, or null when the error is not a refusal. */
function refusal(err: unknown): AppendResult | null {
  const e = err as { code?: string; constraint?: string };
  // 22012: division by zero, the head moved
  if (e.code === '22012') return 'conflict';
  if (e.code === '23505') return e.constraint === 'submissions_idem' ? 'duplicate_key' : 'conflict';
  return null;
}

type AppendJob = { params: unknown[]; ok: (r: AppendResult) => void; fail: (err: unknown) => void };

export class PgStore implements Store {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;
  private listener: pg.Client | null = null;
  private readonly url: string;
  /**
   * This server's mark on its notifications (`ORIGIN MATCH_ID`): it hears its own NOTIFYs too, and
   * catching up on a change it made itself would cost three queries and a second push per action.
   */
  private readonly origin = randomBytes(6).toString('hex');
  /** Submissions waiting for the next group commit, and the transactions committing now. */
  private queued: AppendJob[] = [];
  private inFlight = 0;

  constructor(url: string) {
    this.url = url;
    this.pool = new pg.Pool({ connectionString: url, max: 10 });
    // a dropped idle connection must not crash the server
    this.pool.on('error', () => {});
  }

  async init(): Promise<void> {
    const c = await this.pool.connect();
    try {
      // several servers may start at once: serialise the schema creation
      await c.query('SELECT pg_advisory_lock(7041977)');
      await c.query(SCHEMA);
      await c.query('SELECT pg_advisory_unlock(7041977)');
    } finally {
      c.release();
    }
  }

  private async tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      c.release();
    }
  }

  async createMatch(m: MatchRow, seats: SeatRow[]): Promise<void> {
    await this.tx(async (c) => {
      await c.query(
        `INSERT INTO matches (id, ruleset, version, seed, config, header, status, spectate_hash, deadline_ms, seats, seq, hash, outcome, created_at, updated_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)`,
        [
          m.id,
          m.ruleset,
          m.version,
          m.seed,
          JSON.stringify(m.config),
          JSON.stringify(m.header),
          m.status,
          m.spectateHash,
          m.deadlineMs,
          m.seats,
          m.seq,
          m.hash,
          JSON.stringify(m.outcome),
          m.createdAt,
          m.updatedAt,
        ],
      );
      for (const s of seats)
        await c.query('INSERT INTO seats (match_id, seat, kind, name, token_hash) VALUES ($1,$2,$3,$4,$5)', [
          m.id,
          s.seat,
          s.kind,
          s.name,
          s.tokenHash,
        ]);
    });
  }

  async getMatch(id: string): Promise<MatchRow | null> {
    const r = await this.pool.query('SELECT * FROM matches WHERE id = $1', [id]);
    return r.rows[0] ? matchFromRow(r.rows[0], same) : null;
  }

  async getSeats(id: string): Promise<SeatRow[]> {
    const r = await this.pool.query('SELECT * FROM seats WHERE match_id = $1 ORDER BY seat', [id]);
    return r.rows.map(seatFromRow);
  }

  async listMatches(f: MatchFilter): Promise<MatchRow[]> {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (f.ruleset) {
      args.push(f.ruleset);
      where.push(`ruleset = $${args.length}`);
    }
    if (f.status) {
      args.push(f.status);
      where.push(`status = $${args.length}`);
    }
    args.push(f.limit, f.offset);
    const sql = `SELECT * FROM matches ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY created_at DESC, id LIMIT $${args.length - 1} OFFSET $${args.length}`;
    return (await this.pool.query(sql, args)).rows.map((r) => matchFromRow(r, same));
  }

  async unfinished(): Promise<string[]> {
    const r = await this.pool.query("SELECT id FROM matches WHERE status <> 'finished' ORDER BY created_at");
    return r.rows.map((x: { id: string }) => x.id);
  }

  async claimSeat(id: string, seat: number, name: string, tokenHash: string): Promise<boolean> {
    return this.tx(async (c) => {
      const r = await c.query(
        "UPDATE seats SET kind = 'player', name = $1, token_hash = $2 WHERE match_id = $3 AND seat = $4 AND kind = 'open'",
        [name, tokenHash, id, seat],
      );
      if (r.rowCount !== 1) return false;
      const open = await c.query("SELECT count(*)::int AS n FROM seats WHERE match_id = $1 AND kind = 'open'", [id]);
      if (open.rows[0].n === 0)
        await c.query("UPDATE matches SET status = 'running', updated_at = $1 WHERE id = $2 AND status = 'waiting'", [
          Date.now(),
          id,
        ]);
      await c.query('SELECT pg_notify($1, $2)', [CHANNEL, `${this.origin} ${id}`]);
      return true;
    });
  }

  async releaseSeat(id: string, seat: number, tokenHash: string): Promise<boolean> {
    return this.tx(async (c) => {
      const r = await c.query(
        "UPDATE seats SET kind = 'open', name = NULL, token_hash = NULL WHERE match_id = $1 AND seat = $2 AND token_hash = $3",
        [id, seat, tokenHash],
      );
      await c.query('SELECT pg_notify($1, $2)', [CHANNEL, `${this.origin} ${id}`]);
      return r.rowCount === 1;
    });
  }

  /**
   * Group commit: the first submissions go out at once (two transactions in flight at most); those
   * that arrive meanwhile wait and go together in the next transaction, so one WAL flush serves many
   * actions. Each caller is answered only after its transaction committed.
   */
  async append(id: string, sub: SubmissionRow, head: MatchUpdate): Promise<AppendResult> {
    const params = [
      id,
      sub.seq,
      sub.seat,
      JSON.stringify(sub.input),
      sub.result,
      JSON.stringify(sub.events),
      JSON.stringify(sub.default),
      sub.idemKey,
      sub.hash,
      sub.at,
      head.status,
      JSON.stringify(head.outcome),
      CHANNEL,
      head.seq,
      head.hash,
      `${this.origin} ${id}`,
    ];
    return new Promise((ok, fail) => {
      this.queued.push({ params, ok, fail });
      this.kick();
    });
  }

  private kick(): void {
    if (this.inFlight >= 2 || this.queued.length === 0) return;
    const jobs = this.queued;
    this.queued = [];
    this.inFlight++;
    void this.commitBatch(jobs).finally(() => {
      this.inFlight--;
      this.kick();
    });
  }

  private async commitBatch(jobs: AppendJob[]): Promise<void> {
    if (jobs.length > 1) {
      try {
        await this.tx(async (c) => {
          for (const j of jobs) await c.query(APPEND, j.params);
        });
        for (const j of jobs) j.ok('ok');
        return;
      } catch (err) {
        // a refused statement rolled the whole batch back: each goes again on its own, below.
        // Anything else (a lost connection, a failed COMMIT) leaves the outcome unknown: fail them all
        if (refusal(err) === null) {
          for (const j of jobs) j.fail(err);
          return;
        }
      }
    }
    await Promise.all(
      jobs.map(async (j) => {
        try {
          await this.pool.query(APPEND, j.params);
          j.ok('ok');
        } catch (err) {
          const r = refusal(err);
          if (r) j.ok(r);
          else j.fail(err);
        }
      }),
    );
  }

  async submissions(id: string, afterSeq: number): Promise<SubmissionRow[]> {
    const r = await this.pool.query('SELECT * FROM submissions WHERE match_id = $1 AND seq > $2 ORDER BY seq', [
      id,
      afterSeq,
    ]);
    return r.rows.map((x) => submissionFromRow(x, same));
  }

  async byIdempotencyKey(id: string, key: string): Promise<SubmissionRow | null> {
    const r = await this.pool.query('SELECT * FROM submissions WHERE match_id = $1 AND idem_key = $2', [id, key]);
    return r.rows[0] ? submissionFromRow(r.rows[0], same) : null;
  }

  async onChange(listener: (matchId: string) => void): Promise<void> {
    const c = new pg.Client({ connectionString: this.url });
    c.on('error', () => {});
    await c.connect();
    c.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      const space = n.payload.indexOf(' ');
      if (space < 0) listener(n.payload);
      else if (n.payload.slice(0, space) !== this.origin) listener(n.payload.slice(space + 1));
    });
    await c.query(`LISTEN ${CHANNEL}`);
    this.listener = c;
  }

  async close(): Promise<void> {
    await this.listener?.end().catch(() => {});
    this.listener = null;
    await this.pool.end().catch(() => {});
  }
}
