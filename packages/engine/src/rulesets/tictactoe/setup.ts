// TTT-1: an empty board, seat 0 (X) to move. Tic-tac-toe takes no configuration.

import { checkSeed, parseDeclared } from '../../kernel/index.ts';
import { configSchema } from './schema.ts';
import type { TicTacToeState } from './state.ts';

export function setup(config: unknown, seed: number): TicTacToeState {
  checkSeed(seed);
  parseDeclared(configSchema, config ?? {}, 'bad_config', 'tictactoe takes no configuration ({} or nothing)');
  return { board: [-1, -1, -1, -1, -1, -1, -1, -1, -1], turn: 0, moves: 0, result: -1 };
}
