// The ruleset contract: the one interface every game implements and every runner, agent and
// interface relies on. State is plain JSON data; the transition is `apply`, which runs only on
// input that `validate` accepted. Effects (logs, clocks, I/O) stay outside.

import type { Json, JsonObject } from './json.ts';
import type { Rejection } from './errors.ts';
import type { RulesetSchemas } from './schema.ts';

export type Seat = number;

/** One numbered rule of a ruleset's catalog, summarised in the project's own words. */
export type RuleEntry = {
  id: string;
  summary: string;
  /** A heading the rule belongs to ("Round structure", "Acceptance criteria" ...). */
  group?: string;
};

/** A metric a simulation report shows first, in plain words. */
export type HeadlineMetric = {
  /** A key of `metrics` (per game; a 0/1 figure is shown as a share of games). */
  metric: string;
  /** What a reader calls it ("group success"). */
  label: string;
  /** One sentence on what it means. */
  note?: string;
};

/**
 * A ruleset's word on its simulation report: which figures matter most, and whether under a given
 * config the seats win or lose together (a co-operative game), so that the report does not show
 * per-seat places and scores that are the same for every seat as if seats competed.
 */
export type ReportHints = {
  headline?: readonly HeadlineMetric[];
  /**
   * For one config (as the sim was given it, defaults not filled in): whether the seats share one
   * result, and the config values the headline depends on, named beside it ({mode, players}).
   */
  setting?(config: Json): { cooperative: boolean; by: Record<string, string | number> };
};

/** A point the source leaves open, with the default the engine uses. */
export type UItem = {
  id: string;
  question: string;
  default: string;
  why: string;
  /** Rule ids the question bears on. */
  rules?: string[];
  /** 'seed' when the source document itself lists the item, 'engine' when the engine added it. */
  source?: 'seed' | 'engine';
  /**
   * Register state: 'open' (no ruling yet), 'ruled' (the owner answered but the evidence still
   * carries the provisional default), 'applied' (the ruling is recorded and the provisional flags
   * lifted), 'withdrawn' (not a gap after all). Other strings are reported as they are.
   */
  state?: string;
  /** Who must rule on it (the source's owner) and when it was raised (YYYY-MM-DD): its age is reported. */
  owner?: string;
  raised?: string;
  /** The scenario file that reproduces the default (repository-relative); absent or null is debt. */
  reproduction?: string | null;
  /** Where the ruling was recorded, once there is one. */
  ruling?: string;
};

/** A design finding (register entry) beyond the U-items. */
export type Finding = {
  id: string;
  kind: string;
  state: string;
  reproduction: string | null;
  role: string | null;
  raised: string;
  owner: string;
  summary: string;
};

export type Catalog = {
  rules: RuleEntry[];
  uItems: UItem[];
  findings?: Finding[];
};

/** A decision a seat owes now. `kind` names it ("move", "select", "bond_accept" ...). */
export interface Pending {
  seat: Seat;
  kind: string;
  [extra: string]: Json;
}

/** A family of actions with free parameters (a text, a list of items), described by JSON Schema. */
export type Template = {
  family: string;
  schema: JsonObject;
  example: Json;
  description?: string;
};

/**
 * The authoritative menu for one seat. Every element of `actions` is a complete action `act`
 * accepts verbatim. Families with free parameters also appear in `templates`, and one filled-in
 * example of each is among `actions`.
 */
export type Menu<A = Json> = {
  actions: A[];
  templates?: Template[];
};

export interface GameEvent {
  type: string;
  [field: string]: Json;
}

export type Outcome = {
  /** Seats that won; empty for a draw or a shared loss. */
  winners: Seat[];
  /** Place per seat (1 = best; ties share a place), when the game ranks seats. */
  places?: number[];
  /** Score per seat, when the game scores seats. */
  scores?: number[];
  /** A short reason the game ended ("three in a row", "collapse" ...). */
  reason: string;
  detail?: Json;
};

/** A branch exhaustive exploration should reach (a contract branch, an ending), judged per transition. */
export interface Goal<S = unknown> {
  id: string;
  description: string;
  hit(events: readonly GameEvent[], before: S, after: S): boolean;
}

export type Validation<A> = { ok: true; action: A } | { ok: false; error: Rejection };

/**
 * `S` is the state, `A` an action, `V` what `view` returns: a ruleset that exports its view's type
 * (`MinesView` ...) lets boards and samplers read it without re-checking its shape. `V` defaults
 * to Json, so code that holds "some ruleset" reads any view as plain JSON.
 */
export interface Ruleset<S = unknown, A extends Json = Json, V extends Json = Json> {
  readonly id: string;
  readonly version: string;
  readonly title: string;
  readonly catalog: Catalog;
  /** The documented defaults; `setup` fills any field the caller omits from these. */
  readonly defaultConfig: JsonObject;
  /** JSON Schema of the config, for docs and `--help`: the one `schemas.config` publishes, when declared. */
  readonly configSchema?: JsonObject;
  /**
   * The declared schemas (config with its limits, every action family, the state): `setup` checks
   * its config with them, and `arbiter schema`, the server, language-model tools and the
   * conformance suite read them. Every shipped ruleset declares them.
   */
  readonly schemas?: RulesetSchemas;

  /**
   * Validated config + seed → initial state. Throws ArbiterError('bad_config') on a bad config.
   * Automatic steps taken before anyone decides (an initial expansion, a turn begun) push their
   * events into `events` when the caller passes an array; runners log them as setup events.
   */
  setup(config: unknown, seed: number, events?: GameEvent[]): S;
  /** Number of seats in this state (seats are 0..n-1). */
  seats(state: S): number;
  /** Which seats must submit now, and what each owes. Empty once the game is over. */
  pending(state: S): Pending[];
  /** The menu for `seat` (empty `actions` when the seat owes nothing). */
  legal(state: S, seat: Seat): Menu<A>;
  /**
   * Check untrusted input from `seat`, which the kernel has already confirmed is pending.
   * Must not change `state` and must not run the transition. A rejection carries a typed code.
   * Optional: without it the kernel accepts exactly the elements of `legal(state, seat).actions`
   * (compared as canonical JSON), which is right for every ruleset whose menu is finite.
   * Rulesets with free parameters (a text, a list of items) write it with a schema plus checks.
   */
  validate?(state: S, seat: Seat, input: unknown): Validation<A>;
  /**
   * The transition: apply an action `validate` accepted (or a menu element) to `state` IN PLACE,
   * pushing the events it causes. The kernel hands it a private copy, so callers never see mutation.
   */
  apply(state: S, seat: Seat, action: A, events: GameEvent[]): void;
  /** What `seat` may observe; `null` is a spectator. Must be a fresh JSON value. */
  view(state: S, seat: Seat | null): V;
  outcome(state: S): Outcome | null;

  /**
   * Values that must never appear in `seat`'s view (whole subtrees, or strings of 6+ chars as
   * substrings). The conformance suite checks every view against them.
   */
  secrets?(state: S, seat: Seat | null): Json[];
  /** A faster deep copy than the generic one, if the ruleset has one. */
  clone?(state: S): S;
  /** One readable line for an event, for `arbiter play`. */
  describeEvent?(event: GameEvent): string;
  /** One readable phrase for an action. */
  describeAction?(action: A, seat: Seat): string;
  /**
   * The seat's view in plain words, for agents that read text (language models). Without it,
   * agents get a generic readable tree of the view (packages/engine/src/agents/observe.ts).
   */
  viewText?(view: V, seat: Seat | null): string;
  /**
   * What `seat` perceives of one event (the event itself, a redacted copy, or null when the seat
   * does not see it). Agents receive the events their seat saw since its last decision. Without
   * it, perfect-information rulesets show every event and the others show none (never a leak).
   */
  eventView?(event: GameEvent, seat: Seat): GameEvent | null;
  /**
   * Lines that picture a view for the readable log (a board, a table), when the ruleset has a
   * picture worth printing. The runner asks after setup, after each submission (with its events)
   * and at the end; returning [] prints nothing at that moment.
   */
  describeView?(view: V, moment: 'setup' | 'step' | 'end', events: readonly GameEvent[]): string[];
  /** Invariants that must hold in every reachable state; returns the violated ones. */
  invariants?(state: S): string[];
  /**
   * Per-game figures for `arbiter sim` (e.g. {darvo_triggers: 2}); the simulator reports their
   * means and distributions. `events` is the whole event stream of the game.
   */
  metrics?(state: S, events: readonly GameEvent[]): Record<string, number>;
  /** How a simulation report should present this ruleset's figures (see `ReportHints`). */
  readonly report?: ReportHints;
  /** A compact canonical key for exhaustive exploration (default: canonical JSON of the state). */
  stateKey?(state: S): string;
  /**
   * Optional fast path of `stateKey` for the explorer, which hashes the key without building a
   * string: write exactly the UTF-16 code units `stateKey(state)` returns into `out`, starting at
   * index 0, and return their count (the key's length). Writes past `out.length` are simply lost
   * (typed arrays ignore them), so when the returned count exceeds `out.length` the explorer grows
   * the buffer and calls again. A ruleset that defines it must define `stateKey` too; without it
   * the explorer hashes the `stateKey` string (or canonical JSON).
   */
  stateKeyInto?(state: S, out: Uint16Array): number;
  /**
   * Contracts checked on every transition during tests and exploration: returns the violated
   * ones (each naming the contract and the failed conjunct). Empty when all hold.
   */
  checkTransition?(before: S, after: S, seat: Seat, action: A, events: readonly GameEvent[]): string[];
  /** Branch-coverage goals `arbiter explore` reports on (and requires, in an exhausted run). */
  goals?: readonly Goal<S>[];
  /**
   * Determinization for fair search agents: a full state consistent with what `seat` observes
   * (`view(result, seat)` must equal `view`), hidden parts drawn from `random`, the seat's own
   * stream. Perfect-information rulesets rebuild the state from the view. Future chance (streams
   * stored in the state) is re-seeded from `random` too, so the sample reveals nothing.
   */
  sampleState?(view: V, seat: Seat, random: AgentRandom): S;
}

/** The random source agents and samplers draw from (the runner's per-seat stream). */
export interface AgentRandom {
  int(n: number): number;
  float(): number;
  pick<T>(items: readonly T[]): T;
}

/**
 * What an agent sees when asked to choose. Fair agents use only `view` and `menu`. `V` is the
 * ruleset's view type, so a ruleset's own agents read its view without casts.
 */
export interface AgentContext<S = unknown, A extends Json = Json, V extends Json = Json> {
  ruleset: Ruleset<S, A, V>;
  seat: Seat;
  kind: string;
  view: V;
  menu: Menu<A>;
  /** The omniscient state, for built-in scripted heuristics that declare they use it. */
  state: S;
  random: AgentRandom;
}

export interface Agent<A extends Json = Json, S = unknown, V extends Json = Json> {
  readonly name: string;
  /** Return an action; it need not be from the menu (the runner checks it like any input). */
  choose(ctx: AgentContext<S, A, V>): A | Json | Promise<A | Json>;
  /** Release what the agent holds (a child process, a socket); the runner calls it at match end. */
  close?(): void | Promise<void>;
}

/**
 * Makes one agent. `args` is the text after an agent kind's prefix (`cmd:<args>`). Agents get no
 * seed or seat here: the runner passes the seat and a per-seat seeded generator in every context.
 */
export type AgentFactory<A extends Json = Json, S = unknown, V extends Json = Json> = (options: {
  args?: string;
}) => Agent<A, S, V>;
