// Action scripts shared by the mines board tests (in the browser and on the board model).

import type { MinesAction } from '../../packages/engine/src/rulesets/mines/index.ts';

/** On fixture b_batch: walks and digs until one closed safe cell is left (the next dig clears). */
export const B_BATCH_TO_LAST_SAFE: MinesAction[] = [
  { type: 'move', cell: [2, 3] },
  { type: 'dig', cell: [1, 3] },
  { type: 'move', cell: [1, 3] },
  { type: 'dig', cell: [0, 2] },
  { type: 'dig', cell: [0, 3] },
  { type: 'dig', cell: [0, 4] },
  { type: 'move', cell: [0, 2] },
  { type: 'dig', cell: [0, 1] },
  { type: 'move', cell: [0, 1] },
  { type: 'dig', cell: [0, 0] },
  { type: 'move', cell: [0, 4] },
  { type: 'dig', cell: [0, 5] },
  { type: 'move', cell: [0, 5] },
];
