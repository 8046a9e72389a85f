// The mines ruleset object: A2 (board rules) with its A3 ledger and a minimal B1 orchestrator,
// wired to the engine contract from the parts in this folder. One seat.

import { publishedSchema, type Ruleset } from '../../kernel/index.ts';
import { catalog } from './catalog.ts';
import { checkTransition, invariants } from './checks.ts';
import { DEFAULT_CONFIG } from './config.ts';
import { describeAction, describeEvent, describeView, eventView, viewText } from './describe.ts';
import { legal, pending, validate } from './menu.ts';
import { apply, metrics, outcome } from './rules.ts';
import { actionSchemas, configSchema, stateSchema } from './schema.ts';
import { setup } from './setup.ts';
import type { MinesAction, MinesState } from './state.ts';
import { secrets, view, type MinesView } from './view.ts';

export const mines: Ruleset<MinesState, MinesAction, MinesView> = {
  id: 'mines',
  version: 'mines-a2-2.1',
  title: 'Minesweeper rules layer (A2 with A3 ledger and B1 orchestrator)',
  catalog,
  defaultConfig: DEFAULT_CONFIG,
  configSchema: publishedSchema(configSchema),
  schemas: { config: configSchema, actions: actionSchemas, free: ['batch', 'move'], state: stateSchema },
  setup,
  seats: () => 1,
  pending,
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
