// The match service: matches held in memory, every change written to the store before it is
// acknowledged, built-in agents and turn deadlines played on the server, and a fan-out of what each
// seat (or a spectator) may see to whoever watches. One queue per match orders its changes.

import { createHash, randomBytes, randomFillSync, randomInt, scryptSync, timingSafeEqual } from 'node:crypto';
import {
  ArbiterError,
  canonicalJson,
  type GameEvent,
  type Json,
  type JsonObject,
  type Menu,
  type Outcome,
  type Pending,
  type RulesetPackage,
  type Seat,
} from '@arbiter/engine/kernel';
import { PACKAGES } from '@arbiter/engine';
import { agentNames, makeAgent, type AgentEnv } from '../agents/resolve.ts';
import { eventsGuarded, publicPending, type EventTexts } from '@arbiter/engine/match';
import { MatchEngine, type Change, type EngineEffects, type SubmitResult } from '@arbiter/engine/match';
import { recordableConfig } from '@arbiter/engine/match';
import { DEFAULT_POLICY, inProcessTransport, SeatAgent, type PolicyOptions } from '@arbiter/engine/agents';
import type { Transport } from '@arbiter/engine/agents';
import { REMOTE_CLOSE, RemoteTransport, type Channel } from './remote.ts';
import { findNul, NUL_REFUSAL, scrubNul } from './schemas.ts';
import { rulesText } from '@arbiter/engine/match';
import type { MatchRow, MatchStatus, SeatRow, Store, SubmissionRow } from './store.ts';
import { closedByDefault, storedPolicy, watchPolicy, type Delay } from './watch.ts';
import { type ChosenLineup, type Episodes, lineupOfHeader } from './episodes.ts';

/** A seat, or a spectator (who sees the match `delay` ago when its creator chose a delay). */
export type Audience = { seat: Seat } | { seat: null; delay?: Delay };

/** A WebSocket (or any push channel) watching one match as one audience. */
export interface Subscriber {
  seat: Seat | null;
  send(frame: JsonObject): void;
}

/**
 * A seat played by a remote agent over the protocol socket: its transport under the one failure
 * policy (the engine asks it like any agent seat). A failed seat keeps its entry (with the socket
 * closed) and plays its default at once until a new protocol connection takes the seat.
 */
export type RemoteSeat = { transport: RemoteTransport; agent: SeatAgent };

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
  /** Seat every seat from this line-up (an id the server offers: `GET /api/lineups`). */
  lineup?: string;
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
  /** What agents that call out need (model endpoints, cassettes, stderr folder): as `arbiter play` has. */
  agentEnv?: AgentEnv;
  /** Line-ups offered to creators and the transcripts of their seats (live episodes). */
  episodes?: Episodes;
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

/**
 * One match in memory: its match engine (state, hashes, seats and their agents), its rows, and who
 * is watching. The engine decides; this adds persistence, fan-out and the turn deadline of seats
 * played by people.
 */
export class LiveMatch {
  readonly engine: MatchEngine<unknown>;
  status: MatchStatus;
  seats: SeatRow[];
  readonly subs = new Set<Subscriber>();
  /** When each seat left to a person began to owe its decision (for turn deadlines). */
  readonly pendingSince = new Map<Seat, number>();
  timer: NodeJS.Timeout | null = null;
  /** Pause before each batch of agent moves (0: none), and the timer of the next paced batch. */
  agentDelayMs = 0;
  agentTimer: NodeJS.Timeout | null = null;
  /** Seats played by remote agents over the agent protocol (docs/agents.md). */
  readonly remote = new Map<Seat, RemoteSeat>();
  /** Agents this server plays (built-in, and with --allow-external-agents cmd:, http:, llm:). */
  readonly agents = new Map<Seat, SeatAgent>();
  /** Agents whose match_start is done (or failed, which fails the seat). */
  readonly started = new Map<Seat, Promise<void>>();
  /** Protocol connections so far (request ids carry it, so they stay unique in the match). */
  connections = 0;
  /** Set when the stored history does not replay: the match refuses changes. */
  broken: string | null = null;
  /** The line-up its seats came from, when one was chosen (its model seats' settings live here). */
  lineup: ChosenLineup | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly pkg: RulesetPackage,
    public row: MatchRow,
    engine: MatchEngine<unknown>,
    seats: SeatRow[],
  ) {
    this.engine = engine;
    this.status = row.status;
    this.seats = seats;
  }

  get id(): string {
    return this.row.id;
  }

  get state(): unknown {
    return this.engine.state;
  }

  get seq(): number {
    return this.engine.seq;
  }

  get outcome(): Outcome | null {
    return this.engine.outcome;
  }

  /** Run `fn` after every change queued before it (one writer per match in this process). */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  pending(): Pending[] {
    return this.engine.pending();
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
  /** Line-ups offered and transcripts kept (absent: no line-ups, no transcripts). */
  readonly episodes: Episodes | undefined;

  constructor(opts: ServiceOptions) {
    this.store = opts.store;
    this.packages = opts.packages ?? PACKAGES;
    this.episodes = opts.episodes;
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
      for (const a of m.agents.values()) void Promise.resolve(a.close()).catch(() => {});
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
    const engine = new MatchEngine(pkg.ruleset, { seed: row.seed, config: row.config, lineHash: false }, pkg);
    const m = new LiveMatch(pkg, { ...row }, engine, seats);
    const header = row.header;
    if (pkg.ruleset.version !== row.version)
      m.broken = `stored with ruleset version ${row.version}, this server has ${pkg.ruleset.version}`;
    else if (canonicalJson(header.setup_events ?? []) !== canonicalJson(engine.setupEvents))
      m.broken = 'setup events differ from the stored header';
    if (!m.broken) {
      this.replayInto(m, await this.store.submissions(id, 0));
      if (!m.broken && engine.hash !== row.hash)
        m.broken = `event-stream hash ${engine.hash} differs from the stored ${row.hash}`;
    }
    if (m.broken) this.warn('match does not replay', { match: id, problem: m.broken });
    this.live.set(id, m);
    if (!m.broken && m.status !== 'finished') m.lineup = this.lineupAgain(m);
    if (!m.broken) {
      this.seatAgents(m);
      this.afterChange(m);
    }
    return m;
  }

  /** Apply stored submissions (ours after a restart, or another server's), each checked by the engine. */
  private replayInto(m: LiveMatch, subs: SubmissionRow[]): SubmissionRow[] {
    const applied: SubmissionRow[] = [];
    for (const sub of subs) {
      const problem = m.engine.replayStored(sub);
      if (problem !== null) {
        m.broken = problem;
        break;
      }
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
    const lineup = lineupOfHeader(m.row.header);
    if (lineup !== null) rec.lineup = lineup;
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
    const engine = new MatchEngine(rs, { seed, config, lineHash: false }, pkg);
    const n = engine.seats.length;
    const specs = input.seats ?? [];
    if (specs.length > n)
      throw new ArbiterError('bad_request', `${rs.id} with this config has ${n} seats, ${specs.length} described`);
    const known = agentNames(pkg);
    const seats: SeatRow[] = [];
    const fromLineup = input.lineup === undefined ? null : this.chooseLineup(pkg, input.lineup, specs.length, n);
    for (let seat = 0; seat < n && fromLineup; seat++)
      seats.push({ seat, kind: 'agent', name: fromLineup.names[seat], tokenHash: null });
    for (let seat = fromLineup ? n : 0; seat < n; seat++) {
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
    // the header names each seat's agent, as `arbiter play --agents` writes it (people: "remote")
    engine.nameAgents(
      seats.map((s) => (s.kind === 'agent' ? String(s.name) : 'remote')),
      fromLineup?.header,
    );
    const header = JSON.parse(canonicalJson(engine.header)) as JsonObject;
    const now = Date.now();
    const outcome = engine.outcome;
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
      hash: engine.hash,
      outcome: outcome ?? null,
      createdAt: now,
      updatedAt: now,
    };
    const m = new LiveMatch(pkg, row, engine, seats);
    m.lineup = fromLineup;
    // agents are made (and a bad spec refused) before anything is stored
    this.seatAgents(m);
    try {
      // an episode's model seats start (preflight) now: a rejected key or a wrong model refuses the
      // creation with the provider's answer, instead of a match of defaults on the web page
      if (fromLineup) await this.startNow(m);
      await this.store.createMatch(row, seats);
    } catch (err) {
      for (const a of m.agents.values()) void Promise.resolve(a.close()).catch(() => {});
      throw err;
    }
    m.agentDelayMs = input.agentDelayMs ?? 0;
    this.live.set(row.id, m);
    this.afterChange(m);
    return m;
  }

  /** Seat the agents this server plays, each under the failure policy, as `arbiter play` seats them. */
  private seatAgents(m: LiveMatch): void {
    const policy = this.agentPolicy(m);
    for (const s of m.seats) {
      if (s.kind !== 'agent' || !s.name || m.agents.has(s.seat)) continue;
      const env = this.opts.agentEnv ?? {};
      const fromLineup = m.lineup?.seats[s.seat];
      const made =
        fromLineup && this.opts.episodes
          ? this.opts.episodes.agent(m.pkg, fromLineup, env, s.seat)
          : makeAgent(m.pkg, s.name, env, s.seat);
      const t = (made as { transport?: Transport }).transport;
      const transport = t && typeof t.decide === 'function' ? t : inProcessTransport(made);
      const agent = new SeatAgent({
        seat: s.seat,
        transport,
        policy,
        onAttempt: (rec) => {
          if (rec.ok === false) this.warn('agent decision failed', { match: m.id, ...rec } as JsonObject);
          // programs and models leave a transcript per seat, read from the match page after the end
          if (!transport.inProcess) this.opts.episodes?.record(m.id, rec);
        },
      });
      m.agents.set(s.seat, agent);
      m.engine.seatAgent(s.seat, agent);
    }
  }

  /** match_start to every agent seat of a new episode; the first that cannot start refuses it. */
  private async startNow(m: LiveMatch): Promise<void> {
    const policy = this.agentPolicy(m);
    const rules = rulesText(m.pkg.ruleset, m.pkg);
    const starts = [...m.agents].map(([seat, a]) => {
      const p = Promise.resolve().then(() =>
        a.start(m.engine.matchStart(seat, policy.deadlineMs, a.transport.inProcess ? '' : rules)),
      );
      m.started.set(
        seat,
        p.catch(() => a.fail()),
      );
      return p.catch((err: unknown) => {
        throw new ArbiterError(
          'bad_config',
          `seat ${seat} (${m.seats[seat]?.name ?? 'agent'}) cannot start: ${maskKeys(String((err as Error)?.message ?? err))}`,
        );
      });
    });
    await Promise.all(starts);
  }

  /** A line-up for a new match (refused with seats described too, or on a server without episodes). */
  private chooseLineup(pkg: RulesetPackage, id: string, described: number, seats: number): ChosenLineup {
    if (described > 0)
      throw new ArbiterError('bad_request', 'lineup and seats exclude each other (the line-up seats every seat)');
    if (!this.opts.episodes) throw new ArbiterError('bad_request', 'this server offers no line-ups');
    return this.opts.episodes.choose(pkg, id, seats);
  }

  /**
   * After a restart, a running match's line-up is chosen again from its header, so its model seats
   * get their prompts and settings back; a line-up no longer offered leaves the seats to their names.
   */
  private lineupAgain(m: LiveMatch): ChosenLineup | null {
    const id = (m.row.header.lineup as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string' || !this.opts.episodes) return null;
    try {
      const c = this.opts.episodes.choose(m.pkg, id, m.seats.length);
      const was = (m.row.header.lineup as { version?: unknown }).version;
      if (c.version === was) return c;
      this.warn('line-up changed since the match began; its seats play by name', { match: m.id, lineup: id });
    } catch (err) {
      this.warn('line-up not offered any more; its seats play by name', { match: m.id, error: String(err) });
    }
    return null;
  }

  private agentPolicy(m: LiveMatch): PolicyOptions {
    return {
      ...DEFAULT_POLICY,
      deadlineMs: m.row.deadlineMs ?? this.opts.agentDeadlineMs ?? DEFAULT_POLICY.deadlineMs,
      maxFailures: this.opts.agentMaxFailures ?? DEFAULT_POLICY.maxFailures,
    };
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
   * Submit one action for `seat`. The engine judges it with the checked `act`; an accepted action
   * is written (with its seq) before this resolves. A repeated idempotency key answers the stored
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
        const r = await m.engine.submit(seat, input, { idemKey }, this.effects(m));
        if (r.ok) {
          this.afterChange(m);
          return {
            seq: m.seq,
            events: this.eventsOut(m, seat, r.change.entry.events, r.change.texts),
            outcome: m.outcome,
            replayed: false,
          };
        }
        if ('error' in r) throw new ArbiterError(r.error.code, r.error.reason, r.error.detail);
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
   * The engine's effects for this match: every change is written (submission and new head in one
   * transaction) before it counts, then sent to whoever watches.
   */
  private effects(m: LiveMatch): EngineEffects<unknown> {
    return {
      commit: (c) => this.commit(m, c),
      applied: (c) => {
        const status: MatchStatus = c.outcome ? 'finished' : m.status;
        m.status = status;
        m.row = {
          ...m.row,
          status,
          seq: c.entry.seq,
          hash: c.hash,
          outcome: c.outcome ?? null,
          updatedAt: Date.now(),
        };
        this.broadcast(m, c.entry.events, c.texts);
      },
      // text holding U+0000 is refused from agents as from clients (PostgreSQL could not store it)
      screen: (input) => (findNul(input) === null ? null : NUL_REFUSAL),
    };
  }

  private commit(m: LiveMatch, c: Change<unknown>): Promise<'ok' | 'conflict' | 'duplicate_key'> {
    const e = c.entry;
    const status: MatchStatus = c.outcome ? 'finished' : m.status;
    const dflt = (e.default ?? null) as Json;
    const sub: SubmissionRow = {
      seq: e.seq,
      seat: e.seat,
      input: e.input,
      result: e.result === 'defaulted' ? 'defaulted' : 'accepted',
      events: e.events,
      // what a failing agent sent may hold U+0000, which PostgreSQL cannot store
      default: findNul(dflt) === null ? dflt : scrubNul(dflt),
      idemKey: c.idemKey,
      hash: c.hash,
      at: Date.now(),
    };
    return this.store.append(m.id, sub, { status, seq: e.seq, hash: c.hash, outcome: c.outcome ?? null });
  }

  /** After every change: let agents move, and (re)arm the turn deadline of seats left to people. */
  private afterChange(m: LiveMatch): void {
    if (this.closed || m.broken) return;
    if (m.status === 'finished') {
      if (m.timer) clearTimeout(m.timer);
      m.timer = null;
      if (m.agentTimer) clearTimeout(m.agentTimer);
      m.agentTimer = null;
      for (const [seat, a] of m.agents) {
        void Promise.resolve(a.end({ type: 'match_end', outcome: m.outcome ?? null }))
          .catch(() => {})
          .finally(() => a.close());
        m.agents.delete(seat);
      }
      for (const r of m.remote.values()) {
        void Promise.resolve(r.agent.end({ type: 'match_end', outcome: m.outcome ?? null })).catch(() => {});
        r.transport.close();
      }
      m.remote.clear();
      this.opts.episodes?.finished(m.id);
      return;
    }
    if (m.status !== 'running') return;
    this.askAgents(m);
    this.armDeadline(m, m.pending());
  }

  /**
   * Ask every pending agent seat (built-in, external, remote socket) that is not being asked,
   * together, as the engine asks in `arbiter play`, and submit their answers in seat order; a paced
   * match waits its delay first. People may act meanwhile.
   */
  private askAgents(m: LiveMatch): void {
    if (m.agentTimer || this.closed || m.broken || m.status !== 'running') return;
    const ask = (p: Pending) => {
      const s = m.engine.seats[p.seat];
      return s.agent !== null && !s.asking;
    };
    if (!m.pending().some(ask)) return;
    if (m.agentDelayMs > 0) {
      m.agentTimer = setTimeout(() => {
        m.agentTimer = null;
        this.startBatch(m);
      }, m.agentDelayMs);
      return;
    }
    this.startBatch(m);
  }

  private startBatch(m: LiveMatch): void {
    if (this.closed || m.broken || m.status !== 'running') return;
    void this.agentsReady(m)
      .then(() => {
        const batch = m.engine.askAgents();
        if (!batch) return;
        return batch.decisions.then(async (ds) => {
          if (m.agentDelayMs <= 0)
            return m.run(async () => {
              if (this.closed || m.broken || m.status !== 'running') {
                m.engine.release(batch);
                return;
              }
              const r = await m.engine.submitBatch(batch, ds, this.effects(m));
              if (r.conflict) await this.catchUp(m);
            });
          // paced: the batch's answers go in one at a time, a delay apart, so a spectator sees
          // every move (the log is the same as unpaced: seat order, the same answers)
          try {
            for (let i = 0; i < batch.asks.length; i++) {
              if (i > 0) await new Promise((ok) => setTimeout(ok, m.agentDelayMs));
              if (this.closed || m.broken || m.status !== 'running') return;
              const r = await m.run(() => m.engine.submitAnswer(batch, ds, i, this.effects(m)));
              if (typeof r === 'object') {
                await m.run(() => this.catchUp(m));
                return;
              }
            }
          } finally {
            m.engine.release(batch);
          }
        });
      })
      .catch((err) => this.warn('agent move failed', { match: m.id, error: String(err) }))
      .finally(() => {
        if (!this.closed && !m.broken) this.afterChange(m);
      });
  }

  /** match_start to every agent seat of the match, once; an agent that cannot start fails its seat. */
  private async agentsReady(m: LiveMatch): Promise<void> {
    const policy = this.agentPolicy(m);
    let rules: string | null = null;
    const starting: Promise<void>[] = [];
    for (const [seat, a] of m.agents) {
      let p = m.started.get(seat);
      if (!p) {
        if (!a.transport.inProcess) rules ??= rulesText(m.pkg.ruleset, m.pkg);
        p = Promise.resolve()
          .then(() => a.start(m.engine.matchStart(seat, policy.deadlineMs, a.transport.inProcess ? '' : (rules ?? ''))))
          .catch((err: unknown) => {
            this.warn('agent could not start; its seat plays its default', {
              match: m.id,
              seat,
              error: String((err as Error)?.message ?? err),
            });
            a.fail();
          });
        m.started.set(seat, p);
      }
      starting.push(p);
    }
    await Promise.all(starting);
  }

  private armDeadline(m: LiveMatch, pending: Pending[]): void {
    const limit = m.row.deadlineMs;
    if (!limit) return;
    const now = Date.now();
    // seats asked through an agent have their own deadline (the policy's)
    const owing = new Set(pending.filter((p) => !m.engine.seats[p.seat].agent).map((p) => p.seat));
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
      if (!m.engine.owes(seat) || m.engine.seats[seat].agent) continue;
      let r: SubmitResult<unknown>;
      try {
        r = await m.engine.submitDefault(seat, { reason: 'timeout', request: m.seq + 1, raw: null }, this.effects(m));
      } catch {
        continue;
      }
      if (!r.ok) await this.catchUp(m);
      m.pendingSince.delete(seat);
    }
    this.afterChange(m);
  }

  // ---- remote agents over the agent protocol -----------------------------------------------

  /**
   * A seat's token opened a protocol socket: from now on the engine asks this seat's decisions
   * through it (match_start at once, then a decision_request whenever the seat is pending), under
   * the same failure policy as every other transport. One protocol connection per seat.
   */
  attachRemote(m: LiveMatch, seat: Seat, channel: Channel): RemoteTransport {
    const have = m.remote.get(seat);
    if (have && have.transport.connected)
      throw new HttpError(409, 'illegal', `seat ${seat} is already played by a connected protocol agent`);
    const transport = new RemoteTransport(channel, seat);
    const policy = this.agentPolicy(m);
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
    m.remote.set(seat, { transport, agent });
    transport.start(m.engine.matchStart(seat, policy.deadlineMs, rulesText(m.pkg.ruleset, m.pkg)));
    if (m.status === 'finished') {
      transport.end({ type: 'match_end', outcome: m.outcome ?? null });
      transport.close();
      m.remote.delete(seat);
    } else {
      m.engine.seatAgent(seat, agent);
      if (m.status === 'running' && !m.broken) this.afterChange(m);
    }
    return transport;
  }

  /** The protocol socket closed. A failed seat stays failed (it plays its default at once). */
  detachRemote(m: LiveMatch, seat: Seat, transport: RemoteTransport): void {
    transport.lost();
    const r = m.remote.get(seat);
    if (!r || r.transport !== transport) return;
    if (!r.agent.failed) {
      m.remote.delete(seat);
      if (m.engine.seats[seat].agent === r.agent) m.engine.seatAgent(seat, null);
    }
    if (m.status === 'running' && !this.closed && !m.broken) this.armDeadline(m, m.pending());
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

/**
 * A provider's refusal as the match creator may read it: providers quote part of a rejected key
 * ("Incorrect API key provided: sk-proj-…abcd"); whatever looks like a key is cut to its prefix.
 */
function maskKeys(text: string): string {
  return text.replace(/\b(sk-(?:ant-|proj-)?|AIza)[A-Za-z0-9_*.-]{4,}/g, '$1…');
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
