// Tic-tac-toe: the smallest complete ruleset, the hello-world of the docs and the common subject
// of benchmarks. Assembly only; the parts follow the skeleton of docs/guide-write-a-ruleset.md.

import { catalogRulesPage, publishedSchema, type Ruleset, type RulesetPackage } from '../../kernel/index.ts';
import { catalog } from './catalog.ts';
import { invariants } from './checks.ts';
import { describeAction, describeEvent, viewText } from './describe.ts';
import { legal, pending, validate } from './menu.ts';
import { apply, clone, outcome } from './rules.ts';
import { actionSchemas, configSchema, stateSchema } from './schema.ts';
import { setup } from './setup.ts';
import type { TicTacToeAction, TicTacToeState } from './state.ts';
import { sampleState, view, type TicTacToeView } from './view.ts';

export type { TicTacToeAction, TicTacToeState } from './state.ts';
export type { TicTacToeView } from './view.ts';
export { LINES } from './rules.ts';

export const tictactoe: Ruleset<TicTacToeState, TicTacToeAction, TicTacToeView> = {
  id: 'tictactoe',
  // 2: actions are tagged, {"type": "mark", "cell": 4} (1 used {"cell": 4})
  version: 'tictactoe-2',
  title: 'Tic-tac-toe',
  catalog,
  defaultConfig: {},
  configSchema: publishedSchema(configSchema),
  schemas: { config: configSchema, actions: actionSchemas, state: stateSchema },
  setup,
  seats: () => 2,
  pending,
  legal,
  validate,
  apply,
  view,
  sampleState,
  outcome,
  clone,
  describeEvent,
  describeAction,
  viewText,
  invariants,
};

export const tictactoePackage: RulesetPackage<TicTacToeState, TicTacToeAction, TicTacToeView> = {
  ruleset: tictactoe,
  gameType: {
    seats: { min: 2, max: 2 },
    turns: 'sequential',
    chance: 'none',
    information: 'perfect',
    outcome: ['winners', 'places'],
  },
  agents: {},
  presets: {},
  tools: [],
  scenarios: 'scenarios/tictactoe',
  rulesPage: () => catalogRulesPage(tictactoe, tictactoePackage.gameType),
};
