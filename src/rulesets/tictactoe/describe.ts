// Events and actions in words, for `arbiter play`.

import type { GameEvent } from '../../kernel/index.ts';
import { MARK, type TicTacToeAction } from './state.ts';

export function describeEvent(e: GameEvent): string {
  if (e.type === 'marked' && typeof e.seat === 'number') return `${MARK[e.seat]} marks cell ${String(e.cell)}`;
  if (e.type === 'game_over')
    return typeof e.winner === 'number' ? `${MARK[e.winner]} wins with three in a row` : 'draw: the board is full';
  return e.type;
}

export function describeAction(a: TicTacToeAction): string {
  return `mark cell ${a.cell} (row ${Math.floor(a.cell / 3) + 1}, column ${(a.cell % 3) + 1})`;
}
