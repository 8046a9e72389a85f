// The one match engine: the only state machine of a live game, behind every door (`play`, the
// checked path of `sim` and `tournament`, `drive`, `serve`). It holds the state, the log recorder
// and the event-stream hash, and the seats: each either asked through one seat interface (a
// SeatAgent over any transport: a built-in agent, a program, a web service, a language model, a
// remote socket) or left to a caller that submits for it (a person over HTTP, a drive client).
// Effects come from outside: `commit` makes a change durable before it counts (the server's store;
// nothing for the CLI), `applied` hears every change once it counts (a log writer, a fan-out).

import {
  act,
  ArbiterError,
  canonicalJson,
  cloneJson,
  defaultActionOf,
  findPrototypeKey,
  isPlainJson,
  SeededRandom,
  type StreamHash,
  type GameEvent,
  type Json,
  type JsonObject,
  type Outcome,
  type Pending,
  type Rejection,
  type Ruleset,
  type RulesetPackage,
  type Seat,
} from '../kernel/index.ts';
import { agentContext } from './context.ts';
import { decisionSeed } from './seed.ts';
import { eventsSeenBy, eventText, type EventTexts } from './audience.ts';
import {
  canonicalInput,
  clipRaw,
  DEFAULT_REASONS,
  MatchRecorder,
  recordableConfig,
  type DefaultInfo,
  type DefaultReason,
  type LogEntry,
  type LogFooter,
  type LogHeader,
} from './log.ts';
import type { SeatAgent, SeatDecision } from '../agents/policy.ts';
import { PROTOCOL, type DecisionRequest, type MatchStart } from '../agents/protocol.ts';
import { describeViewText } from '../agents/observe.ts';

/** One change, made but not yet counted: what `commit` is asked to make durable. */
export interface Change<S> {
  entry: LogEntry;
  /** The state after the change. */
  state: S;
  outcome: Outcome | null;
  /** Event-stream hash after the change. */
  hash: string;
  idemKey: string | null;
  /** Each event's canonical text, written once for the hash and every audience's guard. */
  texts: EventTexts;
  /** The hash state after the change (adopted by `apply`). */
  readonly hashed: StreamHash;
}

export type CommitResult = 'ok' | 'conflict' | 'duplicate_key';

export interface EngineEffects<S> {
  /** Make the change durable; 'conflict' when another writer took this seq (nothing is applied then). */
  commit?(change: Change<S>): CommitResult | Promise<CommitResult>;
  /** Every change once it counts, in order. */
  applied?(change: Change<S>): void;
  /** A last screen of an agent's answer before it is judged (the server refuses U+0000). */
  screen?(input: Json): Rejection | null;
}

/** A seat of the engine: asked through its agent, or (agent null) left to whoever submits for it. */
export interface EngineSeat {
  agent: SeatAgent | null;
  /** A decision is being asked. */
  asking: boolean;
  /** Events the seat perceived since it was last asked (sent with the next request). */
  seen: GameEvent[];
  /**
   * After a restart in the middle of a batch: events the seat perceived after the lost request was
   * sent. They belong to the request after the one that replaces it (see `resumeSeen`).
   */
  carry?: GameEvent[];
  /** Log entries of this seat so far: numbers its decisions (agent randomness, late answers). */
  entries: number;
  /** The seat's generator, reseeded for each decision. */
  random?: SeededRandom;
}

export interface EngineInit {
  seed: number;
  config?: unknown;
  /** The seats' agent names, as the header records them. */
  agents?: string[];
  /** Keep every entry and event in memory (the CLI's result); the server keeps none. */
  keepLog?: boolean;
  /** False: keep no line hash and write no footer (a server rebuilds its log from its store). */
  lineHash?: boolean;
}

/** A stored submission as a store or a log gives it back. */
export interface StoredEntry {
  seq: number;
  seat: Seat;
  input: Json;
  result: 'accepted' | 'defaulted' | 'rejected';
  events: readonly GameEvent[] | Json;
  default?: Json;
  /** Event-stream hash after it, when the store keeps one. */
  hash?: string;
}

/** The batch of agent seats asked at one moment, submitted together in seat order. */
export interface AgentBatch {
  asks: { p: Pending; mark: number }[];
  decisions: Promise<SeatDecision[]>;
}

export type SubmitResult<S> =
  | { ok: true; change: Change<S> }
  | { ok: false; error: Rejection }
  | { ok: false; conflict: Exclude<CommitResult, 'ok'> };

export class MatchEngine<S = unknown> {
  readonly rs: Ruleset<S>;
  readonly pkg: RulesetPackage<S> | undefined;
  readonly seed: number;
  readonly config: Json;
  header: LogHeader;
  readonly setupEvents: GameEvent[];
  state: S;
  outcome: Outcome | null;
  readonly seats: EngineSeat[];
  /** Every entry and event so far, when asked to keep them. */
  readonly entries: LogEntry[] | null;
  readonly events: GameEvent[] | null;
  private recorder: MatchRecorder;
  private readonly lineHash: boolean;
  private readonly perfect: boolean;
  /** Perfect information: every seat perceives every event as it is. */
  get isPerfect(): boolean {
    return this.perfect;
  }
  private readonly declaredDefault: string | null;
  /** While a stored history is replayed for a restart: what each seat was sent, as the live loop did. */
  private resume: ResumeTracker | null = null;

  constructor(rs: Ruleset<S>, init: EngineInit, pkg?: RulesetPackage<S>) {
    this.rs = rs;
    this.pkg = pkg;
    this.seed = init.seed;
    this.config = recordableConfig(init.config ?? {});
    this.setupEvents = [];
    this.state = rs.setup(cloneJson(this.config), init.seed, this.setupEvents);
    this.outcome = rs.outcome(this.state);
    this.lineHash = init.lineHash !== false;
    this.recorder = this.newRecorder(init.agents);
    this.header = this.recorder.header;
    this.entries = init.keepLog ? [] : null;
    this.events = init.keepLog ? [...this.setupEvents] : null;
    this.seats = Array.from({ length: rs.seats(this.state) }, () => ({
      agent: null,
      asking: false,
      seen: [],
      entries: 0,
    }));
    this.perfect = pkg?.gameType.information === 'perfect';
    this.declaredDefault = pkg?.gameType.defaultAction ?? null;
  }

  private newRecorder(agents: string[] | undefined, extra?: Pick<LogHeader, 'lineup' | 'seats'>): MatchRecorder {
    return new MatchRecorder(
      {
        ruleset: this.rs.id,
        version: this.rs.version,
        seed: this.seed,
        config: this.config,
        agents,
        setupEvents: this.setupEvents,
        extra,
      },
      { lineHash: this.lineHash },
    );
  }

  /** Name the seats' agents in the header (before the first submission: the header is hashed). */
  nameAgents(names: string[], extra?: Pick<LogHeader, 'lineup' | 'seats'>): void {
    if (this.seq > 0) throw new ArbiterError('bad_request', 'agents are named before the first submission');
    this.recorder = this.newRecorder(names, extra);
    this.header = this.recorder.header;
  }

  get seq(): number {
    return this.recorder.count;
  }

  get hash(): string {
    return this.recorder.eventDigest();
  }

  pending(): Pending[] {
    return this.outcome === null ? this.rs.pending(this.state) : [];
  }

  owes(seat: Seat, kind?: string): boolean {
    return this.pending().some((p) => p.seat === seat && (kind === undefined || p.kind === kind));
  }

  footer(): LogFooter {
    return this.recorder.footer(this.outcome);
  }

  // ---- changes --------------------------------------------------------------------------------

  /**
   * Judge `input` for `seat` against the current state with the checked `act`; an accepted input
   * becomes a change (not yet counted). `dflt` marks the input as the seat's default, played for
   * the recorded reason.
   */
  prepare(
    seat: unknown,
    input: unknown,
    opts: { default?: DefaultInfo | null; idemKey?: string | null } = {},
  ): { ok: true; change: Change<S> } | { ok: false; error: Rejection } {
    // the form the log holds (sorted keys), so replay judges exactly what was judged here
    const submitted = isPlainJson(input) ? canonicalInput(input) : input;
    const res = act(this.rs, this.state, seat, submitted);
    if (!res.ok) return res;
    const texts: EventTexts = new Map();
    const entry: LogEntry = opts.default
      ? {
          seq: this.seq + 1,
          seat: seat as Seat,
          input: submitted as Json,
          result: 'defaulted',
          events: res.events,
          default: opts.default,
        }
      : { seq: this.seq + 1, seat: seat as Seat, input: submitted as Json, result: 'accepted', events: res.events };
    const hashed = this.recorder.hashAfter(res.events, (e) => eventText(e, texts));
    return {
      ok: true,
      change: {
        entry,
        state: res.state,
        outcome: this.rs.outcome(res.state),
        hash: hashed.digest(),
        idemKey: opts.idemKey ?? null,
        texts,
        hashed,
      },
    };
  }

  /** Count a change made by `prepare` against the current state (after its commit succeeded). */
  apply(change: Change<S>): void {
    if (change.entry.seq !== this.seq + 1)
      throw new ArbiterError('corrupt_log', `change ${change.entry.seq} does not follow ${this.seq}`);
    const { seq: _seq, ...rest } = change.entry;
    this.recorder.record(rest, change.hashed);
    this.state = change.state;
    this.outcome = change.outcome;
    this.noteEntry(change.entry);
  }

  /** Record a refused submission (the CLI's log keeps them; a server answers and forgets them). */
  recordRejection(seat: Seat, input: Json, error: Rejection): LogEntry {
    const entry = this.recorder.record({ seat, input, result: 'rejected', events: [], error });
    this.noteEntry(entry);
    return entry;
  }

  private noteEntry(entry: LogEntry): void {
    this.resume?.after(entry, this);
    this.entries?.push(entry);
    if (entry.events.length > 0) this.events?.push(...entry.events);
    const s = this.seats[entry.seat];
    if (s) s.entries++;
    if (entry.events.length === 0) return;
    for (let i = 0; i < this.seats.length; i++) {
      const seat = this.seats[i];
      if (seat.agent && !seat.agent.transport.inProcess)
        seat.seen.push(...eventsSeenBy(this.rs, this.perfect, entry.events, i));
    }
  }

  /** Judge and count one submission, making it durable first through `effects.commit`. */
  async submit(
    seat: unknown,
    input: unknown,
    opts: { default?: DefaultInfo | null; idemKey?: string | null },
    effects: EngineEffects<S> = {},
  ): Promise<SubmitResult<S>> {
    const made = this.prepare(seat, input, opts);
    if (!made.ok) return made;
    const c = effects.commit ? await effects.commit(made.change) : 'ok';
    if (c !== 'ok') return { ok: false, conflict: c };
    this.apply(made.change);
    effects.applied?.(made.change);
    return made;
  }

  /** The seat's default action now (the ruleset's declared one, else the first menu action). */
  defaultAction(seat: Seat): Json {
    return defaultActionOf(this.rs.legal(this.state, seat), this.declaredDefault);
  }

  /** Play the seat's default for `reason` (a deadline passed, an answer was refused ...). */
  submitDefault(seat: Seat, info: DefaultInfo, effects: EngineEffects<S> = {}): Promise<SubmitResult<S>> {
    return this.submit(seat, this.defaultAction(seat), { default: info }, effects).then((r) => {
      if (!r.ok && 'error' in r)
        throw new ArbiterError(
          'illegal',
          `${this.rs.id}: the default action for seat ${seat} was refused: ${r.error.reason}`,
        );
      return r;
    });
  }

  /**
   * Take a submission written elsewhere (a store after a restart, another server, a log): it must
   * be accepted again, give the same events and, when the store kept one, the same hash. Returns
   * the problem, or null.
   */
  replayStored(sub: StoredEntry): string | null {
    if (sub.seq !== this.seq + 1) return `submission ${sub.seq} follows ${this.seq}`;
    this.resume?.before(this);
    if (sub.result === 'rejected') {
      const res = act(this.rs, this.state, sub.seat, sub.input);
      if (res.ok) return `stored submission ${sub.seq} was refused, but is accepted on replay`;
      this.recordRejection(sub.seat, sub.input, res.error);
      return null;
    }
    const dflt = sub.result === 'defaulted' ? defaultInfoOf(sub.default ?? null) : null;
    const made = this.prepare(sub.seat, sub.input, { default: dflt });
    if (!made.ok) return `stored submission ${sub.seq} is refused on replay: ${made.error.reason}`;
    if (canonicalJson(made.change.entry.events) !== canonicalJson(sub.events as Json))
      return `stored submission ${sub.seq} replays to different events`;
    if (sub.hash !== undefined && made.change.hash !== sub.hash)
      return `event-stream hash after submission ${sub.seq} differs`;
    this.apply(made.change);
    return null;
  }

  // ---- a restart: what each seat had been told ---------------------------------------------------

  /**
   * Call before replaying a stored history into a new engine whose agents are seated afterwards (a
   * server restart): the replay then follows the live loop's batches (every pending seat asked
   * together when nobody is being asked, answered in the stored order) and notes the events each
   * seat perceived since its last request. Without it, a program or model seat's first request
   * after the restart would lack them, and the match would go on differently than it would have.
   */
  beginResume(): void {
    this.resume = new ResumeTracker(this.seats.length);
  }

  /**
   * Call once the agents are seated after `beginResume` and the replay: a seat whose request was
   * lost with the old process is asked again with what that request held; one that was not being
   * asked gets what it perceived since its last request, as if nothing had happened.
   */
  resumeSeen(): void {
    const r = this.resume;
    this.resume = null;
    if (!r) return;
    this.seats.forEach((s, seat) => {
      if (!s.agent) return;
      // request ids, the failure policy's streak and verdict go on from the log
      s.agent.resume(r.answers[seat]);
      if (s.agent.transport.inProcess) return;
      const lost = r.inFlight[seat];
      if (r.batch.has(seat) && lost) {
        s.seen = lost;
        s.carry = r.seen[seat];
      } else s.seen = r.seen[seat];
    });
  }

  // ---- seats asked through an agent -----------------------------------------------------------

  /** Seat an agent (or, with null, leave the seat to whoever submits for it). */
  seatAgent(seat: Seat, agent: SeatAgent | null): void {
    const s = this.seats[seat];
    s.agent = agent;
    s.seen = [];
    s.carry = undefined;
    s.asking = false;
  }

  /** The match_start message of `seat` (rules text only where it crosses a boundary). */
  matchStart(seat: Seat, deadlineMs: number, rules: string): MatchStart {
    return {
      type: 'match_start',
      protocol: PROTOCOL,
      ruleset: this.rs.id,
      version: this.rs.version,
      seat,
      seats: this.seats.length,
      config: this.config as JsonObject,
      rules,
      default_action: this.declaredDefault,
      deadline_ms: deadlineMs,
    };
  }

  /** The random stream of the seat's next decision (a fresh one per decision; see seed.ts). */
  decisionRandom(seat: Seat): SeededRandom {
    const s = this.seats[seat];
    s.random ??= new SeededRandom(0);
    return s.random.reseed(decisionSeed(this.seed, seat, s.entries));
  }

  /**
   * Ask every pending seat that has an agent and is not being asked, together, against the state
   * of this moment. Null when there is nobody to ask.
   */
  askAgents(): AgentBatch | null {
    const asks: AgentBatch['asks'] = [];
    for (const p of this.pending()) {
      const s = this.seats[p.seat];
      if (s.agent && !s.asking) asks.push({ p, mark: s.entries });
    }
    if (asks.length === 0) return null;
    const snapshot = this.state;
    const decisions = asks.map(({ p }) => {
      const s = this.seats[p.seat];
      const agent = s.agent as SeatAgent;
      s.asking = true;
      const menu = this.rs.legal(snapshot, p.seat);
      const ctx = agentContext(this.rs, snapshot, p.seat, p.kind, menu, this.decisionRandom(p.seat));
      let asked: Promise<SeatDecision> | SeatDecision;
      if (agent.transport.inProcess) {
        // in-process agents read the context directly; the protocol fields would go unread
        asked = agent.decide(ctx, LAZY_BASE, this.declaredDefault);
      } else {
        const view = ctx.view;
        const base: Omit<DecisionRequest, 'request' | 'deadline_ms' | 'attempt' | 'previous'> = {
          type: 'decision_request',
          seat: p.seat,
          kind: p.kind,
          view,
          view_text: describeViewText(this.rs, view, p.seat),
          menu: menu as DecisionRequest['menu'],
          events: s.seen.splice(0),
        };
        if (s.carry) {
          s.seen.push(...s.carry);
          s.carry = undefined;
        }
        asked = agent.decide(ctx, base, this.declaredDefault);
      }
      return Promise.resolve(asked);
    });
    // a seat stays "being asked" until its answer is submitted or dropped (submitBatch, release)
    const all = Promise.all(decisions);
    all.catch(() => this.release({ asks, decisions: all }));
    return { asks, decisions: all };
  }

  /** Give up a batch without submitting it: its seats may be asked again. */
  release(batch: AgentBatch): void {
    for (const { p } of batch.asks) this.seats[p.seat].asking = false;
  }

  /**
   * Submit a batch's answers in seat order, so the log does not depend on who answered first. An
   * answer whose seat acted meanwhile, or no longer owes that decision, is late and dropped; an
   * answer refused now (another seat's move changed what it may do) plays the seat's default,
   * recorded as refused. Returns how many changes counted, or a commit conflict.
   */
  async submitBatch(
    batch: AgentBatch,
    decisions: SeatDecision[],
    effects: EngineEffects<S> = {},
    limit = Number.POSITIVE_INFINITY,
  ): Promise<{ applied: number; conflict?: Exclude<CommitResult, 'ok'> }> {
    try {
      return await this.submitAnswers(batch, decisions, effects, limit);
    } finally {
      this.release(batch);
    }
  }

  private async submitAnswers(
    batch: AgentBatch,
    decisions: SeatDecision[],
    effects: EngineEffects<S>,
    limit: number,
  ): Promise<{ applied: number; conflict?: Exclude<CommitResult, 'ok'> }> {
    let applied = 0;
    for (let i = 0; i < batch.asks.length && applied < limit; i++) {
      const r = await this.submitAnswer(batch, decisions, i, effects);
      if (r === 'applied') applied++;
      else if (r !== 'dropped') return { applied, conflict: r.conflict };
    }
    return { applied };
  }

  /**
   * Submit the batch's answer number `i` (in seat order), unless it is late: its seat acted
   * meanwhile or no longer owes that decision. A paced server submits a batch one answer at a time
   * this way, then releases it; everyone else calls `submitBatch`.
   */
  async submitAnswer(
    batch: AgentBatch,
    decisions: SeatDecision[],
    i: number,
    effects: EngineEffects<S> = {},
  ): Promise<'applied' | 'dropped' | { conflict: Exclude<CommitResult, 'ok'> }> {
    const { p, mark } = batch.asks[i];
    const d = decisions[i];
    const s = this.seats[p.seat];
    if (this.outcome !== null || s.entries !== mark || !this.owes(p.seat, p.kind)) return 'dropped';
    const agent = s.agent;
    const input = d.action;
    // an answer the log could not hold faithfully (a prototype key, Infinity, a function) stops
    // the match with a clear error (protocol agents never get here: their answers are parsed JSON)
    if (!isPlainJson(input) || findPrototypeKey(input) !== null) {
      const why = !isPlainJson(input)
        ? 'is not plain JSON (a number JSON cannot hold, or a non-JSON value)'
        : `holds the key "${findPrototypeKey(input)}"`;
      throw new ArbiterError(
        'bad_request',
        `agent ${agent?.name ?? '?'} at seat ${p.seat} answered with an action that ${why}; a match log cannot record it`,
      );
    }
    const screened = d.defaulted ? null : (effects.screen?.(input) ?? null);
    let r: SubmitResult<S>;
    if (screened) r = { ok: false, error: screened };
    else r = await this.submit(p.seat, input, { default: d.defaulted ?? null }, effects);
    if (!r.ok && 'error' in r) {
      if (d.defaulted)
        throw new ArbiterError(
          'illegal',
          `${this.rs.id}: the default action for seat ${p.seat} was refused: ${r.error.reason}`,
        );
      r = await this.submitDefault(
        p.seat,
        { reason: 'refused', request: d.request ?? '', raw: clipRaw(canonicalJson(input)), error: r.error },
        effects,
      );
    }
    if (!r.ok) return { conflict: (r as { conflict: Exclude<CommitResult, 'ok'> }).conflict };
    if (!d.defaulted && d.request) agent?.confirm(d.request);
    return 'applied';
  }
}

const LAZY_BASE = {
  type: 'decision_request' as const,
  seat: 0,
  kind: '',
  view: null,
  view_text: '',
  menu: { actions: [] },
  events: [],
};

/** A default record as a store gives it back, read leniently into the log's shape. */
export function defaultInfoOf(d: Json): DefaultInfo {
  const o = d !== null && typeof d === 'object' && !Array.isArray(d) ? d : {};
  const reason = (DEFAULT_REASON_SET.has(String(o.reason)) ? o.reason : 'timeout') as DefaultReason;
  const info: DefaultInfo = {
    reason,
    request: typeof o.request === 'number' || typeof o.request === 'string' ? o.request : 0,
    raw: typeof o.raw === 'string' ? o.raw : null,
  };
  const e = o.error;
  if (
    e !== null &&
    typeof e === 'object' &&
    !Array.isArray(e) &&
    typeof e.code === 'string' &&
    typeof e.reason === 'string'
  )
    info.error = (
      e.detail === undefined ? { code: e.code, reason: e.reason } : { code: e.code, reason: e.reason, detail: e.detail }
    ) as Rejection;
  return info;
}

const DEFAULT_REASON_SET = new Set<string>(DEFAULT_REASONS);

/**
 * The live loop's batches, followed through a replayed history (MatchEngine.beginResume): when no
 * seat is being asked, every pending seat is asked together and is sent what it perceived since
 * its last request; a seat's batch ends with its entry, or when it no longer owes a decision.
 */
class ResumeTracker {
  readonly seen: GameEvent[][];
  readonly inFlight: (GameEvent[] | null)[];
  readonly batch = new Set<Seat>();
  /** Each seat's decisions so far: null for an accepted answer, else its default's reason. */
  readonly answers: (DefaultReason | null)[][];

  constructor(seats: number) {
    this.seen = Array.from({ length: seats }, () => []);
    this.inFlight = Array.from({ length: seats }, () => null);
    this.answers = Array.from({ length: seats }, () => []);
  }

  before(engine: MatchEngine<unknown>): void {
    if (this.batch.size > 0) return;
    for (const p of engine.pending()) {
      if (this.batch.has(p.seat)) continue;
      this.batch.add(p.seat);
      this.inFlight[p.seat] = this.seen[p.seat];
      this.seen[p.seat] = [];
    }
  }

  after(entry: LogEntry, engine: MatchEngine<unknown>): void {
    if (entry.result !== 'rejected') {
      this.batch.delete(entry.seat);
      this.answers[entry.seat]?.push(entry.result === 'defaulted' ? (entry.default?.reason ?? null) : null);
    }
    if (entry.events.length > 0)
      for (let i = 0; i < this.seen.length; i++)
        this.seen[i].push(...eventsSeenBy(engine.rs, engine.isPerfect, entry.events, i));
    // an asked seat that no longer owes a decision (another seat's move took it away) is released
    for (const seat of this.batch) if (!engine.owes(seat)) this.batch.delete(seat);
  }
}
