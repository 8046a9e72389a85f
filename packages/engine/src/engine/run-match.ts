// The match runner: seats agents on the match engine, which feeds their choices through the
// checked `act` and records the JSON Lines match log of docs/logs.md. `playFast` is the engine's
// trusted fast mode: menu actions applied in place, no log, for sims and benchmarks; the
// conformance suite keeps its games identical to the checked path.

import {
  ArbiterError,
  SeededRandom,
  step,
  validateAction,
  type Agent,
  type GameEvent,
  type Json,
  type Outcome,
  type JsonObject,
  type Ruleset,
  type RulesetPackage,
} from '../kernel/index.ts';
import { agentContext } from './context.ts';
import { decisionSeed } from './seed.ts';
import { MatchEngine, type EngineEffects } from './match-engine.ts';
import type { DefaultReason, LogEntry, LogFooter, LogHeader } from './log.ts';
import {
  DEFAULT_POLICY,
  inProcessTransport,
  SeatAgent,
  type AttemptRecord,
  type PolicyOptions,
} from '../agents/policy.ts';
import type { Transport } from '../agents/transport.ts';

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
  /** The package, for the declared default action, the information type and the rules text. */
  pkg?: RulesetPackage;
  /** Deadline per decision attempt and defaults-in-a-row before a seat is failed. */
  policy?: Partial<PolicyOptions>;
  /** Every decision attempt, for per-seat transcripts. */
  onAttempt?: (rec: AttemptRecord) => void;
  /** Extra header fields (line-up, seat details), asked for once the agents are seated. */
  headerFields?: () => Pick<LogHeader, 'lineup' | 'seats'>;
}

/** Agents, or a function that seats them once the number of seats is known (setup runs once). */
export type AgentSeating = Agent[] | ((seats: number) => Agent[]);

function transportOf(a: Agent): Transport {
  const t = (a as Agent & { transport?: Transport }).transport;
  return t && typeof t.decide === 'function' ? t : inProcessTransport(a);
}

/**
 * Plays one match on the match engine. Seats pending at the same moment are asked together,
 * against the same state, and their answers are submitted in seat order, so the log does not
 * depend on who answered first. Every agent goes through the failure policy (packages/engine/src/agents/policy.ts).
 */
export async function runMatch<S>(
  rs: Ruleset<S>,
  seating: AgentSeating,
  opts: MatchOptions<S>,
): Promise<MatchResult<S>> {
  const engine = new MatchEngine(
    rs,
    { seed: opts.seed, config: opts.config ?? {}, keepLog: true },
    opts.pkg as RulesetPackage<S> | undefined,
  );
  const seats = engine.seats.length;
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
  engine.nameAgents(
    agents.map((a) => a.name),
    opts.headerFields?.(),
  );
  seated.forEach((a, seat) => engine.seatAgent(seat, a));
  const max = opts.maxSubmissions ?? 1_000_000;
  const effects: EngineEffects<S> = { applied: (c) => opts.onEntry?.(c.entry, c.state) };
  try {
    // match_start to every seat first: a missing program or unreachable service fails here
    const rules = seated.some((a) => !a.transport.inProcess) ? rulesText(rs, opts.pkg) : '';
    await Promise.all(seated.map((a, seat) => a.start(engine.matchStart(seat, policy.deadlineMs, rules))));
    opts.onHeader?.(engine.header);
    opts.onSetup?.(engine.setupEvents, engine.state);
    while (engine.outcome === null && engine.seq < max) {
      const batch = engine.askAgents();
      if (!batch)
        throw new ArbiterError(
          'illegal',
          `${rs.id}: no outcome and nobody to move (deadlock) after ${engine.seq} submissions`,
        );
      await engine.submitBatch(batch, await batch.decisions, effects, max - engine.seq);
    }
    const outcome = engine.outcome;
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
  const outcome = engine.outcome;
  const footer = engine.footer();
  const seatReports: SeatReport[] = seated.map((a) => {
    const r: SeatReport = { agent: a.name, defaults: { ...a.defaults }, failed: a.failed };
    const usage = a.transport.usage?.();
    if (usage) r.usage = usage;
    return r;
  });
  return {
    state: engine.state,
    outcome,
    header: engine.header,
    entries: engine.entries ?? [],
    footer,
    events: engine.events ?? [],
    seats: seatReports,
  };
}

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
  // each seat's decisions are numbered as the engine numbers them (its log entries so far); one
  // generator per seat, reseeded for each decision
  const decisions = agents.map(() => 0);
  const randoms = agents.map(() => new SeededRandom(0));
  const max = options.maxActions ?? 1_000_000;
  let actions = 0;
  for (;;) {
    const pending = rs.pending(state);
    if (pending.length === 0) break;
    const p = pending[0];
    const menu = rs.legal(state, p.seat);
    if (menu.actions.length === 0)
      throw new ArbiterError('illegal', `${rs.id}: seat ${p.seat} is pending with an empty menu`);
    const random = randoms[p.seat].reseed(decisionSeed(seed, p.seat, decisions[p.seat]++));
    const choice = agents[p.seat].choose(agentContext(rs, state, p.seat, p.kind, menu, random));
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
