// The transition: a mark (TTT-3), a line wins at once (TTT-4), a full board draws (TTT-5),
// otherwise the other seat moves (TTT-2).

import type { GameEvent, Outcome, Seat } from '../../kernel/index.ts';
import type { TicTacToeAction, TicTacToeState } from './state.ts';

/** The eight lines of three (rows, columns, diagonals); the web board draws the winning one. */
export const LINES: readonly (readonly number[])[] = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
];

// For each cell, the other two cells of every line through it, in pairs.
const LINES_THROUGH: readonly number[][] = Array.from({ length: 9 }, (_, cell) =>
  LINES.filter((l) => l.includes(cell)).flatMap((l) => l.filter((c) => c !== cell)),
);

function lineThrough(board: number[], cell: number): boolean {
  const who = board[cell];
  const pairs = LINES_THROUGH[cell];
  for (let i = 0; i < pairs.length; i += 2) {
    if (board[pairs[i]] === who && board[pairs[i + 1]] === who) return true;
  }
  return false;
}

export function apply(s: TicTacToeState, seat: Seat, action: TicTacToeAction, events: GameEvent[]): void {
  const cell = action.cell;
  s.board[cell] = seat;
  s.moves++;
  events.push({ type: 'marked', seat, cell });
  if (lineThrough(s.board, cell)) {
    s.result = seat;
    events.push({ type: 'game_over', winner: seat, reason: 'line' });
  } else if (s.moves === 9) {
    s.result = 2;
    events.push({ type: 'game_over', winner: null, reason: 'full' });
  } else {
    s.turn = 1 - seat;
  }
}

export function outcome(s: TicTacToeState): Outcome | null {
  if (s.result === -1) return null;
  if (s.result === 2) return { winners: [], places: [1, 1], reason: 'board full, no line' };
  return { winners: [s.result], places: s.result === 0 ? [1, 2] : [2, 1], reason: 'three in a row' };
}

export function clone(s: TicTacToeState): TicTacToeState {
  return { board: s.board.slice(), turn: s.turn, moves: s.moves, result: s.result };
}
