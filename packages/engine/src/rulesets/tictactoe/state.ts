// The state and action of tic-tac-toe: plain JSON records.

export type TicTacToeState = {
  /** 9 cells in row-major order: -1 empty, 0 seat 0's mark (X), 1 seat 1's mark (O). */
  board: number[];
  /** The seat to move. */
  turn: number;
  /** Marks placed so far. */
  moves: number;
  /** -1 running, 0 or 1 a win, 2 a draw. */
  result: number;
};

/** Mark one empty cell (0..8, row-major). */
export type TicTacToeAction = { type: 'mark'; cell: number };

export const MARK = ['X', 'O'];
