// The match runner: seats agents, feeds their choices through the checked `act`, and records the
// JSON Lines match log of docs/logs.md. `playFast` is the simulation loop: trusted menu actions
// applied in place, no log, for sims and benchmarks.

import {
  act,
  ArbiterError,
  assertNoPrototypeKeys,
  canonicalJson,
  cloneJson,
  findPrototypeKey,
  isPlainJson,
  SeededRandom,
  StreamHash,
  step,
  validateAction,
  type Agent,
  type GameEvent,
  type Json,
  type Outcome,
  type JsonObject,
  type Rejection,
  type Ruleset,
  type RulesetPackage,
} from '../kernel/index.ts';
import { agentContext } from './context.ts';
import { agentSeed } from '../agents/seed.ts';
import {
  DEFAULT_POLICY,
  inProcessTransport,
  SeatAgent,
  type AttemptRecord,
  type PolicyOptions,
} from '../agents/policy.ts';
import { PROTOCOL, type DecisionRequest } from '../agents/protocol.ts';
import { describeViewText, eventsSeenBy } from '../agents/observe.ts';
import type { Transport } from '../agents/transport.ts';

const ENGINE = 'arbiter 0.1.0';
/** Engines whose logs this build can verify (a log names the engine that wrote it). */
export const KNOWN_ENGINES: readonly string[] = [ENGINE];
/** The version of the log format below; a header without it, or with another, is refused. */
export const LOG_FORMAT = 1;

export type LogHeader = {
  format: typeof LOG_FORMAT;
  ruleset: string;
  version: string;
  engine: string;
  seed: number;
  /** The config exactly as setup received it (a plain JSON copy taken before setup ran). */
  config: Json;
  agents?: string[];
  /** Events of the automatic steps `setup` took, when there were any (first in the hash). */
  setup_events?: GameEvent[];
  /** The line-up the seats came from, when one was named (issue 25). */
  lineup?: { id: string; version: string };
  /** Per seat, what answered it: a model seat's provider, model, temperature and system-prompt hash. */
  seats?: SeatHeader[];
};

/** One seat in the header: the agent spec, and for a model seat what was asked and how. */
export type SeatHeader = {
  agent: string;
  provider?: string;
  model?: string;
  /** null when the seat sends no temperature (reasoning models). */
  temperature?: number | null;
  /** First 16 hex digits of the SHA-256 of the whole system prompt (rules text included). */
  system_hash?: string;
};

/** Why a runner played a seat's default action instead of the agent's answer (issue 12). */
/**
 * Why a runner played a seat's default action instead of the agent's answer (issue 12). Besides
 * the six of the issue: `error`, the transport itself failed (an HTTP status, a model API error
 * after the SDK's retries, a connection refused); `seat_failed`, the seat had failed K decisions
 * in a row and now plays its default at once without being asked.
 */
export type DefaultReason =
  | 'timeout'
  | 'invalid_json'
  | 'refused'
  | 'oversize'
  | 'exited'
  | 'stale'
  | 'error'
  | 'seat_failed';
export const DEFAULT_REASONS: readonly DefaultReason[] = [
  'timeout',
  'invalid_json',
  'refused',
  'oversize',
  'exited',
  'stale',
  'error',
  'seat_failed',
];
/** The agent's raw answer is kept at most this long (UTF-16 units) in a defaulted record. */
export const MAX_DEFAULT_RAW = 4096;

export type DefaultInfo = {
  reason: DefaultReason;
  /** The id of the decision request the agent failed to answer. */
  request: number | string;
  /** What the agent sent, cut to MAX_DEFAULT_RAW; null when it sent nothing. */
  raw: string | null;
  /** The rejection of the agent's answer, when reason is "refused". */
  error?: Rejection;
  /** The HTTP status a model provider answered with, when the transport got one (null: no HTTP answer). */
  status?: number | null;
  /** The transport's own words on the failure (a provider's error message, a slot wait), clipped. */
  message?: string;
};

export type LogResult = 'accepted' | 'rejected' | 'defaulted';

/**
 * One submission. `accepted` and `defaulted` carry the events of applying `input`; for `defaulted`,
 * `input` is the default action the runner played on the seat's behalf and `default` says why.
 * `rejected` carries no events and the rejection in `error`.
 */
export type LogEntry = {
  seq: number;
  seat: number;
  input: Json;
  result: LogResult;
  events: GameEvent[];
  error?: Rejection;
  default?: DefaultInfo;
};

export type LogFooter = {
  end: true;
  outcome: Outcome | null;
  /** Event-stream hash: setup events, then every submission's events, in order. */
  hash: string;
  /** Hash of the canonical JSON of every line before this one (header and submissions). */
  log_hash: string;
  events: number;
  submissions: number;
};

/** Cut an agent's raw answer to the size a defaulted record keeps. */
export function clipRaw(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  return raw.length > MAX_DEFAULT_RAW ? raw.slice(0, MAX_DEFAULT_RAW) : raw;
}

/**
 * Keeps the running hashes and counts of a match log as it is written, so every writer (the match
 * runner, a drive session, the agents' default path) produces the same footer.
 */
export class MatchRecorder {
  readonly header: LogHeader;
  private readonly eventHash = new StreamHash();
  private readonly lineHash = new StreamHash();
  private submissions = 0;
  private eventCount = 0;

  constructor(fields: {
    ruleset: string;
    version: string;
    seed: number;
    config: Json;
    agents?: string[];
    setupEvents: readonly GameEvent[];
    extra?: Pick<LogHeader, 'lineup' | 'seats'>;
  }) {
    const header: LogHeader = {
      format: LOG_FORMAT,
      ruleset: fields.ruleset,
      version: fields.version,
      engine: ENGINE,
      seed: fields.seed,
      config: fields.config,
    };
    if (fields.agents) header.agents = fields.agents;
    if (fields.setupEvents.length > 0) header.setup_events = [...fields.setupEvents];
    if (fields.extra?.lineup) header.lineup = fields.extra.lineup;
    if (fields.extra?.seats) header.seats = fields.extra.seats;
    this.header = header;
    this.lineHash.update(canonicalJson(header));
    for (const e of fields.setupEvents) this.eventHash.update(canonicalJson(e));
    this.eventCount = fields.setupEvents.length;
  }

  /** Give the submission its seq, fold it into the hashes, and return it. */
  record(entry: Omit<LogEntry, 'seq'>): LogEntry {
    const full: LogEntry = { seq: ++this.submissions, ...entry };
    for (const e of full.events) this.eventHash.update(canonicalJson(e));
    this.eventCount += full.events.length;
    this.lineHash.update(canonicalJson(full));
    return full;
  }

  get count(): number {
    return this.submissions;
  }

  footer(outcome: Outcome | null): LogFooter {
    return {
      end: true,
      outcome,
      hash: this.eventHash.digest(),
      log_hash: this.lineHash.digest(),
      events: this.eventCount,
      submissions: this.submissions,
    };
  }
}

/**
 * The input as the log will hold it: keys sorted, as canonical JSON writes them. Runners submit this
 * form, so a ruleset whose answer depends on key order (a rejection listing the keys it saw) gives
 * the same answer on replay.
 */
export function canonicalInput(input: Json): Json {
  // most inputs already have sorted keys (menu elements, parsed log lines): skip the copy then
  return keysSorted(input) ? input : sortedCopy(input);
}

/**
 * What `JSON.parse(canonicalJson(v))` gives, built directly (no text in between): keys sorted,
 * undefined members dropped (null in arrays), -0 as 0, a non-finite number refused.
 */
function sortedCopy(v: Json): Json {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new TypeError(`non-finite number ${v} is not JSON`);
      return v === 0 ? 0 : v;
    }
    return v;
  }
  if (Array.isArray(v)) {
    const arr: Json[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) arr[i] = v[i] === undefined ? null : sortedCopy(v[i]);
    return arr;
  }
  const out: { [k: string]: Json } = {};
  for (const k of Object.keys(v).sort()) {
    const x = v[k];
    if (x === undefined) continue;
    // an own "__proto__" member stays a member (as JSON.parse makes it), never the prototype
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: sortedCopy(x), enumerable: true, writable: true, configurable: true });
    else out[k] = sortedCopy(x);
  }
  return out;
}

function keysSorted(v: Json, depth = 0): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (depth > 200) return false;
  if (Array.isArray(v)) return v.every((x) => keysSorted(x, depth + 1));
  let prev: string | null = null;
  for (const k in v) {
    if (prev !== null && !(prev < k)) return false;
    if (v[k] === undefined || !keysSorted(v[k], depth + 1)) return false;
    prev = k;
  }
  return true;
}

/** A config as the log records it: plain JSON with no prototype keys, copied so setup cannot change the record. */
export function recordableConfig(config: unknown): Json {
  if (!isPlainJson(config))
    throw new ArbiterError(
      'bad_config',
      'the config must be plain JSON (objects, arrays, strings, finite numbers, booleans, null)',
    );
  assertNoPrototypeKeys(config, 'config', 'bad_config');
  return cloneJson(config);
}

export interface MatchResult<S> {
  state: S;
  outcome: Outcome | null;
  header: LogHeader;
  entries: LogEntry[];
  footer: LogFooter;
  events: GameEvent[];
  /** Per seat: defaults by reason, whether the seat was failed, transport usage (tokens ...). */
  seats: SeatReport[];
}

export type SeatReport = {
  agent: string;
  defaults: Partial<Record<DefaultReason, number>>;
  failed: boolean;
  usage?: JsonObject;
};

export interface MatchOptions<S = unknown> {
  seed: number;
  config?: Json;
  /** Stop after this many submissions (a guard against a ruleset that never ends). */
  maxSubmissions?: number;
  /** Called once with the header, before the first submission (for writing the log as it goes). */
  onHeader?: (header: LogHeader) => void;
  /** Called once with the setup events, before the first submission (for live printing). */
  onSetup?: (events: GameEvent[], state: S) => void;
  /** Called after every submission with the state after it (for live printing). */
  onEntry?: (entry: LogEntry, state: S) => void;
  /** An agent whose choice is refused this many times in a row forfeits the match. */
  maxRejectionsInARow?: number;
  /** The package, for the declared default action, the information type and the rules text. */
  pkg?: RulesetPackage;
  /** Deadline per decision attempt and defaults-in-a-row before a seat is failed. */
  policy?: Partial<PolicyOptions>;
  /** Every decision attempt, for per-seat transcripts. */
  onAttempt?: (rec: AttemptRecord) => void;
  /** Extra header fields (line-up, seat details), asked for once the agents are seated. */
  headerFields?: () => Pick<LogHeader, 'lineup' | 'seats'>;
}

/** Event-stream hash: canonical JSON of every event, in order. */
export function hashEvents(events: readonly GameEvent[]): string {
  const h = new StreamHash();
  for (const e of events) h.update(canonicalJson(e));
  return h.digest();
}

/** Agents, or a function that seats them once the number of seats is known (setup runs once). */
export type AgentSeating = Agent[] | ((seats: number) => Agent[]);

function transportOf(a: Agent): Transport {
  const t = (a as Agent & { transport?: Transport }).transport;
  return t && typeof t.decide === 'function' ? t : inProcessTransport(a);
}

/**
 * Plays one match. Seats pending at the same moment are asked together, against the same state,
 * and their answers are submitted in seat order, so the log does not depend on who answered
 * first. Every agent goes through the failure policy (src/agents/policy.ts).
 */
export async function runMatch<S>(
  rs: Ruleset<S>,
  seating: AgentSeating,
  opts: MatchOptions<S>,
): Promise<MatchResult<S>> {
  const config = recordableConfig(opts.config ?? {});
  const setupEvents: GameEvent[] = [];
  let state = rs.setup(cloneJson(config), opts.seed, setupEvents);
  const seats = rs.seats(state);
  const agents = typeof seating === 'function' ? seating(seats) : seating;
  const policy: PolicyOptions = { ...DEFAULT_POLICY, ...opts.policy };
  const seated = agents.map(
    (a, seat) => new SeatAgent({ seat, transport: transportOf(a), policy, onAttempt: opts.onAttempt }),
  );
  const closeAll = async () => {
    await Promise.all(
      seated.map((a) =>
        Promise.resolve()
          .then(() => a.close())
          .catch(() => {}),
      ),
    );
  };
  if (agents.length !== seats) {
    await closeAll();
    throw new ArbiterError('bad_request', `${rs.id} needs ${seats} agents, got ${agents.length}`);
  }
  const declaredDefault = opts.pkg?.gameType.defaultAction ?? null;
  const perfect = opts.pkg?.gameType.information === 'perfect';
  const rec = new MatchRecorder({
    ruleset: rs.id,
    version: rs.version,
    seed: opts.seed,
    config,
    agents: agents.map((a) => a.name),
    setupEvents,
    extra: opts.headerFields?.(),
  });
  const header = rec.header;
  const randoms = agents.map((_, seat) => new SeededRandom(agentSeed(opts.seed, seat)));
  const entries: LogEntry[] = [];
  const all: GameEvent[] = [...setupEvents];
  const max = opts.maxSubmissions ?? 1_000_000;
  const maxRejections = opts.maxRejectionsInARow ?? 5;
  const rejectionsInARow = new Array(seats).fill(0);
  /** Index into `all` of the first event each seat has not been shown yet. */
  const shownUpTo = new Array(seats).fill(0);
  try {
    // match_start to every seat first: a missing program or unreachable service fails here
    const rules = seated.some((a) => !a.transport.inProcess) ? rulesText(rs, opts.pkg) : '';
    await Promise.all(
      seated.map((a, seat) =>
        a.start({
          type: 'match_start',
          protocol: PROTOCOL,
          ruleset: rs.id,
          version: rs.version,
          seat,
          seats,
          config: config as JsonObject,
          rules,
          default_action: declaredDefault,
          deadline_ms: policy.deadlineMs,
        }),
      ),
    );
    opts.onHeader?.(header);
    opts.onSetup?.(setupEvents, state);
    outer: while (rs.outcome(state) === null) {
      const pending = rs.pending(state);
      if (pending.length === 0)
        throw new ArbiterError(
          'illegal',
          `${rs.id}: no outcome and nobody to move (deadlock) after ${rec.count} submissions`,
        );
      const snapshot = state;
      const asks = pending.map((p) => {
        const menu = rs.legal(snapshot, p.seat);
        const ctx = agentContext(rs, snapshot, p.seat, p.kind, menu, randoms[p.seat]);
        const agent = seated[p.seat];
        if (agent.transport.inProcess) {
          // in-process agents read the context directly; the protocol fields would go unread
          return agent.decide(ctx, LAZY_BASE, declaredDefault);
        }
        const view = ctx.view;
        const seen = eventsSeenBy(rs, perfect, all.slice(shownUpTo[p.seat]), p.seat);
        shownUpTo[p.seat] = all.length;
        return agent.decide(
          ctx,
          {
            type: 'decision_request',
            seat: p.seat,
            kind: p.kind,
            view,
            view_text: describeViewText(rs, view, p.seat),
            menu: menu as DecisionRequest['menu'],
            events: seen,
          },
          declaredDefault,
        );
      });
      const answers = await Promise.all(asks);
      for (let i = 0; i < pending.length; i++) {
        const p = pending[i];
        const answer = answers[i];
        // an earlier seat's submission may have ended the game or this seat's decision
        if (rs.outcome(state) !== null || !rs.pending(state).some((q) => q.seat === p.seat && q.kind === p.kind)) break;
        const input = answer.action;
        // an answer the log could not hold faithfully (a prototype key, Infinity, a function) stops the
        // match with a clear error (protocol agents never get here: their answers are parsed JSON)
        if (!isPlainJson(input) || findPrototypeKey(input) !== null) {
          const why = !isPlainJson(input)
            ? 'is not plain JSON (a number JSON cannot hold, or a non-JSON value)'
            : `holds the key "${findPrototypeKey(input)}"`;
          throw new ArbiterError(
            'bad_request',
            `agent ${agents[p.seat].name} at seat ${p.seat} answered with an action that ${why}; a match log cannot record it`,
          );
        }
        const submitted = canonicalInput(input);
        const res = act(rs, state, p.seat, submitted);
        let entry: LogEntry;
        if (res.ok) {
          state = res.state;
          rejectionsInARow[p.seat] = 0;
          all.push(...res.events);
          entry = answer.defaulted
            ? rec.record({
                seat: p.seat,
                input: submitted,
                result: 'defaulted',
                events: res.events,
                default: answer.defaulted,
              })
            : rec.record({ seat: p.seat, input: submitted, result: 'accepted', events: res.events });
        } else {
          if (answer.defaulted)
            throw new ArbiterError(
              'illegal',
              `${rs.id}: the default action for seat ${p.seat} was refused: ${res.error.reason}`,
            );
          entry = rec.record({ seat: p.seat, input: submitted, result: 'rejected', events: [], error: res.error });
          if (rejectionsInARow[p.seat] + 1 >= maxRejections) {
            entries.push(entry);
            opts.onEntry?.(entry, state);
            throw new ArbiterError(
              'illegal',
              `agent ${agents[p.seat].name} at seat ${p.seat} was refused ${maxRejections} times in a row: ${res.error.reason}`,
            );
          }
          rejectionsInARow[p.seat]++;
        }
        entries.push(entry);
        opts.onEntry?.(entry, state);
        if (rec.count >= max) break outer;
      }
    }
    const outcome = rs.outcome(state);
    await Promise.all(
      seated.map((a) =>
        Promise.resolve()
          .then(() => a.end({ type: 'match_end', outcome: outcome }))
          .catch(() => {}),
      ),
    );
  } finally {
    await closeAll();
  }
  const outcome = rs.outcome(state);
  const footer = rec.footer(outcome);
  const seatReports: SeatReport[] = seated.map((a) => {
    const r: SeatReport = { agent: a.name, defaults: { ...a.defaults }, failed: a.failed };
    const usage = a.transport.usage?.();
    if (usage) r.usage = usage;
    return r;
  });
  return { state, outcome, header, entries, footer, events: all, seats: seatReports };
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

/** The rules text agents receive: the package's rules page (the source of `arbiter rules`). */
export function rulesText(rs: Ruleset, pkg?: RulesetPackage): string {
  if (pkg) {
    try {
      return pkg.rulesPage();
    } catch {
      /* fall back to the catalog */
    }
  }
  return [`# ${rs.title}`, '', ...rs.catalog.rules.map((r) => `- ${r.id}: ${r.summary}`)].join('\n');
}

export function logLines(m: { header: LogHeader; entries: LogEntry[]; footer: LogFooter }): string[] {
  return [canonicalJson(m.header), ...m.entries.map((e) => canonicalJson(e)), canonicalJson(m.footer)];
}

export interface FastResult<S> {
  state: S;
  outcome: Outcome | null;
  actions: number;
  events: GameEvent[] | null;
}

/**
 * The simulation loop: synchronous agents pick from the menu, and the menu action is applied in
 * place through the trusted path. Same seed and agents ⇒ same game as `runMatch`.
 */
export function playFast<S>(
  rs: Ruleset<S>,
  seating: AgentSeating,
  seed: number,
  config: Json,
  options: { keepEvents?: boolean; maxActions?: number } = {},
): FastResult<S> {
  const events: GameEvent[] = [];
  const state = rs.setup(config, seed, options.keepEvents ? events : undefined);
  const agents = typeof seating === 'function' ? seating(rs.seats(state)) : seating;
  const randoms = agents.map((_, seat) => new SeededRandom(agentSeed(seed, seat)));
  const max = options.maxActions ?? 1_000_000;
  let actions = 0;
  for (;;) {
    const pending = rs.pending(state);
    if (pending.length === 0) break;
    const p = pending[0];
    const menu = rs.legal(state, p.seat);
    if (menu.actions.length === 0)
      throw new ArbiterError('illegal', `${rs.id}: seat ${p.seat} is pending with an empty menu`);
    const choice = agents[p.seat].choose(agentContext(rs, state, p.seat, p.kind, menu, randoms[p.seat]));
    if (choice instanceof Promise)
      throw new ArbiterError('bad_request', `agent ${agents[p.seat].name} is asynchronous; use runMatch`);
    // agents that build their own input (not a menu element) go through validation first
    const menuHit = menu.actions.includes(choice);
    let action = choice;
    if (!menuHit) {
      const v = validateAction(rs, state, p.seat, choice);
      if (!v.ok)
        throw new ArbiterError('illegal', `agent ${agents[p.seat].name} chose a refused action: ${v.error.reason}`);
      action = v.action;
    }
    if (options.keepEvents) step(rs, state, p.seat, action, events);
    else {
      events.length = 0;
      step(rs, state, p.seat, action, events);
    }
    if (++actions >= max) break;
  }
  return { state, outcome: rs.outcome(state), actions, events: options.keepEvents ? events : null };
}
