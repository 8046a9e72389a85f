// Nothing is hidden in tic-tac-toe: every seat and spectators see the same board.

import { MARK, type TicTacToeState } from './state.ts';

/** Every audience's view: the board as nine glyphs ('X', 'O', '.') in row-major order. */
export type TicTacToeView = {
  board: string;
  /** The seat to move. */
  turn: number;
  /** -1 running, 0 or 1 a win, 2 a draw. */
  result: number;
};

export function view(s: TicTacToeState): TicTacToeView {
  return { board: s.board.map((c) => (c === -1 ? '.' : MARK[c])).join(''), turn: s.turn, result: s.result };
}

/** Nothing is hidden, so the one state consistent with a view is the state itself (for search agents). */
export function sampleState(v: TicTacToeView): TicTacToeState {
  const board = [...v.board].map((c) => (c === '.' ? -1 : c === 'X' ? 0 : 1));
  return { board, turn: v.turn, moves: board.filter((c) => c !== -1).length, result: v.result };
}
