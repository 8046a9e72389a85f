// The `duel` ruleset package: the seed's two-seat turn procedure as a playable reference profile.
// Assembly only; the parts are named after what they hold (see the skeleton in
// docs/guide-write-a-ruleset.md). Validation is the kernel default: the menu is finite, so an input
// is accepted exactly when it equals one of the menu's elements.

import { catalogRulesPage, publishedSchema, type Ruleset, type RulesetPackage } from '../../kernel/index.ts';
import { agents } from './agents.ts';
import { catalog } from './catalog.ts';
import { checkTransition, invariants } from './checks.ts';
import { DEFAULT_CONFIG, PRESETS, PROFILES, type Profile } from './config.ts';
import { describeAction, describeEvent, eventView, metrics, viewText } from './describe.ts';
import { goals } from './goals.ts';
import { stateKey, stateKeyInto } from './key.ts';
import { legal, pending } from './menu.ts';
import { apply, clone, outcome } from './rules.ts';
import { actionSchemas, configSchema } from './schema.ts';
import { setup } from './setup.ts';
import type { DuelAction, DuelState } from './state.ts';
import { sampleState } from './sample.ts';
import { secrets, view, type DuelView } from './view.ts';

export type { DuelAction, DuelState } from './state.ts';
export type { DuelView } from './view.ts';
export { CARDS, type CardDef } from './cards.ts';

export const duel: Ruleset<DuelState, DuelAction, DuelView> = {
  id: 'duel',
  // 0.2: actions are tagged `type` (was `do`); validation is menu membership
  // 0.3: ICE break costs wall 6, barb 5 (were 4 and 3; U-BREAK, F-1), so replays of 0.2 logs differ
  // 0.4: the default profile's decks (U-DECKS, F-2); 0.3's stay selectable (`profile: "0.3"`)
  version: 'duel-refprofile-0.4',
  title: 'Duel: two-seat turn procedures (reference profile)',
  catalog,
  defaultConfig: DEFAULT_CONFIG,
  configSchema: publishedSchema(configSchema),
  schemas: { config: configSchema, actions: actionSchemas },
  goals,
  setup,
  seats: () => 2,
  pending,
  legal,
  apply,
  view,
  sampleState,
  secrets,
  outcome,
  clone,
  describeEvent,
  describeAction,
  viewText,
  eventView,
  stateKey,
  stateKeyInto,
  invariants,
  checkTransition,
  metrics,
};

/** Config with `profile` set to `p` unless it names one (anything else is left for setup to refuse). */
function withProfile(config: unknown, p: Profile): unknown {
  if (config === undefined || config === null) return { profile: p };
  if (typeof config !== 'object' || Array.isArray(config) || 'profile' in config) return config;
  return { profile: p, ...config };
}

/**
 * Version 0.3 as logs of it were written: the same engine, with profile 0.3 supplying the defaults
 * (only the default decks differ), so `arbiter replay` re-executes a 0.3 log as it was played.
 */
const duel03: Ruleset<DuelState, DuelAction, DuelView> = {
  ...duel,
  version: 'duel-refprofile-0.3',
  defaultConfig: { ...DEFAULT_CONFIG, ...PROFILES['0.3'], profile: '0.3' },
  setup: (config, seed, events) => setup(withProfile(config, '0.3'), seed, events),
};

export const duelPackage: RulesetPackage<DuelState, DuelAction, DuelView> = {
  ruleset: duel,
  gameType: {
    seats: { min: 2, max: 2 },
    turns: 'sequential',
    chance: 'setup-and-play',
    information: 'imperfect',
    outcome: ['winners', 'scores'],
  },
  agents,
  presets: PRESETS,
  earlier: [duel03],
  tools: [],
  scenarios: 'scenarios/duel',
  rulesPage: () => catalogRulesPage(duel, duelPackage.gameType),
  // search agents play out with the scripted policy (on their own sample of the state)
  search: { rollout: 'heuristic' },
};
