// Who owes a move (TTT-2) and the menu of empty cells (TTT-3), plus the input check.
//
// The hot paths run millions of times in simulations, so they hand out shared, frozen values built
// once here instead of allocating per call. Callers only read them; freezing turns an accidental
// write into a loud error instead of a corrupted game.

import { reject, requireObject, type Menu, type Pending, type Seat, type Validation } from '../../kernel/index.ts';
import type { TicTacToeAction, TicTacToeState } from './state.ts';

/** Menu elements are shared, never mutated: legal() hands out the same objects every time. */
const CELL_ACTIONS: readonly TicTacToeAction[] = Object.freeze(
  Array.from({ length: 9 }, (_, cell): TicTacToeAction => Object.freeze({ type: 'mark', cell })),
);

// pending() for "seat 0 to move" and "seat 1 to move"; the finished game owes nothing.
const PENDING: readonly Pending[][] = [0, 1].map((seat) => frozen<Pending>([Object.freeze({ seat, kind: 'move' })]));
const NOTHING_PENDING: Pending[] = frozen<Pending>([]);

// One menu per set of empty cells (bit i set = cell i empty), cells in ascending order.
const MENUS: readonly Menu<TicTacToeAction>[] = Array.from({ length: 512 }, (_, empty) =>
  Object.freeze({ actions: frozen(CELL_ACTIONS.filter((a) => (empty >> a.cell) & 1)) }),
);

/** Freezes the array in place and hands it back with its mutable type (a write then throws). */
function frozen<T>(items: T[]): T[] {
  Object.freeze(items);
  return items;
}
const EMPTY_MENU = MENUS[0];

export function pending(s: TicTacToeState): Pending[] {
  if (s.result !== -1) return NOTHING_PENDING;
  // a hand-edited state (scenario overrides) may hold an odd turn; describe it rather than fail
  return PENDING[s.turn] ?? [{ seat: s.turn, kind: 'move' }];
}

export function legal(s: TicTacToeState, seat: Seat): Menu<TicTacToeAction> {
  if (s.result !== -1 || seat !== s.turn) return EMPTY_MENU;
  const b = s.board;
  let empty = 0;
  for (let i = 0; i < 9; i++) if (b[i] === -1) empty |= 1 << i;
  return MENUS[empty];
}

/**
 * TTT-3 with worded refusals: a malformed move is a bad_request, a marked cell is illegal. The
 * kernel's menu membership would accept the same actions; this check says why an input is refused
 * and returns the shared menu element.
 */
export function validate(s: TicTacToeState, _seat: Seat, input: unknown): Validation<TicTacToeAction> {
  const obj = requireObject(input);
  if (!obj.ok) return obj;
  const keys = Object.keys(obj.action);
  if (keys.length !== 2 || obj.action.type !== 'mark' || !('cell' in obj.action)) {
    return {
      ok: false,
      error: reject('bad_request', 'a move is {"type": "mark", "cell": 0..8} and nothing else', { keys }),
    };
  }
  const cell = obj.action.cell;
  if (typeof cell !== 'number' || !Number.isInteger(cell) || cell < 0 || cell > 8) {
    return { ok: false, error: reject('bad_request', 'cell must be an integer from 0 to 8', { cell }) };
  }
  if (s.board[cell] !== -1) {
    return { ok: false, error: reject('illegal', `cell ${cell} is already marked`, { cell }) };
  }
  return { ok: true, action: CELL_ACTIONS[cell] };
}
