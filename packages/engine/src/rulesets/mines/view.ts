// What the seat sees: the board as rows of glyphs (presentation hides what the seed's D1 hides:
// concealed cells, and the digit of an opened fog cell, U-M10), the figure, the ledger's
// figures, the last batch's outcomes and A2's diagnostics. The mines and concealed digits are
// the secrets the conformance checks look for.

import type { Json, Seat } from '../../kernel/index.ts';
import { CONCEALED, FLAG, OPEN } from './board/closure.ts';
import { type Board, MINE_CH, cellXY } from './board/geometry.ts';
import type { ActionOutcome, Cell, Diagnostic } from './board/types.ts';
import type { MinesState } from './state.ts';

/** The seat's view, as a record (MinesView) that describe.ts and the terminal player read. */
export type MinesView = {
  board: string;
  w: number;
  h: number;
  /** '#' concealed, '%' concealed fog, 'F' flag, '0'-'8' open safe, '~' open fog, '*' open (dug) mine. */
  rows: string[];
  pos: Cell | null;
  remaining_safe: number;
  phase: string;
  ap: number;
  rap: number;
  round: number;
  max_rounds: number;
  boards_cleared: number;
  boards_target: number;
  prices: { [k: string]: number };
  last: ActionOutcome[];
  diagnostics: Diagnostic[];
  ended: null | 'cleared' | 'round_cap';
};

function renderRows(b: Board, cover: string): string[] {
  const fogAt = new Set(b.variants.filter(([, ids]) => ids.includes('fog')).map(([c]) => c));
  const rows: string[] = [];
  for (let y = 0; y < b.h; y++) {
    let r = '';
    for (let x = 0; x < b.w; x++) {
      const i = y * b.w + x;
      const st = cover.charCodeAt(i);
      if (st === FLAG) r += 'F';
      else if (st === CONCEALED) r += fogAt.has(i) ? '%' : '#';
      else if (b.mines.charCodeAt(i) === MINE_CH) r += '*';
      else r += fogAt.has(i) ? '~' : b.digits[i];
    }
    rows.push(r);
  }
  return rows;
}

export function minesView(s: MinesState): MinesView {
  const b = s.a2.board;
  return {
    board: s.run.fixture !== null ? s.run.fixture.id : 'generated',
    w: b ? b.w : 0,
    h: b ? b.h : 0,
    rows: b ? renderRows(b, s.a2.cover) : [],
    pos: b ? cellXY(b.w, s.a2.pos) : null,
    remaining_safe: s.a2.rem,
    phase: s.a3.phase,
    ap: s.a3.ap,
    rap: s.a3.rap,
    round: s.a3.round,
    max_rounds: s.run.max_rounds,
    boards_cleared: s.run.boards_cleared,
    boards_target: s.run.boards_target,
    prices: { ...s.a3.table },
    last: s.run.last.map((r) => ({ ...r })),
    diagnostics: s.run.diagnostics.map((d) => ({ ...d })),
    ended: s.run.ended,
  };
}

export function view(s: MinesState, _seat: Seat | null): MinesView {
  return minesView(s);
}

export function secrets(s: MinesState, _seat: Seat | null): Json[] {
  const b = s.a2.board;
  if (b === null) return [];
  const out: Json[] = [b.mines, b.digits];
  if (s.run.fixture === null) out.push(b.id);
  if (b.w * b.h <= 10000) {
    for (let i = 0; i < b.w * b.h; i++) {
      if (b.mines.charCodeAt(i) === MINE_CH && s.a2.cover.charCodeAt(i) !== OPEN) out.push(cellXY(b.w, i));
    }
  }
  return out;
}
