// The one file that names the shipped rulesets and their extra agents. The kernel imports no
// ruleset; runners and interfaces look rulesets up here.

import { ArbiterError, type AgentFactory, type Ruleset } from './kernel/index.ts';
import { tictactoe } from './rulesets/tictactoe/index.ts';
import { mines } from './rulesets/mines/index.ts';
import { minesAgents } from './rulesets/mines/agent.ts';
import { MINES_FLAGS, MINES_PRESETS } from './rulesets/mines/config.ts';
import { ground } from './rulesets/ground/index.ts';
import { agents as groundAgents } from './rulesets/ground/agents.ts';
import { bnc } from './rulesets/bnc/index.ts';
import { bncAgents } from './rulesets/bnc/agents.ts';
import { duel } from './rulesets/duel/index.ts';
import { agents as duelAgents } from './rulesets/duel/agents.ts';
import { PRESETS as duelPresets } from './rulesets/duel/config.ts';

/** A CLI flag of `play`/`sim` that sets one config field, e.g. `--players 4` → config.players. */
export interface ConfigFlag {
  /** Long flag name without dashes ("players"). */
  name: string;
  /** Config field it sets. */
  key: string;
  description: string;
  /** int and string parse the text; json-file reads the named file and puts its parsed JSON in. */
  type: 'int' | 'string' | 'json-file';
}

export interface RegisteredRuleset {
  ruleset: Ruleset;
  /** Ruleset-specific agents (heuristics), by name. `random` and `first` exist for every ruleset. */
  agents?: Record<string, AgentFactory>;
  /** Folder of scenario files, relative to the repository root. */
  scenarios: string;
  /** Named extra configurations `arbiter play`/`sim` accept with --preset. */
  presets?: Record<string, Record<string, unknown>>;
  /** Config flags `play` and `sim` accept for this ruleset. */
  flags?: ConfigFlag[];
}

const entries: RegisteredRuleset[] = [
  { ruleset: tictactoe, scenarios: 'scenarios/tictactoe' },
  { ruleset: mines, agents: minesAgents, scenarios: 'scenarios/mines', presets: MINES_PRESETS, flags: MINES_FLAGS },
  {
    ruleset: ground,
    agents: groundAgents,
    scenarios: 'scenarios/ground',
    flags: [
      { name: 'players', key: 'players', description: 'number of players, 2-6 (default 4)', type: 'int' },
      { name: 'mode', key: 'mode', description: 'shared-ground | personal-edge | bonded-coalitions (default shared-ground)', type: 'string' },
      { name: 'scenario', key: 'scenario', description: 'Scenario card id (default kitchen-table)', type: 'string' },
      { name: 'edition', key: 'edition', description: 'path of an edition JSON file (default: the SAMPLE edition)', type: 'json-file' },
    ],
  },
  { ruleset: bnc, scenarios: 'scenarios/bnc', agents: bncAgents },
  { ruleset: duel, scenarios: 'scenarios/duel', agents: duelAgents, presets: duelPresets as Record<string, Record<string, unknown>> },
];

export const REGISTRY: ReadonlyMap<string, RegisteredRuleset> = new Map(entries.map((e) => [e.ruleset.id, e]));

export function rulesetIds(): string[] {
  return [...REGISTRY.keys()];
}

export function getEntry(id: string): RegisteredRuleset {
  const e = REGISTRY.get(id);
  if (!e) throw new ArbiterError('not_found', `unknown ruleset "${id}" (known: ${rulesetIds().join(', ')})`);
  return e;
}

export function getRuleset(id: string): Ruleset {
  return getEntry(id).ruleset;
}
