// Tic-tac-toe: the smallest complete ruleset, the hello-world of the docs and the common subject
// of benchmarks. It shows every part of the contract in a few lines.

import {
  ArbiterError,
  checkSeed,
  reject,
  requireObject,
  type GameEvent,
  type Menu,
  type Outcome,
  type Pending,
  type Ruleset,
  type RulesetPackage,
  catalogRulesPage,
  type Validation,
} from '../../kernel/index.ts';
import { catalog } from './catalog.ts';

export interface TicTacToeState {
  /** 9 cells in row-major order: -1 empty, 0 seat 0's mark (X), 1 seat 1's mark (O). */
  board: number[];
  /** The seat to move. */
  turn: number;
  /** Marks placed so far. */
  moves: number;
  /** -1 running, 0 or 1 a win, 2 a draw. */
  result: number;
}

export interface TicTacToeAction {
  cell: number;
}

const LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];

// The hot paths (pending, legal, the win check) run millions of times in simulations, so they
// hand out shared, frozen values built once here instead of allocating per call. Callers only
// read them; freezing turns an accidental write into a loud error instead of a corrupted game.

// Menu elements are shared, never mutated: legal() hands out the same objects every time.
const CELL_ACTIONS: readonly TicTacToeAction[] = Object.freeze(
  Array.from({ length: 9 }, (_, cell) => Object.freeze({ cell })),
);
const MARK = ['X', 'O'];

// pending() for "seat 0 to move" and "seat 1 to move"; the finished game owes nothing.
const PENDING: readonly Pending[][] = [0, 1].map((seat) => Object.freeze([Object.freeze({ seat, kind: 'move' })]) as Pending[]);
const NOTHING_PENDING: Pending[] = Object.freeze([]) as unknown as Pending[];

// One menu per set of empty cells (bit i set = cell i empty), cells in ascending order.
const MENUS: readonly Menu<TicTacToeAction>[] = Array.from({ length: 512 }, (_, empty) =>
  Object.freeze({
    actions: Object.freeze(CELL_ACTIONS.filter((a) => (empty >> a.cell) & 1)) as TicTacToeAction[],
  }),
);
const EMPTY_MENU = MENUS[0];

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

export const tictactoe: Ruleset<TicTacToeState, TicTacToeAction> = {
  id: 'tictactoe',
  version: 'tictactoe-1',
  title: 'Tic-tac-toe',
  catalog,
  defaultConfig: {},

  setup(config, seed) {
    checkSeed(seed);
    if (config !== undefined && config !== null) {
      if (typeof config !== 'object' || Array.isArray(config) || Object.keys(config).length > 0) {
        throw new ArbiterError('bad_config', 'tictactoe takes no configuration ({} or nothing)');
      }
    }
    return { board: [-1, -1, -1, -1, -1, -1, -1, -1, -1], turn: 0, moves: 0, result: -1 };
  },

  seats: () => 2,

  pending(s): Pending[] {
    if (s.result !== -1) return NOTHING_PENDING;
    // a hand-edited state (scenario overrides) may hold an odd turn; describe it rather than fail
    return PENDING[s.turn] ?? [{ seat: s.turn, kind: 'move' }];
  },

  legal(s, seat): Menu<TicTacToeAction> {
    if (s.result !== -1 || seat !== s.turn) return EMPTY_MENU;
    const b = s.board;
    let empty = 0;
    for (let i = 0; i < 9; i++) if (b[i] === -1) empty |= 1 << i;
    return MENUS[empty];
  },

  validate(s, _seat, input): Validation<TicTacToeAction> {
    const obj = requireObject(input);
    if (!obj.ok) return obj;
    const keys = Object.keys(obj.action);
    if (keys.length !== 1 || keys[0] !== 'cell') {
      return { ok: false, error: reject('bad_request', 'a move is {"cell": 0..8} and nothing else', { keys }) };
    }
    const cell = obj.action.cell;
    if (typeof cell !== 'number' || !Number.isInteger(cell) || cell < 0 || cell > 8) {
      return { ok: false, error: reject('bad_request', 'cell must be an integer from 0 to 8', { cell }) };
    }
    if (s.board[cell] !== -1) {
      return { ok: false, error: reject('illegal', `cell ${cell} is already marked`, { cell }) };
    }
    return { ok: true, action: CELL_ACTIONS[cell] };
  },

  apply(s, seat, action, events: GameEvent[]) {
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
  },

  view(s) {
    // nothing is hidden in tic-tac-toe: every seat and spectators see the same board
    return { board: s.board.map((c) => (c === -1 ? '.' : MARK[c])).join(''), turn: s.turn, result: s.result };
  },

  outcome(s): Outcome | null {
    if (s.result === -1) return null;
    if (s.result === 2) return { winners: [], places: [1, 1], reason: 'board full, no line' };
    return {
      winners: [s.result],
      places: s.result === 0 ? [1, 2] : [2, 1],
      reason: 'three in a row',
    };
  },

  clone(s) {
    return { board: s.board.slice(), turn: s.turn, moves: s.moves, result: s.result };
  },

  // perfect information: the view holds the whole state
  sampleState(view) {
    const v = view as { board: string; turn: number; result: number };
    const board = [...v.board].map((c) => (c === '.' ? -1 : c === 'X' ? 0 : 1));
    return { board, turn: v.turn, moves: board.filter((c) => c !== -1).length, result: v.result };
  },

  describeEvent(e) {
    if (e.type === 'marked') return `${MARK[e.seat as number]} marks cell ${e.cell}`;
    if (e.type === 'game_over') return e.winner === null ? 'draw: the board is full' : `${MARK[e.winner as number]} wins with three in a row`;
    return e.type;
  },

  describeAction(a) {
    return `cell ${a.cell} (row ${Math.floor(a.cell / 3) + 1}, column ${(a.cell % 3) + 1})`;
  },

  invariants(s) {
    const bad: string[] = [];
    const x = s.board.filter((c) => c === 0).length;
    const o = s.board.filter((c) => c === 1).length;
    if (x - o !== 0 && x - o !== 1) bad.push('TTT-2: marks must alternate (X count − O count is 0 or 1)');
    if (x + o !== s.moves) bad.push('moves counter equals the number of marks');
    return bad;
  },
};

export const tictactoePackage: RulesetPackage<TicTacToeState, TicTacToeAction> = {
  ruleset: tictactoe,
  gameType: { seats: { min: 2, max: 2 }, turns: 'sequential', chance: 'none', information: 'perfect', outcome: ['winners'] },
  agents: {},
  presets: {},
  tools: [],
  scenarios: 'scenarios/tictactoe',
  rulesPage: () => catalogRulesPage(tictactoe, tictactoePackage.gameType),
};
