// The match runner: seats agents, feeds their choices through the checked `act`, and records the
// JSON Lines match log of DESIGN.md. `playFast` is the simulation loop: trusted menu actions
// applied in place, no log, for sims and benchmarks.

import {
  act,
  ArbiterError,
  canonicalJson,
  cloneState,
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

export interface LogHeader {
  ruleset: string;
  version: string;
  engine: string;
  seed: number;
  config: Json;
  agents?: string[];
  /** Events of the automatic steps `setup` took, when there were any (first in the hash). */
  setup_events?: GameEvent[];
}

export interface LogEntry {
  seq: number;
  seat: number;
  input: Json;
  result: 'accepted' | 'rejected';
  events: GameEvent[];
  error?: Rejection;
}

export interface LogFooter {
  end: true;
  outcome: Outcome | null;
  hash: string;
  events: number;
  submissions: number;
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
  const config = opts.config ?? {};
  const setupEvents: GameEvent[] = [];
  let state = rs.setup(config, opts.seed, setupEvents);
  const seats = rs.seats(state);
  const agents = typeof seating === 'function' ? seating(seats) : seating;
  if (agents.length !== seats) throw new ArbiterError('bad_request', `${rs.id} needs ${seats} agents, got ${agents.length}`);
  const header: LogHeader = { ruleset: rs.id, version: rs.version, engine: ENGINE, seed: opts.seed, config, agents: agents.map((a) => a.name) };
  if (setupEvents.length > 0) header.setup_events = setupEvents;
  const randoms = agents.map((_, seat) => new SeededRandom(agentSeed(opts.seed, seat)));
  const entries: LogEntry[] = [];
  const all: GameEvent[] = [...setupEvents];
  const hash = new StreamHash();
  for (const e of setupEvents) hash.update(canonicalJson(e));
  if (setupEvents.length > 0) opts.onSetup?.(setupEvents);
  const max = opts.maxSubmissions ?? 1_000_000;
  const maxRejections = opts.maxRejectionsInARow ?? 5;
  const rejectionsInARow = new Array(seats).fill(0);
  let seq = 0;
  try {
    while (rs.outcome(state) === null) {
      const pending = rs.pending(state);
      if (pending.length === 0) throw new ArbiterError('illegal', `${rs.id}: no outcome and nobody to move (deadlock) after ${seq} submissions`);
      const p = pending[0];
      const menu = rs.legal(state, p.seat);
      const input = await agents[p.seat].choose(agentContext(rs, state, p.seat, p.kind, menu, randoms[p.seat]));
      const res = act(rs, state, p.seat, input);
      seq++;
      let entry: LogEntry;
      if (res.ok) {
        state = res.state;
        rejectionsInARow[p.seat] = 0;
        for (const e of res.events) hash.update(canonicalJson(e));
        all.push(...res.events);
        entry = { seq, seat: p.seat, input: input as Json, result: 'accepted', events: res.events };
      } else {
        entry = { seq, seat: p.seat, input: (input ?? null) as Json, result: 'rejected', events: [], error: res.error };
        if (++rejectionsInARow[p.seat] >= maxRejections) {
          throw new ArbiterError('illegal', `agent ${agents[p.seat].name} at seat ${p.seat} was refused ${maxRejections} times in a row: ${res.error.reason}`);
        }
      }
      entries.push(entry);
      opts.onEntry?.(entry);
      if (seq >= max) break;
    }
  } finally {
    for (const a of agents) a.close?.();
  }
  const outcome = rs.outcome(state);
  const footer: LogFooter = { end: true, outcome, hash: hash.digest(), events: all.length, submissions: seq };
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
