// bnc-1.1: the Episode 2 survival match. Four contestants, a six-zone spine with hidden
// shortcuts, three access fragments, a Stage Warden, talk, trade, pacts and guilds.
// This file only assembles the package from the parts in this folder.

import { publishedSchema, type RulesetPackage, type Ruleset } from '../../kernel/index.ts';
import { bncAgents } from './agents.ts';
import { fairAgents } from './fair.ts';
import { catalog } from './catalog.ts';
import { checkTransition, invariants } from './checks.ts';
import { pending, validate } from './conditions.ts';
import { VERSION } from './constants.ts';
import { describeAction, describeEvent, viewText } from './describe.ts';
import { FREE_FAMILIES, legal } from './menu.ts';
import { metrics, outcome } from './outcome.ts';
import { renderRulesPage } from './page.ts';
import { apply } from './rules.ts';
import { ACTION_SCHEMAS, configSchema, type Action } from './schema.ts';
import { DEFAULT_CONFIG, setup } from './setup.ts';
import { clone, type BncState } from './state.ts';
import { sampleState } from './sample.ts';
import { stateSchema } from './state-schema.ts';
import { MANIFEST, tools } from './tools.ts';
import { eventView, secrets, view, type BncView } from './view.ts';

export type { BncState } from './state.ts';
// what the web page's board and the samplers read: the view's shape
export type { BncSeatView, BncSeenMessage, BncSpectatorView, BncView } from './view.ts';
// the benchmark's fast path (bench imports a ruleset only through this file)
export { playScripted, TEMPERAMENTS } from './agents.ts';

export const bnc: Ruleset<BncState, Action, BncView> = {
  id: 'bnc',
  version: VERSION,
  title: `${VERSION} — Episode 2 survival match`,
  catalog,
  defaultConfig: { ...DEFAULT_CONFIG },
  configSchema: publishedSchema(configSchema),
  schemas: { config: configSchema, actions: ACTION_SCHEMAS, free: FREE_FAMILIES, state: stateSchema },
  setup,
  seats: (s) => s.contestants.length,
  pending,
  legal,
  sampleState,
  validate,
  apply,
  clone,
  view,
  secrets,
  outcome,
  metrics,
  describeEvent,
  describeAction,
  viewText,
  eventView,
  invariants,
  checkTransition,
};

const agentNotes: Record<keyof typeof bncAgents, string> = {
  cooperative:
    'trusts the reputable; founds a guild where it finds a fragment, banks fragments, escapes by the vault route (reads the state)',
  greedy:
    'trusts nobody; hoards items, trades the chart for fragments, fights the Warden until nearly dead (reads the state)',
  treacherous:
    'accepts every pact and guild; robs vaults (defection), breaks pacts on a refusal or once it needs nobody (reads the state)',
  cautious:
    'searches before moving, joins the reputable, pools fragments with partners, leaves pacts with betrayers (reads the state)',
};

export const bncPackage: RulesetPackage<BncState, Action, BncView> = {
  ruleset: bnc,
  gameType: {
    seats: { min: 2, max: 6 },
    turns: 'simultaneous',
    chance: 'setup-and-play',
    information: 'imperfect',
    outcome: ['winners', 'places', 'scores'],
    defaultAction: 'wait',
  },
  agents: {
    cooperative: { factory: bncAgents.cooperative, description: agentNotes.cooperative, reads: 'state' },
    greedy: { factory: bncAgents.greedy, description: agentNotes.greedy, reads: 'state' },
    treacherous: { factory: bncAgents.treacherous, description: agentNotes.treacherous, reads: 'state' },
    cautious: { factory: bncAgents.cautious, description: agentNotes.cautious, reads: 'state' },
    scout: {
      factory: fairAgents.scout,
      description:
        'races for items from what it has seen (runs ahead of a lower seat), reads the chart, takes gifts, robs vaults it is let into, checks the Exit after an elimination, pools fragments with other scouts it heard',
      reads: 'view',
    },
    turncoat: {
      factory: fairAgents.turncoat,
      description:
        'the treacherous temperament on its view: accepts every pact and guild, robs vaults, asks pact partners for a fragment and breaks with those who refuse; searches instead of knowing where fragments lie',
      reads: 'view',
    },
  },
  presets: {},
  tools,
  scenarios: 'scenarios/bnc',
  rulesPage: () => renderRulesPage(MANIFEST),
  // search agents play out with the fair scout (on their own sample): unlike the treacherous
  // script, it does not know where the sampled fragments lie, so finding out is worth something in
  // a playout; ismcts places slightly better with it, at about four times the cost (docs/agents.md)
  search: { rollout: 'scout' },
};
