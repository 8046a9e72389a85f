// The embedded store: one SQLite file in WAL mode. better-sqlite3 is synchronous, so a write has
// reached the file (the WAL) before the call returns and before the server answers. WAL with
// synchronous=NORMAL survives the process being killed at any moment; `fsync: true` (FULL) also
// survives power loss, at a cost per commit.
//
// Group commit: the writes asked for while a batch is open (submissions that arrive together from
// many matches) share one transaction. A batch opens with its first write and stays open, one loop
// turn at a time, while writes keep coming: it commits after two turns in a row that brought none,
// or once it holds 16 writes, or 2 ms after it opened (BATCH_WINDOW). A lone write thus waits two
// extra turns of a loop with nothing to do (microseconds); under load a batch gathers the writers
// that arrive over a few turns instead of one turn's. One turn was not enough: when clients open a
// connection per request, each turn handles a few events, and the batches fell from ~28 writes to
// ~3.5 (8× the commits; a commit, mostly its WAL page writes, took ~90 µs at the median in the
// server). A refused write (a second writer of a seq) undoes only itself: a batch that meets one is
// rolled back and run again with each write in its own savepoint (the common batch, where nothing is
// refused, takes no savepoints). Every caller's promise settles only after the COMMIT returned, so
// an answer still goes out only once its write is in the file. One commit per batch instead of one
// per action is most of what a durable write costs here.
//
// Checkpoints (copying the WAL back into the database file, with an fsync of each) run on a worker
// thread with its own connection every second, so they do not stall the event loop that answers
// actions; they never block a commit (PASSIVE). The worker's CPU is the server process's: every 250
// ms it was ~5% of the server's CPU under the tic-tac-toe bench, copying the same hot pages (the
// matches table and its index) four times as often; the WAL between two checkpoints stays a few MB.
// The connection that writes checkpoints by itself only as a safety net, when the WAL has grown to
// about 40 MB.

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
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
import { ArbiterError, type Json, type JsonObject } from '@arbiter/engine/kernel';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS matches (
  id TEXT PRIMARY KEY,
  ruleset TEXT NOT NULL,
  version TEXT NOT NULL,
  seed INTEGER NOT NULL,
  config TEXT NOT NULL,
  header TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('waiting','running','finished')),
  spectate_hash TEXT,
  deadline_ms INTEGER,
  seats INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  hash TEXT NOT NULL,
  outcome TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
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
  input TEXT NOT NULL,
  result TEXT NOT NULL CHECK (result IN ('accepted','defaulted')),
  events TEXT NOT NULL,
  dflt TEXT NOT NULL,
  idem_key TEXT,
  hash TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (match_id, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS submissions_idem ON submissions (match_id, idem_key) WHERE idem_key IS NOT NULL;
`;

type Raw = Record<string, unknown>;

/** A stored header must be a JSON object; anything else means the row was written by something else. */
function headerObject(h: Json, id: string): JsonObject {
  if (h === null || typeof h !== 'object' || Array.isArray(h))
    throw new ArbiterError('corrupt_log', `match ${id}: its stored log header is not a JSON object`);
  return h;
}

export function matchFromRow(r: Raw, parse: (v: unknown) => Json): MatchRow {
  return {
    id: String(r.id),
    ruleset: String(r.ruleset),
    version: String(r.version),
    seed: Number(r.seed),
    config: parse(r.config),
    header: headerObject(parse(r.header), String(r.id)),
    status: r.status as MatchRow['status'],
    spectateHash: r.spectate_hash == null ? null : String(r.spectate_hash),
    deadlineMs: r.deadline_ms == null ? null : Number(r.deadline_ms),
    seats: Number(r.seats),
    seq: Number(r.seq),
    hash: String(r.hash),
    outcome: parse(r.outcome),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export function seatFromRow(r: Raw): SeatRow {
  return {
    seat: Number(r.seat),
    kind: r.kind as SeatRow['kind'],
    name: r.name == null ? null : String(r.name),
    tokenHash: r.token_hash == null ? null : String(r.token_hash),
  };
}

export function submissionFromRow(r: Raw, parse: (v: unknown) => Json): SubmissionRow {
  return {
    seq: Number(r.seq),
    seat: Number(r.seat),
    input: parse(r.input),
    result: r.result as SubmissionRow['result'],
    events: parse(r.events) as Json[],
    default: parse(r.dflt),
    idemKey: r.idem_key == null ? null : String(r.idem_key),
    hash: String(r.hash),
    at: Number(r.at),
  };
}

const parseText = (v: unknown): Json => JSON.parse(String(v));

/** A submission that does not extend its match's last one: the caller's head is stale. */
const headMoved = () => Object.assign(new Error('head moved'), { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });

/**
 * Match rows (the query `rows`, which selects from `matches`) with each one's head as of its last
 * submission. A move that leaves the status as it was writes only its submission (one statement
 * per move instead of two); the row's own seq, hash and updated_at are written when the status
 * changes, so a running match's head is its last submission's. The rows are chosen (and a page of
 * them cut) before the join, so a listing looks up only the heads it returns.
 */
const headed = (rows: string) => `SELECT m.*, l.seq AS last_seq, l.hash AS last_hash, l.at AS last_at
  FROM (${rows}) m LEFT JOIN submissions l
    ON l.match_id = m.id AND l.seq = (SELECT max(seq) FROM submissions WHERE match_id = m.id)`;

function headedMatch(r: Raw): MatchRow {
  const m = matchFromRow(r, parseText);
  if (r.last_seq != null && Number(r.last_seq) > m.seq) {
    m.seq = Number(r.last_seq);
    m.hash = String(r.last_hash);
    m.updatedAt = Number(r.last_at);
  }
  return m;
}

type Job = { run: () => unknown; ok: (v: never) => void; fail: (err: unknown) => void };

/** When an open batch commits: whichever comes first. */
export interface BatchWindow {
  /** Loop turns in a row that brought no write. */
  quietTurns: number;
  /** Writes it holds (checked at the end of a turn). */
  maxWrites: number;
  /** Milliseconds since its first write. */
  maxMs: number;
}

export const BATCH_WINDOW: BatchWindow = { quietTurns: 2, maxWrites: 16, maxMs: 2 };

// plain CommonJS so the worker needs no TypeScript loader; it gets better-sqlite3's resolved path
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private stmts!: ReturnType<SqliteStore['prepare']>;
  /** Writes waiting for the next group commit, in the order they were asked for. */
  private jobs: Job[] = [];
  private flushing: NodeJS.Immediate | null = null;
  /** When the open batch began (performance.now()), its size at the last turn, and turns since it grew. */
  private batchBegan = 0;
  private batchSeen = 0;
  private quietTurns = 0;
  /**
   * The last stored seq of matches this process appended to (it is the file's only writer), and of
   * those written in the batch being committed: a submission must extend its match's last one, and
   * checking that here saves a statement per move. A match not known here is checked in SQL.
   */
  private readonly lastSeq = new Map<string, number>();
  private readonly batchSeq = new Map<string, number>();
  /** Runs a function in a transaction, or in a savepoint when one is already open. */
  private readonly tx: (fn: () => unknown) => unknown;
  private checkpointer: Worker | null = null;
  /** The open exclusive transaction on FILE.lock that keeps a second server off this file. */
  private lock: Database.Database | null = null;

  private readonly window: BatchWindow;

  constructor(path: string, opts: { fsync?: boolean; batch?: Partial<BatchWindow> } = {}) {
    this.window = { ...BATCH_WINDOW, ...opts.batch };
    this.lock = takeLock(path);
    try {
      this.db = new Database(path);
    } catch (err) {
      this.releaseLock();
      throw err;
    }
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${opts.fsync ? 'FULL' : 'NORMAL'}`);
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    this.tx = this.db.transaction((fn: () => unknown) => fn());
    this.db.pragma('wal_autocheckpoint = 10000');
    this.checkpointer = new Worker(CHECKPOINTER, {
      eval: true,
      workerData: { module: createRequire(import.meta.url).resolve('better-sqlite3'), path, everyMs: 1000 },
    });
    // a checkpointer that fails leaves the safety net above; it must not take the server down
    this.checkpointer.on('error', () => {});
    this.checkpointer.unref();
  }

  /** Queue a write for the next group commit; resolves with its result once the batch is committed. */
  private write<T>(fn: () => T): Promise<T> {
    return new Promise<T>((ok, fail) => {
      this.jobs.push({ run: fn, ok: ok as (v: never) => void, fail });
      if (this.flushing === null) {
        this.batchBegan = performance.now();
        this.batchSeen = 0;
        this.quietTurns = 0;
        // after the I/O phase of this loop turn: everything that arrived in it joins the batch
        this.flushing = setImmediate(this.turnEnded);
      }
    });
  }

  /**
   * The end of a loop turn while a batch is open: commit it, or keep it open one more turn for the
   * writers still arriving (an immediate is pending, so that turn's poll for I/O does not block).
   */
  private readonly turnEnded = (): void => {
    const n = this.jobs.length;
    this.quietTurns = n > this.batchSeen ? 0 : this.quietTurns + 1;
    this.batchSeen = n;
    const w = this.window;
    if (this.quietTurns < w.quietTurns && n < w.maxWrites && performance.now() - this.batchBegan < w.maxMs) {
      this.flushing = setImmediate(this.turnEnded);
      return;
    }
    this.flush();
  };

  private flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = null;
    const jobs = this.jobs;
    if (jobs.length === 0) return;
    this.jobs = [];
    let results: { ok: boolean; value: unknown }[];
    try {
      results = this.commitBatch(jobs);
    } catch (err) {
      // the COMMIT itself failed: nothing of the batch is stored
      for (const j of jobs) j.fail(err);
      return;
    }
    for (let i = 0; i < jobs.length; i++) {
      if (results[i].ok) jobs[i].ok(results[i].value as never);
      else jobs[i].fail(results[i].value);
    }
  }

  /**
   * One transaction for the whole batch, first without savepoints (two statements fewer per write).
   * When every write succeeds, that is the batch. When one throws, that attempt is rolled back as a
   * whole, and the batch runs again with each write in its own savepoint, so a refused write undoes
   * only itself, exactly as if it had been alone. A lone write needs no savepoint at all: rolling
   * back its transaction undoes only itself.
   */
  private commitBatch(jobs: Job[]): { ok: boolean; value: unknown }[] {
    const values: unknown[] = [];
    const refused = { err: null as unknown };
    this.batchSeq.clear();
    try {
      this.tx(() => {
        for (const j of jobs) {
          try {
            values.push(j.run());
          } catch (err) {
            refused.err = err;
            throw refused;
          }
        }
      });
      this.committed();
      return values.map((value) => ({ ok: true, value }));
    } catch (err) {
      this.batchSeq.clear();
      if (err !== refused) throw err;
      if (jobs.length === 1) return [{ ok: false, value: refused.err }];
    }
    const results: { ok: boolean; value: unknown }[] = [];
    try {
      this.runEach(jobs, results);
    } finally {
      this.batchSeq.clear();
    }
    this.committed();
    return results;
  }

  /** The batch again, each write in its own savepoint (a refused one undoes only itself). */
  private runEach(jobs: Job[], results: { ok: boolean; value: unknown }[]): void {
    this.tx(() => {
      for (const j of jobs) {
        try {
          results.push({ ok: true, value: this.tx(j.run) });
        } catch (err) {
          // an error that ended the whole transaction (disk full, I/O) fails the whole batch
          if (!this.db.inTransaction) throw err;
          results.push({ ok: false, value: err });
        }
      }
    });
  }

  /**
   * A batch committed: its seqs are the stored ones now. Finished matches are not told apart, so
   * the map is emptied when it grows past a few thousand entries (the next move of each match still
   * running is checked in SQL once).
   */
  private committed(): void {
    if (this.lastSeq.size > 4096) this.lastSeq.clear();
    for (const [id, seq] of this.batchSeq) this.lastSeq.set(id, seq);
    this.batchSeq.clear();
  }

  private prepare() {
    const d = this.db;
    return {
      insMatch:
        d.prepare(`INSERT INTO matches (id, ruleset, version, seed, config, header, status, spectate_hash, deadline_ms, seats, seq, hash, outcome, created_at, updated_at)
        VALUES (@id, @ruleset, @version, @seed, @config, @header, @status, @spectate_hash, @deadline_ms, @seats, @seq, @hash, @outcome, @created_at, @updated_at)`),
      insSeat: d.prepare('INSERT INTO seats (match_id, seat, kind, name, token_hash) VALUES (?, ?, ?, ?, ?)'),
      getMatch: d.prepare(headed('SELECT * FROM matches WHERE id = ?')),
      getSeats: d.prepare('SELECT * FROM seats WHERE match_id = ? ORDER BY seat'),
      unfinished: d.prepare("SELECT id FROM matches WHERE status <> 'finished' ORDER BY created_at"),
      claim: d.prepare(
        "UPDATE seats SET kind = 'player', name = ?, token_hash = ? WHERE match_id = ? AND seat = ? AND kind = 'open'",
      ),
      openCount: d.prepare("SELECT count(*) AS n FROM seats WHERE match_id = ? AND kind = 'open'"),
      start: d.prepare("UPDATE matches SET status = 'running', updated_at = ? WHERE id = ? AND status = 'waiting'"),
      release: d.prepare(
        "UPDATE seats SET kind = 'open', name = NULL, token_hash = NULL WHERE match_id = ? AND seat = ? AND token_hash = ?",
      ),
      // a submission extends the match's last one (or is its first): a writer that thinks the head is
      // further back than it is meets the primary key; one that skipped a seq inserts nothing
      // (insSub: where the last seq is known in memory, see lastSeq)
      insSub: d.prepare(
        'INSERT INTO submissions (match_id, seq, seat, input, result, events, dflt, idem_key, hash, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insSubChecked: d.prepare(
        `INSERT INTO submissions (match_id, seq, seat, input, result, events, dflt, idem_key, hash, at)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
          WHERE ? = 1 OR EXISTS (SELECT 1 FROM submissions WHERE match_id = ? AND seq = ? - 1)`,
      ),
      head: d.prepare('UPDATE matches SET status = ?, seq = ?, hash = ?, outcome = ?, updated_at = ? WHERE id = ?'),
      subs: d.prepare('SELECT * FROM submissions WHERE match_id = ? AND seq > ? ORDER BY seq'),
      idem: d.prepare('SELECT * FROM submissions WHERE match_id = ? AND idem_key = ?'),
    };
  }

  async init(): Promise<void> {
    if (this.stmts) return;
    this.db.exec(SCHEMA);
    this.stmts = this.prepare();
  }

  async createMatch(m: MatchRow, seats: SeatRow[]): Promise<void> {
    const s = this.stmts;
    await this.write(() => {
      s.insMatch.run({
        id: m.id,
        ruleset: m.ruleset,
        version: m.version,
        seed: m.seed,
        config: JSON.stringify(m.config),
        header: JSON.stringify(m.header),
        status: m.status,
        spectate_hash: m.spectateHash,
        deadline_ms: m.deadlineMs,
        seats: m.seats,
        seq: m.seq,
        hash: m.hash,
        outcome: JSON.stringify(m.outcome),
        created_at: m.createdAt,
        updated_at: m.updatedAt,
      });
      for (const st of seats) s.insSeat.run(m.id, st.seat, st.kind, st.name, st.tokenHash);
    });
  }

  async getMatch(id: string): Promise<MatchRow | null> {
    const r = this.stmts.getMatch.get(id) as Raw | undefined;
    return r ? headedMatch(r) : null;
  }

  async getSeats(id: string): Promise<SeatRow[]> {
    return (this.stmts.getSeats.all(id) as Raw[]).map(seatFromRow);
  }

  async listMatches(f: MatchFilter): Promise<MatchRow[]> {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (f.ruleset) {
      where.push('ruleset = ?');
      args.push(f.ruleset);
    }
    if (f.status) {
      where.push('status = ?');
      args.push(f.status);
    }
    const page = `SELECT * FROM matches ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`;
    const sql = `${headed(page)} ORDER BY m.created_at DESC, m.id`;
    return (this.db.prepare(sql).all(...args, f.limit, f.offset) as Raw[]).map(headedMatch);
  }

  async unfinished(): Promise<string[]> {
    return (this.stmts.unfinished.all() as Raw[]).map((r) => String(r.id));
  }

  async claimSeat(id: string, seat: number, name: string, tokenHash: string): Promise<number | null> {
    const s = this.stmts;
    return this.write(() => {
      if (s.claim.run(name, tokenHash, id, seat).changes !== 1) return null;
      const open = (s.openCount.get(id) as { n: number }).n;
      if (open === 0) s.start.run(Date.now(), id);
      return open;
    });
  }

  async releaseSeat(id: string, seat: number, tokenHash: string): Promise<boolean> {
    return this.write(() => this.stmts.release.run(id, seat, tokenHash).changes === 1);
  }

  async append(id: string, sub: SubmissionRow, head: MatchUpdate): Promise<AppendResult> {
    const s = this.stmts;
    try {
      await this.write(() => {
        const last = this.batchSeq.get(id) ?? this.lastSeq.get(id);
        if (last !== undefined && last !== sub.seq - 1) throw headMoved();
        const values = [
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
        ] as const;
        const added =
          last === undefined
            ? s.insSubChecked.run(...values, sub.seq, id, sub.seq).changes
            : s.insSub.run(...values).changes;
        if (added !== 1) throw headMoved();
        // the row's head is written only when the status changes (the last move); until then it is
        // read from the match's last submission (`headed`)
        if (head.status !== 'running' || head.outcome !== null)
          s.head.run(head.status, head.seq, head.hash, JSON.stringify(head.outcome), sub.at, id);
        this.batchSeq.set(id, sub.seq);
      });
      return 'ok';
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'conflict';
      if (code === 'SQLITE_CONSTRAINT_UNIQUE') return 'duplicate_key';
      throw err;
    }
  }

  async submissions(id: string, afterSeq: number): Promise<SubmissionRow[]> {
    return (this.stmts.subs.all(id, afterSeq) as Raw[]).map((r) => submissionFromRow(r, parseText));
  }

  async byIdempotencyKey(id: string, key: string): Promise<SubmissionRow | null> {
    const r = this.stmts.idem.get(id, key) as Raw | undefined;
    return r ? submissionFromRow(r, parseText) : null;
  }

  async onChange(): Promise<void> {
    // one process: nobody else writes
  }

  async close(): Promise<void> {
    // writes still queued are committed (and answered) before the file closes
    if (this.db.open) this.flush();
    const w = this.checkpointer;
    this.checkpointer = null;
    if (w) {
      // kept referenced while it closes: an empty event loop would end the process mid-close
      w.ref();
      const gone = new Promise((done) => w.once('exit', done));
      w.postMessage('close');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([gone, new Promise((done) => (timer = setTimeout(done, 2000)))]);
      clearTimeout(timer);
      await w.terminate();
    }
    if (this.db.open) this.db.close();
    this.releaseLock();
  }

  async health(): Promise<StoreHealth> {
    try {
      // reads a page of the file through the connection that writes
      this.db.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM matches LIMIT 1)').get();
      return { ok: true };
    } catch (err) {
      return { ok: false, problem: String((err as Error)?.message ?? err) };
    }
  }

  private releaseLock(): void {
    const l = this.lock;
    this.lock = null;
    if (l?.open) l.close();
  }
}

/**
 * One server per SQLite file: an exclusive transaction held open on a sibling file, FILE.lock. The
 * lock is the operating system's (SQLite's file locks), so it goes with the process however that
 * ends, kill -9 included; a second server on the file is refused at once instead of both writing it.
 * (The database itself stays shared-readable: its checkpointer thread opens its own connection.)
 */
function takeLock(path: string): Database.Database | null {
  if (path === ':memory:' || path === '') return null;
  const lock = new Database(path + '.lock');
  try {
    lock.pragma('busy_timeout = 0');
    lock.exec('BEGIN EXCLUSIVE');
    return lock;
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY')
      throw new ArbiterError(
        'bad_request',
        `${path} is in use by another arbiter serve process (one process per SQLite file; use PostgreSQL for several)`,
      );
    throw err;
  }
}
