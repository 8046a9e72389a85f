// Tic-tac-toe's declared schemas: no config, one action family, a nine-cell state.

import { z } from 'zod';

export const configSchema = z.strictObject({}).describe('tic-tac-toe takes no configuration');

export const actionSchemas = {
  mark: z.strictObject({ type: z.literal('mark'), cell: z.int().min(0).max(8) }),
};

const seat = z.int().min(0).max(1);

export const stateSchema = z.strictObject({
  board: z.array(z.int().min(-1).max(1)).length(9),
  turn: seat,
  moves: z.int().min(0).max(9),
  result: z.int().min(-1).max(2),
});
