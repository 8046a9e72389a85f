// GROUND v0.1 (sample edition): 2–6 players, 5 rounds of simultaneous Select, Reveal, Resolve and
// End, with Stress, Freedom, the DARVO sequence, Bonds and Rivalries, and three scoring Modes.
// This file only assembles the parts into the ruleset and its package.

import { catalogRulesPage, publishedSchema, type RulesetPackage, type Ruleset } from '../../kernel/index.ts';
import { agents } from './agents.ts';
import { catalog } from './catalog.ts';
import { checkTransition, invariants } from './checks.ts';
import { describeAction, describeEvent, eventView, viewText } from './describe.ts';
import { legal, pending, validate } from './menu.ts';
import { metrics } from './metrics.ts';
import { apply } from './rules.ts';
import { report } from './report.ts';
import { outcome } from './scoring.ts';
import { actionSchemas, configSchema, stateSchema } from './schema.ts';
import { DEFAULT_CONFIG, setup } from './setup.ts';
import { clone, type GroundGameAction, type GroundState } from './state.ts';
import { tools } from './tools.ts';
import { sampleState } from './sample.ts';
import { secrets, view, type GroundView } from './view.ts';

// what the web page's board and the samplers read: the view's shape
export type { GroundHand, GroundView, GroundViewPlayer, GroundViewProblem } from './view.ts';

export const ground: Ruleset<GroundState, GroundGameAction, GroundView> = {
  id: 'ground',
  version: 'ground-0.2-sample',
  title: 'GROUND v0.1 (sample edition)',
  catalog,
  defaultConfig: { ...DEFAULT_CONFIG },
  configSchema: publishedSchema(configSchema),
  schemas: { config: configSchema, actions: actionSchemas, state: stateSchema },
  setup,
  seats: (s) => s.n,
  pending,
  legal,
  validate,
  apply,
  view,
  sampleState,
  secrets,
  outcome,
  clone,
  metrics,
  report,
  invariants,
  checkTransition,
  describeAction,
  describeEvent,
  viewText,
  eventView,
};

export const groundPackage: RulesetPackage<GroundState, GroundGameAction, GroundView> = {
  ruleset: ground,
  gameType: {
    seats: { min: 2, max: 6 },
    turns: 'mixed',
    chance: 'setup',
    information: 'imperfect',
    outcome: ['winners', 'places', 'scores'],
  },
  agents: {
    heuristic: {
      factory: agents.heuristic,
      description: 'co-operative: solves Problems, supports, avoids stress',
      reads: 'view',
    },
    rival: { factory: agents.rival, description: 'aggressive: attacks and blames', reads: 'view' },
  },
  // a tournament needs each seat's own result: GROUND's default mode is co-operative (every seat
  // wins or loses together), PERSONAL EDGE ranks the seats by their own points (GR-E03)
  presets: { competitive: { players: 4, mode: 'personal-edge' } },
  tools,
  scenarios: 'scenarios/ground',
  rulesPage: () => catalogRulesPage(ground, groundPackage.gameType),
  // search agents play out with the scripted policy (on their own sample of the state)
  search: { rollout: 'heuristic' },
};
