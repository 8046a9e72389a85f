// The mines ruleset object: A2 (board rules) with its A3 ledger and a minimal B1 orchestrator,
// wired to the engine contract from the parts in this folder. One seat.

import type { Ruleset } from '../../kernel/index.ts';
import { catalog } from './catalog.ts';
import { checkTransition, invariants } from './checks.ts';
import { DEFAULT_CONFIG } from './config.ts';
import { FIXTURE_NAMES } from './fixtures.ts';
import { describeAction, describeEvent, describeView, eventView, viewText } from './describe.ts';
import { legal, validate } from './menu.ts';
import { apply, metrics, outcome } from './rules.ts';
import { setup } from './setup.ts';
import type { MinesAction, MinesState } from './state.ts';
import { secrets, view } from './view.ts';

export const mines: Ruleset<MinesState, MinesAction> = {
  id: 'mines',
  version: 'mines-a2-2.1',
  title: 'Minesweeper rules layer (A2 with A3 ledger and B1 orchestrator)',
  catalog,
  defaultConfig: DEFAULT_CONFIG,
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      board: {
        type: ['string', 'object'],
        description:
          'a fixture board name (b_spawn, b_chain, b_fog, ...) or a board object, instead of a generated one',
        examples: FIXTURE_NAMES,
      },
      width: { type: 'integer', minimum: 1, default: DEFAULT_CONFIG.width, description: 'generated board width' },
      height: { type: 'integer', minimum: 1, default: DEFAULT_CONFIG.height, description: 'generated board height' },
      mines: { type: 'integer', minimum: 0, default: DEFAULT_CONFIG.mines, description: 'mine count' },
      fog: { type: 'integer', minimum: 0, default: DEFAULT_CONFIG.fog, description: 'fog cells' },
      spawn: { type: 'integer', minimum: 0, description: 'spawn cell index (default: the centre)' },
      no_guess: {
        type: 'boolean',
        default: DEFAULT_CONFIG.no_guess,
        description: 'repair generated boards until deduction clears them',
      },
      boards: {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        default: DEFAULT_CONFIG.boards,
        description: 'boards to clear to win the run',
      },
      max_rounds: {
        type: 'integer',
        minimum: 1,
        maximum: 100000,
        default: DEFAULT_CONFIG.max_rounds,
        description: 'round cap of the run',
      },
      economy: { type: 'object', description: 'overrides of the AP price table' },
    },
  },
  setup,
  seats: () => 1,
  pending: (s) => (s.run.ended === null ? [{ seat: 0, kind: 'intent' }] : []),
  legal,
  validate,
  apply,
  view,
  secrets,
  outcome,
  describeEvent,
  describeAction,
  describeView,
  viewText,
  eventView,
  invariants,
  checkTransition,
  metrics,
};
