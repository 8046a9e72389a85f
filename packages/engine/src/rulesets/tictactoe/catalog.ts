import type { Catalog } from '../../kernel/index.ts';

export const catalog: Catalog = {
  rules: [
    { id: 'TTT-1', summary: 'Two seats on a 3x3 board; seat 0 marks X and moves first.', group: 'Setup' },
    { id: 'TTT-2', summary: 'Seats alternate; only the seat to move may act.', group: 'Turns' },
    { id: 'TTT-3', summary: 'A move marks one empty cell 0..8; a marked or missing cell is refused.', group: 'Turns' },
    { id: 'TTT-4', summary: 'Three of one mark in a row, column or diagonal wins at once.', group: 'End' },
    { id: 'TTT-5', summary: 'A full board with no line is a draw.', group: 'End' },
    { id: 'TTT-6', summary: 'Once the game has ended no move is accepted.', group: 'End' },
  ],
  uItems: [],
};
