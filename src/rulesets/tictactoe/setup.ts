// TTT-1: an empty board, seat 0 (X) to move. Tic-tac-toe takes no configuration.

import { ArbiterError, checkSeed } from '../../kernel/index.ts';
import type { TicTacToeState } from './state.ts';

export function setup(config: unknown, seed: number): TicTacToeState {
  checkSeed(seed);
  if (config !== undefined && config !== null) {
    if (typeof config !== 'object' || Array.isArray(config) || Object.keys(config).length > 0) {
      throw new ArbiterError('bad_config', 'tictactoe takes no configuration ({} or nothing)');
    }
  }
  return { board: [-1, -1, -1, -1, -1, -1, -1, -1, -1], turn: 0, moves: 0, result: -1 };
}
