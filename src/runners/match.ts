// The match runner: seats agents, feeds their choices through the checked `act`, and records the
// JSON Lines match log of DESIGN.md. `playFast` is the simulation loop: trusted menu actions
// applied in place, no log, for sims and benchmarks.

import {
  act,
  ArbiterError,
  assertNoPrototypeKeys,
  canonicalJson,
  cloneJson,
  cloneState,
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
  type Rejection,
  type Ruleset,
} from '../kernel/index.ts';
import { agentContext } from './context.ts';
import { agentSeed } from '../agents/resolve.ts';

export const ENGINE = 'arbiter 0.1.0';
/** Engines whose logs this build can verify (a log names the engine that wrote it). */
export const KNOWN_ENGINES: readonly string[] = [ENGINE];
/** The version of the log format below; a header without it, or with another, is refused. */
export const LOG_FORMAT = 1;

export interface LogHeader {
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
}

/** Why a runner played a seat's default action instead of the agent's answer (issue 12). */
export type DefaultReason = 'timeout' | 'invalid_json' | 'refused' | 'oversize' | 'exited' | 'stale';
export const DEFAULT_REASONS: readonly DefaultReason[] = ['timeout', 'invalid_json', 'refused', 'oversize', 'exited', 'stale'];
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
};

export type LogResult = 'accepted' | 'rejected' | 'defaulted';

/**
 * One submission. `accepted` and `defaulted` carry the events of applying `input`; for `defaulted`,
 * `input` is the default action the runner played on the seat's behalf and `default` says why.
 * `rejected` carries no events and the rejection in `error`.
 */
export interface LogEntry {
  seq: number;
  seat: number;
  input: Json;
  result: LogResult;
  events: GameEvent[];
  error?: Rejection;
  default?: DefaultInfo;
}

export interface LogFooter {
  end: true;
  outcome: Outcome | null;
  /** Event-stream hash: setup events, then every submission's events, in order. */
  hash: string;
  /** Hash of the canonical JSON of every line before this one (header and submissions). */
  log_hash: string;
  events: number;
  submissions: number;
}

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

  constructor(fields: { ruleset: string; version: string; seed: number; config: Json; agents?: string[]; setupEvents: readonly GameEvent[] }) {
    const header: LogHeader = { format: LOG_FORMAT, ruleset: fields.ruleset, version: fields.version, engine: ENGINE, seed: fields.seed, config: fields.config };
    if (fields.agents) header.agents = fields.agents;
    if (fields.setupEvents.length > 0) header.setup_events = [...fields.setupEvents];
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
    return { end: true, outcome, hash: this.eventHash.digest(), log_hash: this.lineHash.digest(), events: this.eventCount, submissions: this.submissions };
  }
}

/**
 * The input as the log will hold it: keys sorted, as canonical JSON writes them. Runners submit this
 * form, so a ruleset whose answer depends on key order (a rejection listing the keys it saw) gives
 * the same answer on replay.
 */
export function canonicalInput(input: Json): Json {
  // most inputs already have sorted keys (menu elements, parsed log lines): skip the copy then
  return keysSorted(input) ? input : (JSON.parse(canonicalJson(input)) as Json);
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
  if (!isPlainJson(config)) throw new ArbiterError('bad_config', 'the config must be plain JSON (objects, arrays, strings, finite numbers, booleans, null)');
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
}

export interface MatchOptions {
  seed: number;
  config?: Json;
  /** Stop after this many submissions (a guard against a ruleset that never ends). */
  maxSubmissions?: number;
  /** Called once with the header, before the first submission (for writing the log as it goes). */
  onHeader?: (header: LogHeader) => void;
  /** Called once with the setup events, before the first submission (for live printing). */
  onSetup?: (events: GameEvent[]) => void;
  /** Called after every submission (for live printing). */
  onEntry?: (entry: LogEntry) => void;
  /** An agent whose choice is refused this many times in a row forfeits the match. */
  maxRejectionsInARow?: number;
}

/** Event-stream hash: canonical JSON of every event, in order. */
export function hashEvents(events: readonly GameEvent[]): string {
  const h = new StreamHash();
  for (const e of events) h.update(canonicalJson(e));
  return h.digest();
}

/** Agents, or a function that seats them once the number of seats is known (setup runs once). */
export type AgentSeating = Agent[] | ((seats: number) => Agent[]);

export async function runMatch<S>(rs: Ruleset<S>, seating: AgentSeating, opts: MatchOptions): Promise<MatchResult<S>> {
  const config = recordableConfig(opts.config ?? {});
  const setupEvents: GameEvent[] = [];
  let state = rs.setup(cloneJson(config), opts.seed, setupEvents);
  const seats = rs.seats(state);
  const agents = typeof seating === 'function' ? seating(seats) : seating;
  if (agents.length !== seats) throw new ArbiterError('bad_request', `${rs.id} needs ${seats} agents, got ${agents.length}`);
  const rec = new MatchRecorder({ ruleset: rs.id, version: rs.version, seed: opts.seed, config, agents: agents.map((a) => a.name), setupEvents });
  const header = rec.header;
  opts.onHeader?.(header);
  const randoms = agents.map((_, seat) => new SeededRandom(agentSeed(opts.seed, seat)));
  const entries: LogEntry[] = [];
  const all: GameEvent[] = [...setupEvents];
  if (setupEvents.length > 0) opts.onSetup?.(setupEvents);
  const max = opts.maxSubmissions ?? 1_000_000;
  const maxRejections = opts.maxRejectionsInARow ?? 5;
  const rejectionsInARow = new Array(seats).fill(0);
  try {
    while (rs.outcome(state) === null) {
      const pending = rs.pending(state);
      if (pending.length === 0) throw new ArbiterError('illegal', `${rs.id}: no outcome and nobody to move (deadlock) after ${rec.count} submissions`);
      const p = pending[0];
      const menu = rs.legal(state, p.seat);
      const input = await agents[p.seat].choose(agentContext(rs, state, p.seat, p.kind, menu, randoms[p.seat]));
      // an answer the log could not hold faithfully (a prototype key, Infinity, a function) stops the
      // match with a clear error; issue 12's failure policy turns it into a recorded default
      if (!isPlainJson(input) || findPrototypeKey(input) !== null) {
        const why = !isPlainJson(input) ? 'is not plain JSON (a number JSON cannot hold, or a non-JSON value)' : `holds the key "${findPrototypeKey(input)}"`;
        throw new ArbiterError('bad_request', `agent ${agents[p.seat].name} at seat ${p.seat} answered with an action that ${why}; a match log cannot record it`);
      }
      const submitted = canonicalInput(input);
      const res = act(rs, state, p.seat, submitted);
      let entry: LogEntry;
      if (res.ok) {
        state = res.state;
        rejectionsInARow[p.seat] = 0;
        all.push(...res.events);
        entry = rec.record({ seat: p.seat, input: submitted, result: 'accepted', events: res.events });
      } else {
        entry = rec.record({ seat: p.seat, input: submitted, result: 'rejected', events: [], error: res.error });
        if (rejectionsInARow[p.seat] + 1 >= maxRejections) {
          entries.push(entry);
          opts.onEntry?.(entry);
          throw new ArbiterError('illegal', `agent ${agents[p.seat].name} at seat ${p.seat} was refused ${maxRejections} times in a row: ${res.error.reason}`);
        }
        rejectionsInARow[p.seat]++;
      }
      entries.push(entry);
      opts.onEntry?.(entry);
      if (rec.count >= max) break;
    }
  } finally {
    for (const a of agents) a.close?.();
  }
  const outcome = rs.outcome(state);
  const footer = rec.footer(outcome);
  return { state, outcome, header, entries, footer, events: all };
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
    if (menu.actions.length === 0) throw new ArbiterError('illegal', `${rs.id}: seat ${p.seat} is pending with an empty menu`);
    const choice = agents[p.seat].choose(agentContext(rs, state, p.seat, p.kind, menu, randoms[p.seat]));
    if (choice instanceof Promise) throw new ArbiterError('bad_request', `agent ${agents[p.seat].name} is asynchronous; use runMatch`);
    // agents that build their own input (not a menu element) go through validation first
    const menuHit = menu.actions.includes(choice);
    let action = choice;
    if (!menuHit) {
      const v = validateAction(rs, state, p.seat, choice);
      if (!v.ok) throw new ArbiterError('illegal', `agent ${agents[p.seat].name} chose a refused action: ${v.error.reason}`);
      action = v.action as Json;
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

export { cloneState };
