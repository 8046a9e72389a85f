// Nothing is hidden in tic-tac-toe: every seat and spectators see the same board.

import type { Json } from '../../kernel/index.ts';
import { MARK, type TicTacToeState } from './state.ts';

export function view(s: TicTacToeState): Json {
  return { board: s.board.map((c) => (c === -1 ? '.' : MARK[c])).join(''), turn: s.turn, result: s.result };
}

/** Nothing is hidden, so the one state consistent with a view is the state itself (for search agents). */
export function sampleState(v: Json): TicTacToeState {
  const o = v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};
  const board = [...String(o.board ?? '')].map((c) => (c === '.' ? -1 : c === 'X' ? 0 : 1));
  return { board, turn: Number(o.turn), moves: board.filter((c) => c !== -1).length, result: Number(o.result) };
}
