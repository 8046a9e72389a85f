// The shared store: PostgreSQL, for several `arbiter serve` processes on one database. The primary
// key (match_id, seq) refuses a second writer of the same step; every commit NOTIFYs the other
// servers (pg_notify inside the transaction is delivered only if it commits).

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type {
  AppendResult,
  MatchFilter,
  MatchRow,
  MatchUpdate,
  SeatRow,
  Store,
  StoreHealth,
  SubmissionRow,
} from './store.ts';
import { matchFromRow, seatFromRow, submissionFromRow } from './store-sqlite.ts';
import type { Json } from '@arbiter/engine/kernel';

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

// Every write (a new match, a seat taken or given back, a submission) goes through one function, a
// batch of them per call: one round trip and one commit (one WAL flush) for all the writes that
// queued while the previous batch committed. The batch is all or nothing; when any write in it is
// refused, the caller runs each write again on its own to learn which one. A claim locks its match's
// row first, so two servers taking the last two seats cannot both miss that the match is full.
const WRITE_FN = `
CREATE OR REPLACE FUNCTION arbiter_write(ops jsonb, channel text, notes text[]) RETURNS text[]
LANGUAGE plpgsql AS $fn$
DECLARE
  op jsonb;
  mid text;
  n int;
  out text[] := '{}';
BEGIN
  FOR op IN SELECT value FROM jsonb_array_elements(ops) LOOP
    mid := op->>'id';
    CASE op->>'k'
    WHEN 'append' THEN
      INSERT INTO submissions (match_id, seq, seat, input, result, events, dflt, idem_key, hash, at)
      VALUES (mid, (op->>'seq')::int, (op->>'seat')::int, op->'input', op->>'result', op->'events', op->'dflt',
              op->>'idem', op->>'hash', (op->>'at')::bigint);
      UPDATE matches SET status = op->>'status', seq = (op->>'seq')::int, hash = op->>'hash', outcome = op->'outcome',
             updated_at = (op->>'at')::bigint
       WHERE id = mid AND seq = (op->>'seq')::int - 1;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'match % has moved past seq %', mid, (op->>'seq')::int - 1 USING ERRCODE = 'AR409';
      END IF;
      out := array_append(out, 'ok');
    WHEN 'create' THEN
      INSERT INTO matches (id, ruleset, version, seed, config, header, status, spectate_hash, deadline_ms, seats, seq,
                           hash, outcome, created_at, updated_at)
      VALUES (mid, op->>'ruleset', op->>'version', (op->>'seed')::bigint, op->'config', op->'header', op->>'status',
              op->>'spectate', (op->>'deadline')::int, (op->>'seats')::int, (op->>'seq')::int, op->>'hash',
              op->'outcome', (op->>'created')::bigint, (op->>'updated')::bigint);
      INSERT INTO seats (match_id, seat, kind, name, token_hash)
      SELECT mid, x.seat, x.kind, x.name, x.token FROM jsonb_to_recordset(op->'seatRows') AS x(seat int, kind text, name text, token text);
      out := array_append(out, 'ok');
    WHEN 'claim' THEN
      PERFORM 1 FROM matches WHERE id = mid FOR UPDATE;
      UPDATE seats SET kind = 'player', name = op->>'name', token_hash = op->>'token'
       WHERE match_id = mid AND seat = (op->>'seat')::int AND kind = 'open';
      IF FOUND THEN
        SELECT count(*) INTO n FROM seats WHERE match_id = mid AND kind = 'open';
        IF n = 0 THEN
          UPDATE matches SET status = 'running', updated_at = (op->>'at')::bigint WHERE id = mid AND status = 'waiting';
        END IF;
        out := array_append(out, n::text);
      ELSE
        out := array_append(out, 'f');
      END IF;
    WHEN 'release' THEN
      UPDATE seats SET kind = 'open', name = NULL, token_hash = NULL
       WHERE match_id = mid AND seat = (op->>'seat')::int AND token_hash = op->>'token';
      GET DIAGNOSTICS n = ROW_COUNT;
      out := array_append(out, CASE WHEN n = 1 THEN 't' ELSE 'f' END);
    ELSE
      RAISE EXCEPTION 'unknown write %', op->>'k';
    END CASE;
  END LOOP;
  PERFORM pg_notify(channel, note) FROM unnest(notes) AS note;
  RETURN out;
END
$fn$;
`;

const WRITE = { name: 'arbiter_write', text: 'SELECT arbiter_write($1::jsonb, $2, $3) AS out' };

/** What a refused write means, or null when the error is not a refusal. */
function refusal(err: unknown): AppendResult | null {
  const e = err as { code?: string; constraint?: string };
  if (e.code === 'AR409') return 'conflict';
  if (e.code === '23505') return e.constraint === 'submissions_idem' ? 'duplicate_key' : 'conflict';
  return null;
}

/**
 * Whether a failed batch may be run again one write at a time: the database refused the statement
 * (a refusal, a lock conflict between two servers' batches, a value it cannot store such as a NUL
 * character), so the whole batch rolled back and nothing of it was written. One bad write must not
 * fail the others that shared its batch. After a lost connection, or a connection (08), operator
 * (57), system (58) or internal (XX) error, whether the batch committed is not known.
 */
function retryable(err: unknown): boolean {
  if (!(err instanceof pg.DatabaseError)) return false;
  const code = err.code ?? '';
  return !/^(08|57|58|XX)/.test(code);
}

/** NOTIFY payloads are at most 8000 bytes: the ids of one batch, split where needed. */
function notesFor(origin: string, ids: string[]): string[] {
  const notes: string[] = [];
  let cur = origin;
  for (const id of ids) {
    if (cur.length + 1 + id.length > 7900) {
      notes.push(cur);
      cur = origin;
    }
    cur += ' ' + id;
  }
  if (cur !== origin) notes.push(cur);
  return notes;
}

type WriteOp = { k: 'append' | 'create' | 'claim' | 'release'; id: string; [field: string]: Json };
type WriteJob = { op: WriteOp; ok: (r: string) => void; fail: (err: unknown) => void };

export class PgStore implements Store {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;
  private listener: pg.Client | null = null;
  private readonly url: string;
  /**
   * This server's mark on its notifications (`ORIGIN MATCH_ID ...`): it hears its own NOTIFYs too,
   * and catching up on a change it made itself would cost three queries and a second push per action.
   */
  private readonly origin = randomBytes(6).toString('hex');
  /** Writes waiting for the next group commit, and whether a batch is committing now. */
  private queued: WriteJob[] = [];
  private committing = false;
  private ready: Promise<void> | null = null;
  /** Who hears other servers' changes, and whether the LISTEN connection is up now. */
  private follow: ((matchId: string | null) => void) | null = null;
  private listening = false;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(url: string) {
    this.url = url;
    this.pool = new pg.Pool({ connectionString: url, max: 10 });
    // a dropped idle connection must not crash the server
    this.pool.on('error', () => {});
  }

  init(): Promise<void> {
    this.ready ??= this.setup().catch((err) => {
      this.ready = null;
      throw err;
    });
    return this.ready;
  }

  private async setup(): Promise<void> {
    const c = await this.pool.connect();
    try {
      // several servers may start at once: serialise the schema creation
      await c.query('SELECT pg_advisory_lock(7041977)');
      await c.query(SCHEMA);
      await c.query(WRITE_FN);
      await c.query('SELECT pg_advisory_unlock(7041977)');
    } finally {
      c.release();
    }
  }

  async createMatch(m: MatchRow, seats: SeatRow[]): Promise<void> {
    await this.write({
      k: 'create',
      id: m.id,
      ruleset: m.ruleset,
      version: m.version,
      seed: m.seed,
      config: m.config,
      header: m.header,
      status: m.status,
      spectate: m.spectateHash,
      deadline: m.deadlineMs,
      seats: m.seats,
      seq: m.seq,
      hash: m.hash,
      outcome: m.outcome,
      created: m.createdAt,
      updated: m.updatedAt,
      seatRows: seats.map((s) => ({ seat: s.seat, kind: s.kind, name: s.name, token: s.tokenHash })),
    });
  }

  async getMatch(id: string): Promise<MatchRow | null> {
    const r = await this.pool.query({ name: 'get_match', text: 'SELECT * FROM matches WHERE id = $1', values: [id] });
    return r.rows[0] ? matchFromRow(r.rows[0], same) : null;
  }

  async getSeats(id: string): Promise<SeatRow[]> {
    const r = await this.pool.query({
      name: 'get_seats',
      text: 'SELECT * FROM seats WHERE match_id = $1 ORDER BY seat',
      values: [id],
    });
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

  async claimSeat(id: string, seat: number, name: string, tokenHash: string): Promise<number | null> {
    const out = await this.write({ k: 'claim', id, seat, name, token: tokenHash, at: Date.now() });
    return out === 'f' ? null : Number(out);
  }

  async releaseSeat(id: string, seat: number, tokenHash: string): Promise<boolean> {
    return (await this.write({ k: 'release', id, seat, token: tokenHash })) === 't';
  }

  async append(id: string, sub: SubmissionRow, head: MatchUpdate): Promise<AppendResult> {
    try {
      await this.write({
        k: 'append',
        id,
        seq: sub.seq,
        seat: sub.seat,
        input: sub.input,
        result: sub.result,
        events: sub.events,
        dflt: sub.default,
        idem: sub.idemKey,
        hash: sub.hash,
        at: sub.at,
        status: head.status,
        outcome: head.outcome,
      });
      return 'ok';
    } catch (err) {
      const r = refusal(err);
      if (r) return r;
      throw err;
    }
  }

  /**
   * Group commit: a write goes out at once when no batch is committing; those that arrive
   * meanwhile wait and go together in the next batch. One batch in flight, not two: each call costs
   * the server a socket write and the database a WAL flush, and fewer, fuller batches gave more
   * actions per second at less CPU in the server bench. Each caller is answered only after its
   * batch committed. A refused write rejects with the database's error (see `refusal`).
   */
  private write(op: WriteOp): Promise<string> {
    return new Promise((ok, fail) => {
      this.queued.push({ op, ok, fail });
      this.kick();
    });
  }

  private kick(): void {
    if (this.committing || this.queued.length === 0) return;
    const jobs = this.queued;
    this.queued = [];
    this.committing = true;
    void this.commitBatch(jobs).finally(() => {
      this.committing = false;
      this.kick();
    });
  }

  private run(jobs: WriteJob[]): Promise<pg.QueryResult> {
    const ops = jobs.map((j) => j.op);
    const ids = [...new Set(ops.map((o) => o.id))];
    return this.pool.query({ ...WRITE, values: [JSON.stringify(ops), CHANNEL, notesFor(this.origin, ids)] });
  }

  private async commitBatch(jobs: WriteJob[]): Promise<void> {
    if (jobs.length > 1) {
      // one order for every server's batches (by match id), so two batches touching the same
      // matches lock them in the same order and do not deadlock
      jobs.sort((a, b) => (a.op.id < b.op.id ? -1 : a.op.id > b.op.id ? 1 : 0));
      try {
        const out = (await this.run(jobs)).rows[0].out as string[];
        for (let i = 0; i < jobs.length; i++) jobs[i].ok(out[i]);
        return;
      } catch (err) {
        // a statement the database refused wrote nothing: each write goes again on its own, below.
        // Anything else (a lost connection, a failed commit) leaves the outcome unknown: fail them all
        if (!retryable(err)) {
          for (const j of jobs) j.fail(err);
          return;
        }
      }
    }
    await Promise.all(
      jobs.map(async (j) => {
        try {
          j.ok((await this.run([j])).rows[0].out[0]);
        } catch (err) {
          j.fail(err);
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

  /**
   * LISTEN on a connection of its own. When that connection is lost (PostgreSQL restarted, a network
   * fault), it is opened again with backoff (0.1 s doubling to 5 s), and the listener is told that
   * changes may have been missed meanwhile (`listener(null)`), so the server reads its matches again.
   */
  async onChange(listener: (matchId: string | null) => void): Promise<void> {
    this.follow = listener;
    await this.listen();
  }

  private async listen(): Promise<void> {
    const c = new pg.Client({ connectionString: this.url, keepAlive: true });
    c.on('error', () => {});
    c.on('end', () => {
      if (this.listener !== c) return;
      this.listener = null;
      this.listening = false;
      this.reconnect(100);
    });
    try {
      await c.connect();
      c.on('notification', (n) => {
        if (n.channel !== CHANNEL || !n.payload) return;
        const [from, ...ids] = n.payload.split(' ');
        if (ids.length === 0) this.follow?.(from);
        else if (from !== this.origin) for (const id of ids) this.follow?.(id);
      });
      await c.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      await c.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await c.end().catch(() => {});
      return;
    }
    this.listener = c;
    this.listening = true;
  }

  private reconnect(delay: number): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.closed) return;
      this.listen().then(
        () => this.follow?.(null),
        () => this.reconnect(Math.min(delay * 2, 5000)),
      );
    }, delay);
    this.retry.unref();
  }

  async health(): Promise<StoreHealth> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.pool.query('SELECT 1'),
        new Promise((_, fail) => {
          timer = setTimeout(() => fail(new Error('no answer within 2 s')), 2000);
        }),
      ]);
    } catch (err) {
      return { ok: false, problem: String((err as Error)?.message ?? err), listening: this.listening };
    } finally {
      clearTimeout(timer);
    }
    if (this.follow && !this.listening)
      return { ok: false, problem: 'not hearing other servers (LISTEN connection down)', listening: false };
    return { ok: true, listening: this.listening };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const l = this.listener;
    this.listener = null;
    await l?.end().catch(() => {});
    this.listener = null;
    await this.pool.end().catch(() => {});
  }
}
