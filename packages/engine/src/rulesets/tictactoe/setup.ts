// TTT-1: an empty board, seat 0 (X) to move. Tic-tac-toe takes no configuration.

import { checkSeed, parseDeclared } from '../../kernel/index.ts';
import { configSchema } from './schema.ts';
import type { TicTacToeState } from './state.ts';

export function setup(config: unknown, seed: number): TicTacToeState {
  checkSeed(seed);
  // nothing to parse when no config is given: playouts call setup once per game, and the schema
  // parse (a zod walk) cost more than the game's first move
  if (config !== undefined && config !== null)
    parseDeclared(configSchema, config, 'bad_config', 'tictactoe takes no configuration ({} or nothing)');
  return { board: [-1, -1, -1, -1, -1, -1, -1, -1, -1], turn: 0, moves: 0, result: -1 };
}
