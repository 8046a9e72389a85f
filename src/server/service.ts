// The match service: matches held in memory, every change written to the store before it is
// acknowledged, built-in agents and turn deadlines played on the server, and a fan-out of what each
// seat (or a spectator) may see to whoever watches. One queue per match orders its changes.

import { createHash, randomBytes, randomFillSync, randomInt, scryptSync, timingSafeEqual } from 'node:crypto';
import {
  act,
  ArbiterError,
  canonicalJson,
  defaultActionOf,
  isPlainJson,
  SeededRandom,
  StreamHash,
  type Agent,
  type GameEvent,
  type Json,
  type JsonObject,
  type Menu,
  type Outcome,
  type Pending,
  type RulesetPackage,
  type Seat,
} from '../kernel/index.ts';
import { PACKAGES } from '../registry.ts';
import { agentContext } from '../runners/context.ts';
import { agentNames, agentSeed, makeAgent } from '../agents/resolve.ts';
import { eventsGuarded, eventText, publicPending, type EventTexts } from './secrets.ts';
import { DEFAULT_POLICY, SeatAgent, type SeatDecision } from '../agents/policy.ts';
import { PROTOCOL, type DecisionRequest } from '../agents/protocol.ts';
import { describeViewText, eventsSeenBy } from '../agents/observe.ts';
import { REMOTE_CLOSE, RemoteTransport, type Channel } from './remote.ts';
import { buildHeader, defaultRecord } from './log.ts';
import { findNul, NUL_REFUSAL, scrubNul } from './schemas.ts';
import { canonicalInput, recordableConfig, rulesText, type DefaultInfo } from '../runners/match.ts';
import type { MatchRow, MatchStatus, SeatRow, Store, SubmissionRow } from './store.ts';
import { closedByDefault, storedPolicy, watchPolicy, type Delay } from './watch.ts';

/** A seat, or a spectator (who sees the match `delay` ago when its creator chose a delay). */
export type Audience = { seat: Seat } | { seat: null; delay?: Delay };

/** A WebSocket (or any push channel) watching one match as one audience. */
export interface Subscriber {
  seat: Seat | null;
  send(frame: JsonObject): void;
}

/**
 * A seat played by a remote agent over the protocol socket: its transport under the one failure
 * policy, whether a decision is being asked, and the events it saw since its last decision. A
 * failed seat keeps its entry (with the socket closed) and plays its default at once until a new
 * protocol connection takes the seat.
 */
export type RemoteSeat = { transport: RemoteTransport; agent: SeatAgent; asking: boolean; seen: GameEvent[] };

export interface CreateInput {
  ruleset: string;
  config?: JsonObject;
  seed?: number;
  seats?: { agent?: string }[];
  spectatePassword?: string;
  /** Spectators see the match this many submissions or seconds late. */
  spectateDelay?: Delay;
  /** Anyone may watch live, even where the audience sees every seat's secrets. */
  spectatePublic?: boolean;
  turnDeadlineMs?: number;
  /** Pause before each built-in agent move (watchable agent matches); kept in memory only. */
  agentDelayMs?: number;
}

export interface ServiceOptions {
  store: Store;
  /** Agent kinds with a prefix (`cmd:` ...) run programs on this machine: refused unless allowed. */
  allowExternalAgents?: boolean;
  warn?: (msg: string, detail?: Json) => void;
  /** The rulesets this server plays; default the registry's. Tests pass extra packages here. */
  packages?: readonly RulesetPackage[];
  /** Deadline per decision attempt of a remote protocol agent when the match sets no turnDeadlineMs. */
  agentDeadlineMs?: number;
  /** Failed decisions in a row after which a remote protocol seat is failed. */
  agentMaxFailures?: number;
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Each seat row's stored token hash as bytes, made once per row (rows are replaced, never changed). */
const seatHashBytes = new WeakMap<SeatRow, Buffer>();

function sameHash(s: SeatRow & { tokenHash: string }, h: Buffer): boolean {
  let x = seatHashBytes.get(s);
  if (!x) {
    x = Buffer.from(s.tokenHash, 'hex');
    seatHashBytes.set(s, x);
  }
  return x.length === h.length && timingSafeEqual(x, h);
}

// Random bytes for match ids and seat tokens, drawn from the same CSPRNG a block at a time (one
// call per 256 tokens instead of one each); every byte is handed out once.
const POOL = Buffer.alloc(4096);
let poolAt = POOL.length;
/**
 * A new match id: the creation time (base 36, so ids sort by time) and 48 random bits. Matches
 * created together sit together in the stores' indexes, so the writes of the matches being played
 * now touch a few pages at the right edge of each B-tree instead of one page anywhere in it each.
 */
function matchId(): string {
  return Date.now().toString(36).padStart(9, '0') + randomText(6);
}

function randomText(bytes: number): string {
  if (poolAt + bytes > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  const out = POOL.toString('base64url', poolAt, poolAt + bytes);
  poolAt += bytes;
  return out;
}

function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, 32, { N: 4096 }).toString('hex')}`;
}

function checkPassword(password: string, stored: string): boolean {
  const [, salt, want] = stored.split('$');
  const got = scryptSync(password, Buffer.from(salt, 'hex'), 32, { N: 4096 });
  return timingSafeEqual(got, Buffer.from(want, 'hex'));
}

function forkHash(h: StreamHash): StreamHash {
  return Object.assign(Object.create(StreamHash.prototype) as StreamHash, h);
}

/** One match in memory: the state after `seq` submissions, and who is watching. */
export class LiveMatch {
  state: unknown;
  seq: number;
  hash: StreamHash;
  status: MatchStatus;
  outcome: Outcome | null;
  seats: SeatRow[];
  readonly subs = new Set<Subscriber>();
  readonly agents: (Agent | null)[];
  /** When each non-agent pending seat began to owe its decision (for turn deadlines). */
  readonly pendingSince = new Map<Seat, number>();
  timer: NodeJS.Timeout | null = null;
  /** Pause before each built-in agent move (0: none), and the timer of the next paced move. */
  agentDelayMs = 0;
  agentTimer: NodeJS.Timeout | null = null;
  /** Seats played by remote agents over the agent protocol (docs/agents.md). */
  readonly remote = new Map<Seat, RemoteSeat>();
  /** Submissions per seat: an answer asked before the seat's latest submission is late and dropped. */
  readonly submitted = new Map<Seat, number>();
  /** Protocol connections so far (request ids carry it, so they stay unique in the match). */
  connections = 0;
  /** Set when the stored history does not replay: the match refuses changes. */
  broken: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly pkg: RulesetPackage,
    public row: MatchRow,
    state: unknown,
    hash: StreamHash,
    seats: SeatRow[],
  ) {
    this.state = state;
    this.seq = row.seq;
    this.hash = hash;
    this.status = row.status;
    this.outcome = pkg.ruleset.outcome(state);
    this.seats = seats;
    this.agents = seats.map((s) => (s.kind === 'agent' && s.name ? makeAgent(pkg, s.name) : null));
  }

  get id(): string {
    return this.row.id;
  }

  /** Run `fn` after every change queued before it (one writer per match in this process). */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  pending(): Pending[] {
    return this.pkg.ruleset.pending(this.state);
  }
}

export class MatchService {
  private readonly live = new Map<string, LiveMatch>();
  private readonly loading = new Map<string, Promise<LiveMatch | null>>();
  readonly store: Store;
  private readonly opts: ServiceOptions;
  private closed = false;

  /** The rulesets this server plays, in listing order. */
  readonly packages: readonly RulesetPackage[];

  constructor(opts: ServiceOptions) {
    this.store = opts.store;
    this.packages = opts.packages ?? PACKAGES;
    this.opts = opts;
  }

  /** Open the store, follow other servers' changes, and rebuild every unfinished match. */
  async start(): Promise<{ rebuilt: number; broken: string[] }> {
    await this.store.init();
    const follow = (m: LiveMatch) =>
      void m
        .run(() => this.catchUp(m))
        .catch((err) => this.warn('catch-up failed', { match: m.id, error: String(err) }));
    await this.store.onChange((id) => {
      // null: the store may have missed notifications (its connection was lost): read everything again
      if (id === null) for (const m of this.live.values()) follow(m);
      else {
        const m = this.live.get(id);
        if (m) follow(m);
        // a match being loaded now may have read its rows before this change: read them again after
        else void this.loading.get(id)?.then((l) => l && follow(l));
      }
    });
    const broken: string[] = [];
    let rebuilt = 0;
    for (const id of await this.store.unfinished()) {
      const m = await this.get(id);
      if (!m) continue;
      if (m.broken) broken.push(id);
      else rebuilt++;
    }
    return { rebuilt, broken };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const m of this.live.values()) {
      if (m.timer) clearTimeout(m.timer);
      if (m.agentTimer) clearTimeout(m.agentTimer);
    }
    // let queued changes finish writing before the store closes
    await Promise.all([...this.live.values()].map((m) => m.run(async () => undefined)));
    for (const m of this.live.values()) {
      for (const a of m.agents) a?.close?.();
      for (const r of m.remote.values()) r.transport.closeWith(1001, 'server shutting down');
    }
    await this.store.close();
  }

  private warn(msg: string, detail?: Json): void {
    this.opts.warn?.(msg, detail);
  }

  liveCount(): number {
    return this.live.size;
  }

  // ---- reading ----------------------------------------------------------------------------

  /** The match in memory, loading (and verifying) it from the store on first use; null if unknown. */
  async get(id: string): Promise<LiveMatch | null> {
    const have = this.live.get(id);
    if (have) return have;
    let p = this.loading.get(id);
    if (!p) {
      p = this.load(id).finally(() => this.loading.delete(id));
      this.loading.set(id, p);
    }
    return p;
  }

  async mustGet(id: string): Promise<LiveMatch> {
    const m = typeof id === 'string' && id.length <= 64 ? await this.get(id) : null;
    if (!m) throw new ArbiterError('not_found', `no match "${String(id).slice(0, 64)}"`);
    return m;
  }

  /** A ruleset package this server plays, or not_found. */
  pkg(id: string): RulesetPackage {
    const found = this.packages.find((p) => p.ruleset.id === id);
    if (!found)
      throw new ArbiterError(
        'not_found',
        `unknown ruleset "${id}" (known: ${this.packages.map((p) => p.ruleset.id).join(', ')})`,
      );
    return found;
  }

  private async load(id: string): Promise<LiveMatch | null> {
    const row = await this.store.getMatch(id);
    if (!row) return null;
    const pkg = this.pkg(row.ruleset);
    const seats = await this.store.getSeats(id);
    const setupEvents: GameEvent[] = [];
    const state = pkg.ruleset.setup(row.config, row.seed, setupEvents);
    const hash = new StreamHash();
    for (const e of setupEvents) hash.update(canonicalJson(e));
    const m = new LiveMatch(pkg, { ...row, seq: 0 }, state, hash, seats);
    m.status = row.status;
    const header = row.header;
    if (pkg.ruleset.version !== row.version)
      m.broken = `stored with ruleset version ${row.version}, this server has ${pkg.ruleset.version}`;
    else if (canonicalJson(header.setup_events ?? []) !== canonicalJson(setupEvents))
      m.broken = 'setup events differ from the stored header';
    if (!m.broken) {
      const subs = await this.store.submissions(id, 0);
      this.replayInto(m, subs);
      if (!m.broken && m.hash.digest() !== row.hash)
        m.broken = `event-stream hash ${m.hash.digest()} differs from the stored ${row.hash}`;
    }
    m.row = { ...row };
    if (m.broken) this.warn('match does not replay', { match: id, problem: m.broken });
    this.live.set(id, m);
    if (!m.broken) this.afterChange(m);
    return m;
  }

  /** Apply stored submissions (ours after a restart, or another server's) and check each hash. */
  private replayInto(m: LiveMatch, subs: SubmissionRow[]): SubmissionRow[] {
    const applied: SubmissionRow[] = [];
    for (const sub of subs) {
      if (sub.seq !== m.seq + 1) {
        m.broken = `submission ${sub.seq} follows ${m.seq}`;
        break;
      }
      const res = act(m.pkg.ruleset, m.state, sub.seat, sub.input);
      if (!res.ok) {
        m.broken = `stored submission ${sub.seq} is refused on replay: ${res.error.reason}`;
        break;
      }
      if (canonicalJson(res.events) !== canonicalJson(sub.events)) {
        m.broken = `stored submission ${sub.seq} replays to different events`;
        break;
      }
      const h = forkHash(m.hash);
      for (const e of res.events) h.update(canonicalJson(e));
      if (h.digest() !== sub.hash) {
        m.broken = `event-stream hash after submission ${sub.seq} differs`;
        break;
      }
      m.state = res.state;
      m.hash = h;
      m.seq = sub.seq;
      m.outcome = m.pkg.ruleset.outcome(m.state);
      this.noteSubmission(m, sub.seat, res.events);
      applied.push(sub);
    }
    return applied;
  }

  /** Another server changed the match: take its submissions and seats, tell our watchers. */
  private async catchUp(m: LiveMatch): Promise<void> {
    if (m.broken || this.closed) return;
    const [row, seats, subs] = await Promise.all([
      this.store.getMatch(m.id),
      this.store.getSeats(m.id),
      this.store.submissions(m.id, m.seq),
    ]);
    if (row) {
      m.row = row;
      m.status = row.status;
    }
    m.seats = seats;
    const applied = this.replayInto(m, subs);
    for (const sub of applied) this.broadcast(m, sub.events as GameEvent[]);
    if (applied.length === 0) this.broadcast(m, []);
    this.afterChange(m);
  }

  publicRecord(m: LiveMatch): JsonObject {
    const r = m.row;
    const rec: JsonObject = {
      id: r.id,
      ruleset: r.ruleset,
      version: r.version,
      title: m.pkg.ruleset.title,
      status: m.status,
      private: watchPolicy(r.spectateHash).kind === 'password',
      watch: watchKind(m),
      seats: m.seats.map((s) => ({ seat: s.seat, kind: s.kind, name: s.name })),
      seq: m.seq,
      pending: m.status === 'running' ? publicPending(m.pending()) : [],
      outcome: m.outcome ?? null,
      turnDeadlineMs: r.deadlineMs,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
    // the seed decides every hidden draw: it is published only once the match is over
    if (m.status === 'finished') rec.seed = r.seed;
    if (m.broken) rec.problem = m.broken;
    return rec;
  }

  async list(f: { ruleset?: string; status?: MatchStatus; limit?: number; offset?: number }): Promise<JsonObject[]> {
    const rows = await this.store.listMatches({
      ruleset: f.ruleset,
      status: f.status,
      limit: f.limit ?? 50,
      offset: f.offset ?? 0,
    });
    return rows.map((r) => {
      const m = this.live.get(r.id);
      if (m) return this.publicRecord(m);
      const rec: JsonObject = {
        id: r.id,
        ruleset: r.ruleset,
        version: r.version,
        status: r.status,
        private: watchPolicy(r.spectateHash).kind === 'password',
        seats: r.seats,
        seq: r.seq,
        outcome: r.outcome,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
      };
      if (r.status === 'finished') rec.seed = r.seed;
      return rec;
    });
  }

  /** The seat a token belongs to, or a 401. Tokens are compared as hashes in constant time. */
  async seatOf(
    m: LiveMatch,
    token: string | undefined,
    tokenHash?: string,
  ): Promise<{ seat: Seat; tokenHash: string }> {
    if (!token) throw new HttpError(401, 'bad_request', 'a seat token is required (Authorization: Bearer TOKEN)');
    // the caller may pass sha256(token) it already computed (the rate limiter's key)
    const h = tokenHash ?? sha256(token);
    const hb = Buffer.from(h, 'hex');
    const find = () => {
      let found = -1;
      for (const s of m.seats)
        if (s.tokenHash && sameHash(s as SeatRow & { tokenHash: string }, hb) && found < 0) found = s.seat;
      return found;
    };
    let seat = find();
    if (seat < 0 && this.store.kind === 'postgres') {
      // a seat taken through another server
      m.seats = await this.store.getSeats(m.id);
      seat = find();
    }
    if (seat < 0) throw new HttpError(401, 'bad_request', 'this token holds no seat in this match');
    return { seat, tokenHash: h };
  }

  /**
   * Whether sha256(token) holds a seat of a match held in memory (the rate limiter's question: only
   * a token that was given out gets a budget of its own). Nothing is loaded from the store for it.
   */
  holdsSeat(matchId: string, tokenHash: string): boolean {
    const m = this.live.get(matchId);
    if (!m || !/^[0-9a-f]{64}$/.test(tokenHash)) return false;
    const hb = Buffer.from(tokenHash, 'hex');
    return m.seats.some((s) => s.tokenHash !== null && sameHash(s as SeatRow & { tokenHash: string }, hb));
  }

  /** Who the caller is: a seat (token), or a spectator (password when the match is private). */
  async audience(
    m: LiveMatch,
    token: string | undefined,
    password: string | undefined,
    tokenHash?: string,
  ): Promise<Audience> {
    if (token) return { seat: (await this.seatOf(m, token, tokenHash)).seat };
    const policy = watchPolicy(m.row.spectateHash);
    if (policy.kind === 'password') {
      if (!(typeof password === 'string' && password.length <= 1024 && checkPassword(password, policy.hash)))
        throw new HttpError(401, 'bad_request', 'this match is private: spectating needs its password');
      return { seat: null };
    }
    // delays and the closed default last while the match runs; a finished match is public
    if (m.status === 'finished' || policy.kind === 'public') return { seat: null };
    if (policy.kind === 'delay') return { seat: null, delay: policy.delay };
    if (closedByDefault(m))
      throw new HttpError(
        401,
        'bad_request',
        "this match's spectators see every seat's secrets: it can be watched once it is over (its creator chose no spectate password, delay or public watching)",
      );
    return { seat: null };
  }

  /** What one audience may see now. */
  snapshot(m: LiveMatch, seat: Seat | null, events: GameEvent[] = [], texts?: EventTexts): JsonObject {
    const rs = m.pkg.ruleset;
    const pending = m.status === 'running' ? m.pending() : [];
    const own = seat === null ? [] : pending.filter((p) => p.seat === seat);
    const menu: Menu | null = seat !== null && own.length > 0 ? rs.legal(m.state, seat) : null;
    const frame: JsonObject = {
      match: m.id,
      seq: m.seq,
      status: m.status,
      seat,
      view: rs.view(m.state, seat),
      pending: publicPending(pending),
      yours: own,
      menu: menu,
      events: this.eventsOut(m, seat, events, texts),
      outcome: m.outcome ?? null,
    };
    return frame;
  }

  /**
   * The events of a change that go to `seat` (null: a spectator), in a frame or an answer, after
   * the last guard against the audience's secrets. (The menu and the seat's own pending entries
   * are its own to know: a mines menu may offer to dig a mine.)
   */
  private eventsOut(m: LiveMatch, seat: Seat | null, events: readonly GameEvent[], texts?: EventTexts): GameEvent[] {
    const r = eventsGuarded(m.pkg, m.state, seat, events, texts);
    if (r.withheld) this.warn('events would reveal a secret; sent without them', { match: m.id, seat });
    return r.events;
  }

  subscribe(m: LiveMatch, sub: Subscriber): () => void {
    m.subs.add(sub);
    return () => m.subs.delete(sub);
  }

  private broadcast(m: LiveMatch, events: GameEvent[], texts: EventTexts = new Map()): void {
    if (m.subs.size === 0) return;
    const bySeat = new Map<Seat | null, JsonObject>();
    for (const s of m.subs) {
      let f = bySeat.get(s.seat);
      if (!f) {
        f = { type: 'state', ...this.snapshot(m, s.seat, events, texts) };
        bySeat.set(s.seat, f);
      }
      try {
        s.send(f);
      } catch {
        m.subs.delete(s);
      }
    }
  }

  // ---- changing ---------------------------------------------------------------------------

  async create(input: CreateInput): Promise<LiveMatch> {
    const pkg = this.pkg(input.ruleset);
    const rs = pkg.ruleset;
    const chosen = [input.spectatePassword, input.spectateDelay, input.spectatePublic].filter((x) => x !== undefined);
    if (chosen.length > 1)
      throw new ArbiterError('bad_request', 'choose one of spectatePassword, spectateDelay and spectatePublic');
    const config = recordableConfig(input.config ?? {});
    const seed = input.seed ?? randomInt(0, 2 ** 32);
    const setupEvents: GameEvent[] = [];
    const state = rs.setup(config, seed, setupEvents);
    const n = rs.seats(state);
    const specs = input.seats ?? [];
    if (specs.length > n)
      throw new ArbiterError('bad_request', `${rs.id} with this config has ${n} seats, ${specs.length} described`);
    const known = agentNames(pkg);
    const seats: SeatRow[] = [];
    for (let seat = 0; seat < n; seat++) {
      const agent = specs[seat]?.agent;
      if (agent === undefined) {
        seats.push({ seat, kind: 'open', name: null, tokenHash: null });
        continue;
      }
      if (agent.includes(':') && !this.opts.allowExternalAgents) {
        throw new ArbiterError(
          'bad_request',
          `agent "${agent}": agents that run programs or call out are off on this server (start it with --allow-external-agents)`,
        );
      }
      if (!agent.includes(':') && !known.includes(agent))
        throw new ArbiterError('not_found', `unknown agent "${agent}" for ${rs.id} (known: ${known.join(', ')})`);
      seats.push({ seat, kind: 'agent', name: agent, tokenHash: null });
    }
    const hash = new StreamHash();
    for (const e of setupEvents) hash.update(canonicalJson(e));
    const now = Date.now();
    const header = buildHeader(
      pkg,
      seed,
      config,
      seats.map((s) => (s.kind === 'agent' ? String(s.name) : 'remote')),
      setupEvents,
    );
    const outcome = rs.outcome(state);
    const status: MatchStatus = outcome ? 'finished' : seats.some((s) => s.kind === 'open') ? 'waiting' : 'running';
    const row: MatchRow = {
      id: matchId(),
      ruleset: rs.id,
      version: rs.version,
      seed,
      config,
      header,
      status,
      spectateHash: input.spectatePassword
        ? hashPassword(input.spectatePassword)
        : storedPolicy({ delay: input.spectateDelay, public: input.spectatePublic }),
      deadlineMs: input.turnDeadlineMs ?? null,
      seats: n,
      seq: 0,
      hash: hash.digest(),
      outcome: outcome ?? null,
      createdAt: now,
      updatedAt: now,
    };
    await this.store.createMatch(row, seats);
    const m = new LiveMatch(pkg, row, state, hash, seats);
    m.agentDelayMs = input.agentDelayMs ?? 0;
    this.live.set(row.id, m);
    this.afterChange(m);
    return m;
  }

  async join(m: LiveMatch, seat: number | undefined, name: string): Promise<{ seat: Seat; token: string }> {
    return m.run(async () => {
      if (m.status === 'finished') throw new HttpError(409, 'game_over', 'the match is over');
      const token = randomText(16);
      const tokenHash = sha256(token);
      let pick = -1;
      // async, so that pickSeat's refusal (made from a copy of the seats that may be stale) rejects
      // the attempt like a failed claim instead of throwing past the retry below
      const attempt = async (): Promise<number | null> => {
        pick = pickSeat(m.seats, seat);
        return this.store.claimSeat(m.id, pick, name, tokenHash);
      };
      let open: number | null;
      if (this.store.kind === 'postgres') {
        // another server may have taken or given back seats: our copy is read again only when the
        // first try fails, so the usual join is one write
        open = await attempt().catch(() => null);
        if (open === null) {
          m.seats = await this.store.getSeats(m.id);
          open = await attempt();
        }
      } else open = await attempt();
      if (open === null) throw new HttpError(409, 'illegal', `seat ${pick} was taken meanwhile`);
      const want = pick;
      m.seats = m.seats.map((s) => (s.seat === want ? { seat: want, kind: 'player', name, tokenHash } : s));
      // the store counted the open seats under its lock; when our copy disagrees, another server
      // changed seats meanwhile
      if (m.seats.filter((s) => s.kind === 'open').length !== open) m.seats = await this.store.getSeats(m.id);
      if (m.status === 'waiting' && open === 0) m.status = 'running';
      m.row = { ...m.row, status: m.status };
      this.broadcast(m, []);
      this.afterChange(m);
      return { seat: want, token };
    });
  }

  async leave(m: LiveMatch, token: string | undefined): Promise<{ seat: Seat }> {
    const { seat, tokenHash } = await this.seatOf(m, token);
    return m.run(async () => {
      await this.store.releaseSeat(m.id, seat, tokenHash);
      m.remote.get(seat)?.transport.closeWith(REMOTE_CLOSE.left, 'the seat was left');
      m.remote.delete(seat);
      m.seats = m.seats.map((s) => (s.seat === seat ? { seat, kind: 'open', name: null, tokenHash: null } : s));
      this.broadcast(m, []);
      return { seat };
    });
  }

  /**
   * Submit one action for `seat`. The kernel's checked `act` judges it; an accepted action is
   * written (with its seq) before this resolves. A repeated idempotency key answers the stored
   * result instead of acting twice.
   */
  async submit(
    m: LiveMatch,
    seat: Seat,
    input: Json,
    idemKey: string | null,
  ): Promise<{ seq: number; events: GameEvent[]; outcome: Outcome | null; replayed: boolean }> {
    return m.run(async () => {
      for (let attempt = 0; ; attempt++) {
        if (idemKey) {
          const prior = await this.store.byIdempotencyKey(m.id, idemKey);
          if (prior) {
            if (prior.seat !== seat)
              throw new HttpError(409, 'bad_request', 'this idempotency key was used by another seat');
            if (prior.seq > m.seq) await this.catchUp(m);
            return {
              seq: prior.seq,
              events: this.eventsOut(m, seat, prior.events as GameEvent[]),
              outcome: m.outcome,
              replayed: true,
            };
          }
        }
        this.usable(m);
        if (m.status === 'waiting')
          throw new HttpError(409, 'out_of_turn', 'the match waits for its open seats to be taken');
        // the form the log holds (sorted keys), so replay judges exactly what was judged here
        const canon = canonicalInput(input);
        const res = act(m.pkg.ruleset, m.state, seat, canon);
        if (!res.ok) throw new ArbiterError(res.error.code, res.error.reason, res.error.detail);
        const texts: EventTexts = new Map();
        const out = await this.commit(m, seat, canon, res.state, res.events, 'accepted', null, idemKey, texts);
        if (out === 'ok') {
          this.afterChange(m);
          return {
            seq: m.seq,
            events: this.eventsOut(m, seat, res.events, texts),
            outcome: m.outcome,
            replayed: false,
          };
        }
        // another server wrote this seq (or this key) first: take its history and judge again
        await this.catchUp(m);
        if (attempt >= 3) throw new HttpError(409, 'out_of_turn', 'the match moved on meanwhile; try again');
      }
    });
  }

  private usable(m: LiveMatch): void {
    if (m.broken) throw new HttpError(503, 'corrupt_log', `this match's stored history does not replay: ${m.broken}`);
    if (this.closed) throw new HttpError(503, 'bad_request', 'the server is shutting down');
  }

  /**
   * Write the submission and the new head in one transaction; only then change memory. `texts`
   * keeps each event's canonical text, written once for the hash and read again by the guard of
   * every frame (and of the caller's answer, when the caller passes its own).
   */
  private async commit(
    m: LiveMatch,
    seat: Seat,
    input: Json,
    next: unknown,
    events: GameEvent[],
    result: 'accepted' | 'defaulted',
    dflt: Json,
    idemKey: string | null,
    texts: EventTexts = new Map(),
  ): Promise<'ok' | 'conflict' | 'duplicate_key'> {
    const h = forkHash(m.hash);
    for (const e of events) h.update(eventText(e, texts));
    const outcome = m.pkg.ruleset.outcome(next);
    const status: MatchStatus = outcome ? 'finished' : m.status;
    const seq = m.seq + 1;
    const at = Date.now();
    const sub: SubmissionRow = {
      seq,
      seat,
      input,
      result,
      events: events,
      // what a failing agent sent may hold U+0000, which PostgreSQL cannot store
      default: findNul(dflt) === null ? dflt : scrubNul(dflt),
      idemKey,
      hash: h.digest(),
      at,
    };
    const r = await this.store.append(m.id, sub, { status, seq, hash: sub.hash, outcome: outcome ?? null });
    if (r !== 'ok') return r;
    m.state = next;
    m.seq = seq;
    m.hash = h;
    m.outcome = outcome;
    m.status = status;
    m.row = { ...m.row, status, seq, hash: sub.hash, outcome: outcome ?? null, updatedAt: at };
    this.noteSubmission(m, seat, events);
    this.broadcast(m, events, texts);
    return 'ok';
  }

  /** After every change: let built-in agents move, and (re)arm the turn deadline. */
  private afterChange(m: LiveMatch): void {
    if (this.closed || m.broken) return;
    if (m.status === 'finished') {
      if (m.timer) clearTimeout(m.timer);
      m.timer = null;
      if (m.agentTimer) clearTimeout(m.agentTimer);
      m.agentTimer = null;
      for (const a of m.agents) a?.close?.();
      for (const r of m.remote.values()) {
        void Promise.resolve(r.agent.end({ type: 'match_end', outcome: m.outcome ?? null })).catch(() => {});
        r.transport.close();
      }
      m.remote.clear();
      return;
    }
    if (m.status !== 'running') return;
    this.askRemote(m);
    const pending = m.pending();
    if (pending.some((p) => m.agents[p.seat])) {
      const play = () =>
        void m
          .run(() => this.playAgents(m))
          .catch((err) => this.warn('agent move failed', { match: m.id, error: String(err) }));
      // a paced match plays one agent move per delay, outside the match's queue (people may act meanwhile)
      if (m.agentDelayMs > 0) {
        if (!m.agentTimer)
          m.agentTimer = setTimeout(() => {
            m.agentTimer = null;
            play();
          }, m.agentDelayMs);
      } else play();
    }
    this.armDeadline(m, pending);
  }

  private async playAgents(m: LiveMatch): Promise<void> {
    await this.agentMoves(m, m.agentDelayMs > 0 ? 1 : 100_000);
    if (m.agentDelayMs > 0 && !this.closed && !m.broken) {
      this.afterChange(m);
      return;
    }
    if (!this.closed && !m.broken && m.status === 'running') {
      this.armDeadline(m, m.pending());
      this.askRemote(m);
    } else if (m.status === 'finished') this.afterChange(m);
  }

  private async agentMoves(m: LiveMatch, most: number): Promise<void> {
    for (let guard = 0; guard < most; guard++) {
      if (this.closed || m.broken || m.status !== 'running') return;
      const p = m.pending().find((x) => m.agents[x.seat]);
      if (!p) return;
      const agent = m.agents[p.seat];
      if (!agent) return;
      const rs = m.pkg.ruleset;
      const menu = rs.legal(m.state, p.seat);
      // a fresh stream per decision, from (seed, seq, seat): the same choices after a restart
      const random = new SeededRandom(agentSeed((m.row.seed + Math.imul(m.seq + 1, 0x9e3779b1)) >>> 0, p.seat));
      let input: Json;
      let dflt: Json = null;
      try {
        input = await agent.choose(agentContext(rs, m.state, p.seat, p.kind, menu, random));
      } catch (err) {
        input = null;
        dflt = defaultRecord('exited', m.seq + 1, String((err as Error)?.message ?? err));
      }
      if (dflt === null && !isPlainJson(input)) {
        dflt = defaultRecord('refused', m.seq + 1, String(input).slice(0, 200));
      } else if (dflt === null && findNul(input) !== null) {
        // refused as it would be from a client (PostgreSQL could not store it): the seat's default
        dflt = defaultRecord('refused', m.seq + 1, canonicalJson(input));
      } else if (dflt === null) input = canonicalInput(input);
      let res = dflt === null ? act(rs, m.state, p.seat, input) : null;
      if (!res || !res.ok) {
        if (dflt === null) dflt = defaultRecord('refused', m.seq + 1, canonicalJson(input ?? null));
        input = defaultActionOf(menu, m.pkg.gameType.defaultAction);
        res = act(rs, m.state, p.seat, input);
        if (!res.ok)
          throw new ArbiterError('illegal', `the default action for seat ${p.seat} was refused: ${res.error.reason}`);
      }
      const out = await this.commit(
        m,
        p.seat,
        input,
        res.state,
        res.events,
        dflt === null ? 'accepted' : 'defaulted',
        dflt,
        null,
      );
      if (out !== 'ok') {
        await this.catchUp(m);
        return;
      }
    }
  }

  private armDeadline(m: LiveMatch, pending: Pending[]): void {
    const limit = m.row.deadlineMs;
    if (!limit) return;
    const now = Date.now();
    // agents on the server and remote protocol agents have their own deadline (the policy's)
    const owing = new Set(pending.filter((p) => !m.agents[p.seat] && !m.remote.has(p.seat)).map((p) => p.seat));
    for (const s of [...m.pendingSince.keys()]) if (!owing.has(s)) m.pendingSince.delete(s);
    for (const s of owing) if (!m.pendingSince.has(s)) m.pendingSince.set(s, now);
    if (m.timer) clearTimeout(m.timer);
    m.timer = null;
    if (m.pendingSince.size === 0) return;
    const due = Math.min(...m.pendingSince.values()) + limit;
    m.timer = setTimeout(
      () => {
        m.timer = null;
        void m
          .run(() => this.expire(m))
          .catch((err) => this.warn('turn deadline failed', { match: m.id, error: String(err) }));
      },
      Math.max(0, due - now),
    );
    m.timer.unref();
  }

  /** A seat let its deadline pass: play the ruleset's default action for it, recorded as such. */
  private async expire(m: LiveMatch): Promise<void> {
    const limit = m.row.deadlineMs;
    if (!limit || this.closed || m.broken || m.status !== 'running') return;
    const now = Date.now();
    for (const [seat, since] of [...m.pendingSince]) {
      if (since + limit > now) continue;
      if (!m.pending().some((p) => p.seat === seat)) continue;
      const menu = m.pkg.ruleset.legal(m.state, seat);
      const input = defaultActionOf(menu, m.pkg.gameType.defaultAction);
      const res = act(m.pkg.ruleset, m.state, seat, input);
      if (!res.ok) continue;
      const out = await this.commit(
        m,
        seat,
        input,
        res.state,
        res.events,
        'defaulted',
        defaultRecord('timeout', m.seq + 1, null),
        null,
      );
      if (out !== 'ok') await this.catchUp(m);
      m.pendingSince.delete(seat);
    }
    this.afterChange(m);
  }

  // ---- remote agents over the agent protocol -----------------------------------------------

  /** After a submission: count it for its seat, and queue the events each remote seat perceives. */
  private noteSubmission(m: LiveMatch, seat: Seat, events: GameEvent[]): void {
    m.submitted.set(seat, (m.submitted.get(seat) ?? 0) + 1);
    if (m.remote.size === 0) return;
    const perfect = m.pkg.gameType.information === 'perfect';
    for (const [s, r] of m.remote) r.seen.push(...eventsSeenBy(m.pkg.ruleset, perfect, events, s));
  }

  private remotePolicy(m: LiveMatch) {
    return {
      ...DEFAULT_POLICY,
      deadlineMs: m.row.deadlineMs ?? this.opts.agentDeadlineMs ?? 10_000,
      maxFailures: this.opts.agentMaxFailures ?? DEFAULT_POLICY.maxFailures,
    };
  }

  /**
   * A seat's token opened a protocol socket: from now on the server asks this seat's decisions
   * through it (match_start at once, then a decision_request whenever the seat is pending), under
   * the same failure policy as every other transport. One protocol connection per seat.
   */
  attachRemote(m: LiveMatch, seat: Seat, channel: Channel): RemoteTransport {
    const have = m.remote.get(seat);
    if (have && have.transport.connected)
      throw new HttpError(409, 'illegal', `seat ${seat} is already played by a connected protocol agent`);
    const transport = new RemoteTransport(channel, seat);
    const policy = this.remotePolicy(m);
    const agent = new SeatAgent({
      seat,
      transport,
      policy,
      requestPrefix: `c${++m.connections}-`,
      onAttempt: (rec) => {
        // the server keeps no per-seat transcript file: dropped answers go to its log
        if (rec.stale?.length)
          this.warn('stale agent answers dropped', {
            match: m.id,
            seat,
            request: rec.request,
            stale: rec.stale,
            count: rec.stale_count ?? rec.stale.length,
          });
      },
    });
    m.remote.set(seat, { transport, agent, asking: false, seen: [] });
    transport.start({
      type: 'match_start',
      protocol: PROTOCOL,
      ruleset: m.pkg.ruleset.id,
      version: m.pkg.ruleset.version,
      seat,
      seats: m.seats.length,
      config: m.row.config as JsonObject,
      rules: rulesText(m.pkg.ruleset, m.pkg),
      default_action: m.pkg.gameType.defaultAction ?? null,
      deadline_ms: policy.deadlineMs,
    });
    if (m.status === 'finished') {
      transport.end({ type: 'match_end', outcome: m.outcome ?? null });
      transport.close();
      m.remote.delete(seat);
    } else if (m.status === 'running' && !m.broken) {
      this.armDeadline(m, m.pending());
      this.askRemote(m);
    }
    return transport;
  }

  /** The protocol socket closed. A failed seat stays failed (it plays its default at once). */
  detachRemote(m: LiveMatch, seat: Seat, transport: RemoteTransport): void {
    transport.lost();
    const r = m.remote.get(seat);
    if (!r || r.transport !== transport) return;
    if (!r.agent.failed) m.remote.delete(seat);
    if (m.status === 'running' && !this.closed && !m.broken) this.armDeadline(m, m.pending());
  }

  /** Ask every pending remote seat that is not being asked yet; seats pending together are asked together. */
  private askRemote(m: LiveMatch): void {
    if (this.closed || m.broken || m.status !== 'running' || m.remote.size === 0) return;
    const rs = m.pkg.ruleset;
    for (const p of m.pending()) {
      const r = m.remote.get(p.seat);
      if (!r || r.asking) continue;
      r.asking = true;
      const state = m.state;
      const mark = m.submitted.get(p.seat) ?? 0;
      const menu = rs.legal(state, p.seat);
      // the policy checks answers against this snapshot; no agent randomness is drawn here
      const ctx = agentContext(rs, state, p.seat, p.kind, menu, new SeededRandom(0));
      const view = ctx.view;
      const base: Omit<DecisionRequest, 'request' | 'deadline_ms' | 'attempt' | 'previous'> = {
        type: 'decision_request',
        seat: p.seat,
        kind: p.kind,
        view,
        view_text: describeViewText(rs, view, p.seat),
        menu: menu as DecisionRequest['menu'],
        events: r.seen.splice(0),
      };
      let again = false;
      void r.agent
        .decide(ctx, base, m.pkg.gameType.defaultAction ?? null)
        .then((d) => m.run(() => this.submitRemote(m, p, r, d, mark)))
        .then(() => {
          again = true;
        })
        .catch((err) => this.warn('remote agent decision failed', { match: m.id, seat: p.seat, error: String(err) }))
        .finally(() => {
          r.asking = false;
          // after a failure, wait for the next change rather than ask again at once (no busy loop)
          if (again && m.remote.get(p.seat) === r) this.askRemote(m);
        });
    }
  }

  /** Store a remote seat's decision (or its default), if the seat still owes it. */
  private async submitRemote(m: LiveMatch, p: Pending, r: RemoteSeat, d: SeatDecision, mark: number): Promise<void> {
    if (this.closed || m.broken || m.status !== 'running') return;
    // the seat acted meanwhile (over HTTP, or through an earlier connection): this answer is late
    if ((m.submitted.get(p.seat) ?? 0) !== mark) return;
    if (!m.pending().some((q) => q.seat === p.seat && q.kind === p.kind)) return;
    const rs = m.pkg.ruleset;
    let input = canonicalInput(d.action);
    let dflt: DefaultInfo | null = d.defaulted ?? null;
    // text holding U+0000 is refused from agents as from clients (PostgreSQL could not store it)
    let res: ReturnType<typeof act> =
      dflt === null && findNul(input) !== null ? { ok: false, error: NUL_REFUSAL } : act(rs, m.state, p.seat, input);
    if (!res.ok && dflt === null) {
      // refused (another seat's move since the request changed what this seat may do, or U+0000 in
      // its text): its default, recorded
      dflt = { reason: 'refused', request: d.request ?? '', raw: canonicalJson(input), error: res.error };
      input = defaultActionOf(rs.legal(m.state, p.seat), m.pkg.gameType.defaultAction);
      res = act(rs, m.state, p.seat, input);
    }
    if (!res.ok)
      throw new ArbiterError('illegal', `the default action for seat ${p.seat} was refused: ${res.error.reason}`);
    const out = await this.commit(
      m,
      p.seat,
      input,
      res.state,
      res.events,
      dflt === null ? 'accepted' : 'defaulted',
      dflt ?? null,
      null,
    );
    if (out !== 'ok') {
      await this.catchUp(m);
      return;
    }
    if (dflt === null && d.request) r.agent.confirm(d.request);
    this.afterChange(m);
  }

  async submissions(m: LiveMatch): Promise<SubmissionRow[]> {
    return this.store.submissions(m.id, 0);
  }
}

/** How spectators may watch, for the public record: live, password, delay (with it), public, or after the end. */
function watchKind(m: LiveMatch): Json {
  const p = watchPolicy(m.row.spectateHash);
  if (p.kind === 'delay') return { delay: p.delay as unknown as Json };
  if (p.kind !== 'open') return p.kind;
  return closedByDefault(m) ? 'after_end' : 'live';
}

/** An error with an HTTP status chosen by the server (not derived from the code). */
export class HttpError extends ArbiterError {
  readonly status: number;
  constructor(status: number, code: ArbiterError['code'], reason: string, detail?: Json) {
    super(code, reason, detail);
    this.status = status;
  }
}

/** The seat a join asks for (or the first open one), refused with the reason when it cannot be had. */
function pickSeat(seats: SeatRow[], seat: number | undefined): number {
  const open = seats.filter((s) => s.kind === 'open').map((s) => s.seat);
  const want = seat ?? open[0];
  if (want === undefined) throw new HttpError(409, 'illegal', 'no open seat in this match');
  if (!seats.some((s) => s.seat === want))
    throw new ArbiterError('bad_request', `seat ${want} does not exist (seats are 0..${seats.length - 1})`);
  if (!open.includes(want)) throw new HttpError(409, 'illegal', `seat ${want} is not open`);
  return want;
}
