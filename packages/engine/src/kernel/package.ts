// A ruleset package: everything the engine, the CLI, the server and the docs need to know about one
// ruleset, in one object exported by `packages/engine/src/rulesets/<id>/index.ts`. The registry is a plain list of
// these; runners receive a package (or its ruleset) once and never look an id up again.
//
// Nothing here may import Node-only modules: packages must bundle for a browser. Tools that touch
// files or the terminal receive those capabilities through `ToolIO`, supplied by the CLI.

import type { AgentFactory, Ruleset } from './contract.ts';
import type { Json, JsonObject } from './json.ts';

/**
 * The game's type as data, after OpenSpiel's GameType: what agents, docs and interfaces read
 * instead of guessing from the id.
 */
export type GameType = {
  /** Inclusive seat range the config may ask for. */
  seats: { min: number; max: number };
  /** Who decides: one seat at a time, several at once, or both at different moments. */
  turns: 'sequential' | 'simultaneous' | 'mixed';
  /** Where randomness enters: none, only in setup (a shuffle, a board), or during play too. */
  chance: 'none' | 'setup' | 'setup-and-play';
  /** Whether every seat sees the whole state. */
  information: 'perfect' | 'imperfect';
  /** What the outcome ranks: winners only, places, scores (any that `outcome` fills). */
  outcome: ReadonlyArray<'winners' | 'places' | 'scores'>;
  /** The default action a seat plays when it fails to answer (timeout, garbage), if the ruleset has one. */
  defaultAction?: string;
};

/** A built-in agent a package ships, with what it reads. */
export interface AgentEntry {
  factory: AgentFactory;
  description: string;
  /** 'view': a fair agent (view and menu only); 'state': reads the omniscient state. */
  reads: 'view' | 'state';
}

/** A positional argument or option of a ruleset tool, declared as data so the CLI builds the parser. */
export interface ToolArgument {
  name: string;
  description: string;
  required?: boolean;
}

export interface ToolOption {
  /** Long name without dashes ("width"). */
  name: string;
  description: string;
  /** 'boolean' options take no value. */
  type: 'boolean' | 'string' | 'int';
  default?: string | number | boolean;
}

/** What a tool may do to the outside world; the CLI supplies it (tests can supply their own). */
export interface ToolIO {
  readText(path: string): string;
  writeText(path: string, text: string): void;
  out(text: string): void;
  err(text: string): void;
  /** Repository-relative paths resolve against this folder. */
  cwd: string;
}

/** A ruleset-specific subcommand: `arbiter <ruleset> <tool> ...`. Returns the exit code. */
export interface RulesetTool {
  name: string;
  description: string;
  arguments?: ToolArgument[];
  options?: ToolOption[];
  run(
    args: string[],
    options: Record<string, string | number | boolean | undefined>,
    io: ToolIO,
  ): number | Promise<number>;
}

/**
 * What the built-in search agents (mcts, ismcts) may use of a package besides the ruleset; every
 * member is optional. Playouts run on the searcher's own determinization (a sample drawn from its
 * view), so a rollout policy that reads that state stays fair to the real game.
 */
export type SearchHints<S = unknown> = {
  /**
   * One of this package's agents, a cheap policy for playouts (instead of uniform random); ismcts
   * also models the other seats with it. It must answer at once (no Promise) with a legal action.
   */
  rollout?: string;
  /** Worth of an unfinished state to each seat, in [0, 1], for a playout cut after `depth` actions. */
  evaluate?(state: S): number[];
  /** Actions a playout runs before `evaluate` judges it (default: play to the end). */
  depth?: number;
};

export interface RulesetPackage<S = unknown, A extends Json = Json, V extends Json = Json> {
  ruleset: Ruleset<S, A, V>;
  gameType: GameType;
  /** Ruleset-specific agents by name; `random` and `first` exist for every ruleset. */
  agents: Record<string, AgentEntry>;
  /** Named configurations `play`/`sim` accept with --preset. */
  presets: Record<string, JsonObject>;
  /**
   * Earlier versions this build still replays, each a ruleset whose `version` names it (a log's
   * header names its version; `arbiter replay` picks the matching one).
   */
  earlier?: readonly Ruleset<S, A, V>[];
  /** Ruleset subcommands (`arbiter mines generate`). */
  tools: RulesetTool[];
  /** Folder of scenario files, relative to the repository root. */
  scenarios: string;
  /** The public rules page (markdown), generated from the catalog. */
  rulesPage(): string;
  /** An interactive terminal player, when the package has one. */
  terminal?: TerminalPlayer;
  /** Playout policy and evaluation for the search agents. */
  search?: SearchHints<S>;
}

/** A terminal for an interactive player, supplied by the CLI (raw keys in, text out). */
export interface TerminalIO {
  columns: number;
  rows: number;
  write(text: string): void;
  /** Resolves with the next key as the terminal sends it ("q", "\u001b[A", "\r" ...). */
  nextKey(): Promise<string>;
}

/** A person plays the ruleset in a terminal: `arbiter play <ruleset> --interactive`. */
export type TerminalPlayer = (io: TerminalIO, options: { seed: number; config: JsonObject }) => Promise<void>;

/** A `play`/`sim` flag that sets one config field, derived from the config's JSON Schema. */
export interface ConfigFlag {
  /** Long flag name without dashes ("max-rounds"). */
  name: string;
  /** Config field it sets ("max_rounds"). */
  key: string;
  description: string;
  /** int and string parse the text; json-file reads the named file and puts its parsed JSON in. */
  type: 'int' | 'string' | 'boolean' | 'json-file';
}

/**
 * One flag per top-level property of the config schema: integers and strings as typed values,
 * booleans as true/false, objects and arrays as a JSON file to read. Properties whose schema
 * allows several types (a fixture name or a board object) become strings.
 */
export function configFlags(schema: JsonObject | undefined): ConfigFlag[] {
  const props = schema?.properties;
  if (!props || typeof props !== 'object' || Array.isArray(props)) return [];
  const flags: ConfigFlag[] = [];
  for (const [key, raw] of Object.entries(props)) {
    const p = raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {};
    const t = p.type;
    const type: ConfigFlag['type'] =
      t === 'integer' ? 'int' : t === 'boolean' ? 'boolean' : t === 'object' || t === 'array' ? 'json-file' : 'string';
    const parts: string[] = [];
    if (typeof p.description === 'string') parts.push(p.description);
    if (Array.isArray(p.enum)) parts.push(p.enum.join(' | '));
    if (typeof p.minimum === 'number' && typeof p.maximum === 'number') parts.push(`${p.minimum}-${p.maximum}`);
    if (p.default !== undefined && typeof p.default !== 'object') parts.push(`default ${String(p.default)}`);
    flags.push({
      name: key.replace(/_/g, '-').replace(/([a-z])([A-Z])/g, (_m, a: string, b: string) => `${a}-${b.toLowerCase()}`),
      key,
      description: parts.join('; ') || key,
      type,
    });
  }
  return flags;
}
