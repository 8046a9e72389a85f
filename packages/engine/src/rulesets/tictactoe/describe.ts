// Events and actions in words, for `arbiter play`.

import type { GameEvent, Json } from '../../kernel/index.ts';
import { MARK, type TicTacToeAction } from './state.ts';

export function describeEvent(e: GameEvent): string {
  if (e.type === 'marked' && typeof e.seat === 'number')
    // the cell as the board shows it (rows and columns; the board draws no cell numbers)
    return `${MARK[e.seat]} marks ${place(Number(e.cell))}`;
  if (e.type === 'game_over')
    return typeof e.winner === 'number' ? `${MARK[e.winner]} wins with three in a row` : 'draw: the board is full';
  return e.type;
}

const place = (cell: number) => `row ${Math.floor(cell / 3) + 1}, column ${(cell % 3) + 1}`;

export function describeAction(a: TicTacToeAction): string {
  return `mark cell ${a.cell} (${place(a.cell)})`;
}

/** The board in words for agents: a 3×3 grid with cell numbers beside it. */
export function viewText(view: Json, seat: number | null): string {
  const o = view !== null && typeof view === 'object' && !Array.isArray(view) ? view : {};
  const board = String(o.board ?? '.........');
  const rows = [0, 1, 2].map(
    (r) =>
      `${board
        .slice(r * 3, r * 3 + 3)
        .split('')
        .join(' ')}    ${r * 3} ${r * 3 + 1} ${r * 3 + 2}`,
  );
  const result = Number(o.result);
  const status =
    result === -1
      ? `${MARK[Number(o.turn)]} (seat ${Number(o.turn)}) to move.`
      : result === 2
        ? 'The game is over: a draw.'
        : `The game is over: ${MARK[result]} won.`;
  const you = seat === null ? 'You are watching.' : `You play ${MARK[seat]} (seat ${seat}).`;
  return [
    `Tic-tac-toe. ${you} Three of your marks in a row, column or diagonal wins.`,
    'Board (. empty) and cell numbers:',
    ...rows,
    status,
  ].join('\n');
}
