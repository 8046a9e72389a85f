// A2, the board-rules engine: install with the four invariants, the initial expansion, the five
// intents, batch settlement with the semantic order, and the three event kinds. It holds no
// prices, no randomness and no round state of its own: AP goes through the A3 ledger, and the
// ledger's phase is the gate for every intent.

import { ArbiterError } from '../../../kernel/index.ts';
import {
  type Board,
  MINE_CH,
  cellIndex,
  cellXY,
  computeDigits,
  isAdjacent,
  safeCount,
  spawnCells,
  textToBytes,
  bytesToText,
  variantIds,
} from './geometry.ts';
import { CONCEALED, FLAG, OPEN, chainOpen, chainSafeCount, initialDomain } from './closure.ts';
import { openPath } from './path.ts';
import { type LedgerState, lastRoundEnd, requestDig, canSpend, requestStop, trySpend } from '../ledger/ledger.ts';
import type {
  ActionOutcome,
  Cell,
  CellRevealed,
  Channel,
  Diagnostic,
  InstallResult,
  Intent,
  InvariantCategory,
  Sink,
  SubReason,
} from './types.ts';

type BoardState = 'none' | 'installed' | 'retired';

/** A2's own part of the state: the board snapshot and what has happened on it. */
export type A2State = {
  /** The installed snapshot; null in NoBoard (cold start or retired). */
  board: Board | null;
  board_state: BoardState;
  /** One char per cell: '.' concealed, 'o' open, 'F' concealed with a flag. '' without a board. */
  cover: string;
  /** Cell index of the figure; -1 without a board. */
  pos: number;
  /** F1 counter: safe cells not yet open (rem = 0 <=> cleared). */
  rem: number;
};

/** What A2 works on: its own state and the ledger it must go through. */
export type World = {
  a2: A2State;
  a3: LedgerState;
};

export function createA2(): A2State {
  return { board: null, board_state: 'none', cover: '', pos: -1, rem: 0 };
}

// ---------------------------------------------------------------------------------------------
// install / retire

/** Structural checks that are not invariants: a malformed product is a programming error. */
export function checkBoardShape(b: unknown): asserts b is Board {
  const fail = (why: string): never => {
    throw new ArbiterError('bad_config', `malformed board: ${why}`);
  };
  if (b === null || typeof b !== 'object' || Array.isArray(b)) fail('not an object');
  const o = b as Record<string, unknown>;
  const { w, h, spawn, mines, digits, variants, id } = o;
  if (typeof id !== 'string') fail('id must be a string');
  if (!Number.isInteger(w) || !Number.isInteger(h) || (w as number) < 3 || (h as number) < 3)
    fail('w and h must be integers >= 3');
  const W = w as number;
  const H = h as number;
  if (W * H > 4_000_000) fail('at most 4,000,000 cells');
  if (!Array.isArray(spawn) || spawn.length !== 2 || !spawn.every(Number.isInteger)) fail('spawn must be [x, y]');
  const [sx, sy] = spawn as number[];
  if (sx < 1 || sy < 1 || sx > W - 2 || sy > H - 2) fail('the spawn 3x3 must lie inside the board');
  if (typeof mines !== 'string' || mines.length !== W * H || !/^[01]*$/.test(mines))
    fail('mines must be w*h chars of 0/1');
  if (typeof digits !== 'string' || digits.length !== W * H || !/^[0-8*]*$/.test(digits))
    fail('digits must be w*h chars of 0-8 or *');
  const list: unknown[] = Array.isArray(variants) ? variants : fail('variants must be a list');
  let last = -1;
  for (const v of list) {
    if (!Array.isArray(v) || v.length !== 2 || !Number.isInteger(v[0]) || v[0] <= last || v[0] >= W * H)
      return fail('variants must be [cell, ids] sorted by cell');
    const ids: unknown = v[1];
    if (!Array.isArray(ids) || !ids.every((s) => typeof s === 'string')) fail('variant ids must be strings');
    last = v[0];
  }
}

/** The four invariants, fail-fast in the order 1, 2a, 3, 2b, 4 (2b and 4 need true digits). */
export function checkInvariants(b: Board): InvariantCategory | null {
  const b3 = spawnCells(b);
  for (const c of b3) if (b.mines.charCodeAt(c) === MINE_CH) return 'inv1_mine_in_spawn';
  for (const c of b3) if (variantIds(b, c).length > 0) return 'inv2a_variant_in_spawn';
  if (computeDigits(b.w, b.h, b.mines) !== b.digits) return 'inv3_digit_invariant';
  const r0 = initialDomain(b);
  for (const c of r0) if (variantIds(b, c).length > 0) return 'inv2b_variant_in_r0';
  if (r0.length === safeCount(b)) return 'inv4_r0_equals_s';
  return null;
}

/**
 * install_board: accepted in Idle/Waiting (and in Active only on the refresh path). Checks the
 * invariants before touching anything (atomic), then opens R0 for free in canonical order and
 * puts the figure on the spawn centre. Any previous board is replaced in full.
 */
export function installBoard(w: World, board: Board, sink: Sink, opts: { refresh?: boolean } = {}): InstallResult {
  if (w.a3.phase === 'Active' && !opts.refresh) {
    sink.diagnose({
      level: 'debug',
      category: 'install_in_active',
      message: 'install_board refused: a round is in progress (only the refresh path may install now)',
    });
    return { accepted: false, reject_reason: 'phase', category: null };
  }
  checkBoardShape(board);
  const category = checkInvariants(board);
  if (category !== null) {
    sink.diagnose({ level: 'error', category, message: `board ${board.id} violates ${category}` });
    return { accepted: false, reject_reason: 'board_invalid', category };
  }
  const snap: Board = {
    id: board.id,
    w: board.w,
    h: board.h,
    spawn: [board.spawn[0], board.spawn[1]],
    mines: board.mines,
    digits: board.digits,
    variants: board.variants.map(([c, ids]) => [c, ids.slice()] as [number, string[]]),
  };
  const cover = new Uint8Array(snap.w * snap.h).fill(CONCEALED);
  const r0 = initialDomain(snap);
  for (const c of r0) cover[c] = OPEN;
  for (const c of r0) sink.emit(revealed(snap, c, 'initial'), 'a2');
  w.a2.board = snap;
  w.a2.board_state = 'installed';
  w.a2.cover = bytesToText(cover);
  w.a2.pos = cellIndex(snap.w, snap.spawn[0], snap.spawn[1]);
  w.a2.rem = safeCount(snap) - r0.length;
  return { accepted: true, reject_reason: null, category: null };
}

/** retire_board: idempotent without a board, refused while a round is Active, else the board goes. */
export function retireBoard(w: World, sink: Sink): { accepted: boolean; reject_reason: 'phase' | null } {
  if (w.a2.board === null) return { accepted: true, reject_reason: null };
  if (w.a3.phase === 'Active') {
    sink.diagnose({
      level: 'debug',
      category: 'retire_in_active',
      message: 'retire_board refused: a round is in progress',
    });
    return { accepted: false, reject_reason: 'phase' };
  }
  dropBoard(w);
  return { accepted: true, reject_reason: null };
}

/** The refresh path's retire (B1 has already paid): the board goes even inside an Active round. */
export function dropBoard(w: World): void {
  w.a2.board = null;
  w.a2.board_state = 'retired';
  w.a2.cover = '';
  w.a2.pos = -1;
  w.a2.rem = 0;
}

// ---------------------------------------------------------------------------------------------
// intents

/** F1, the one clear predicate (also what clears_map reports). */
function isCleared(a2: A2State): boolean {
  return a2.board !== null && a2.rem === 0;
}

/** Only the intents of a known type with an in-range integer cell are in the catalogue. */
function targetOf(b: Board, it: Intent): number | null {
  if (it.type === 'stop') return null;
  const c: unknown = it.cell;
  if (!Array.isArray(c) || c.length !== 2) return null;
  const [x, y]: unknown[] = c;
  if (!Number.isInteger(x) || !Number.isInteger(y)) return null;
  if ((x as number) < 0 || (y as number) < 0 || (x as number) >= b.w || (y as number) >= b.h) return null;
  return cellIndex(b.w, x as number, y as number);
}

function inCatalog(it: unknown): it is Intent {
  if (it === null || typeof it !== 'object' || Array.isArray(it)) return false;
  const t = (it as { type?: unknown }).type;
  return t === 'dig' || t === 'flag_place' || t === 'flag_pull' || t === 'move' || t === 'stop';
}

/** The board-face check of one intent against a cover; null when it passes. */
function boardFaceCheck(b: Board, cover: Uint8Array, pos: number, it: Intent): SubReason | null {
  if (it.type === 'stop') return null;
  const c = targetOf(b, it);
  if (c === null) return 'out_of_catalog';
  const st = cover[c];
  switch (it.type) {
    case 'dig':
      if (!isAdjacent(b.w, pos, c)) return 'not_adjacent';
      if (st === OPEN) return 'target_revealed';
      if (st === FLAG) return 'flag_present';
      return null;
    case 'flag_place':
      if (!isAdjacent(b.w, pos, c)) return 'not_adjacent';
      if (st === OPEN) return 'target_revealed';
      if (st === FLAG) return 'flag_present';
      return null;
    case 'flag_pull':
      if (!isAdjacent(b.w, pos, c)) return 'not_adjacent';
      if (st !== FLAG) return 'flag_absent';
      return null;
    case 'move':
      if (st !== OPEN) return 'target_concealed';
      if (c === pos) return null; // zero move, accepted as a no-op (EC14)
      return movePath(b, cover, pos, c).length === 0 ? 'no_path' : null;
  }
}

/** A2's move path: the shared breadth-first walk (board/path.ts) over this board's cover. */
function movePath(b: Board, cover: Uint8Array, from: number, to: number): number[] {
  return openPath(b.w, b.h, cover, OPEN, from, to);
}

/** compute_move_path: read-only path preview from the figure to `cell`; [] when unreachable. */
export function computeMovePath(w: World, cell: Cell): Cell[] {
  const b = w.a2.board;
  if (b === null) return [];
  const c = targetOf(b, { type: 'move', cell });
  if (c === null) return [];
  return movePath(b, textToBytes(w.a2.cover), w.a2.pos, c).map((i) => cellXY(b.w, i));
}

function revealed(b: Board, c: number, channel: Channel): CellRevealed {
  const cell = cellXY(b.w, c);
  const ids = b.variants.length === 0 ? [] : variantIds(b, c);
  // two literal shapes (safe with digit, mine without) keep event construction cheap
  if (b.mines.charCodeAt(c) === MINE_CH) {
    return { type: 'cell_revealed', cell, kind: 'mine', variant_ids: ids, channel, reward_eligible: false };
  }
  return {
    type: 'cell_revealed',
    cell,
    kind: 'safe',
    digit: b.digits.charCodeAt(c) - 48,
    variant_ids: ids,
    channel,
    reward_eligible: channel !== 'initial',
  };
}

const EXECUTED: ActionOutcome = { accepted: true, outcome: 'executed', reject_reason: null, sub_reason: null };
const VOIDED: ActionOutcome = { accepted: false, outcome: 'voided', reject_reason: null, sub_reason: null };
function refused(reason: 'board_face' | 'resource_face' | 'phase', sub: SubReason | null = null): ActionOutcome {
  return {
    accepted: false,
    outcome: 'rejected',
    reject_reason: reason,
    sub_reason: reason === 'board_face' ? sub : null,
  };
}

/** Semantic classes: 0 = C_dig (a dig that would clear), 1 = C_stop, 2 = C_other. */
function classify(b: Board, cover: Uint8Array, pos: number, rem: number, it: Intent): number {
  if (it.type === 'stop') return 1;
  if (it.type !== 'dig') return 2;
  if (boardFaceCheck(b, cover, pos, it) !== null) return 2;
  const c = targetOf(b, it);
  if (c === null) return 2;
  return chainSafeCount(b, cover, c) === rem ? 0 : 2;
}

/**
 * settle_batch: the one settlement entry. Intents are re-ordered C_dig < C_stop < C_other
 * (stable), executed one by one; the first round end decides and every later intent is voided
 * (no board change, no AP, no event). Outcomes come back in arrival order.
 */
export function settleBatch(w: World, intents: readonly unknown[], sink: Sink): ActionOutcome[] {
  const out: ActionOutcome[] = new Array(intents.length);
  const b = w.a2.board;
  if (b === null || w.a3.phase !== 'Active') {
    for (let i = 0; i < intents.length; i++) out[i] = refused('phase');
    return out;
  }
  const cover = textToBytes(w.a2.cover);
  // a one-intent batch has nothing to re-order, so it skips the classifying simulation
  const cls =
    intents.length < 2 ? [2] : intents.map((it) => (inCatalog(it) ? classify(b, cover, w.a2.pos, w.a2.rem, it) : 2));
  const order = intents.map((_, i) => i).sort((p, q) => cls[p] - cls[q] || p - q);
  let ended = false;
  let dirty = false;
  for (const i of order) {
    if (ended) {
      out[i] = VOIDED;
      continue;
    }
    const it = intents[i];
    if (!inCatalog(it)) {
      sink.diagnose(outOfCatalog(it, 'intent outside the catalogue'));
      out[i] = refused('board_face', 'out_of_catalog');
      continue;
    }
    const r = execute(w, b, cover, it, sink);
    out[i] = r.outcome;
    dirty ||= r.dirty;
    if (r.outcome.outcome === 'executed' && w.a3.phase !== 'Active') ended = true;
  }
  if (dirty) w.a2.cover = bytesToText(cover);
  return out;
}

function describe(v: unknown): string {
  try {
    return JSON.stringify(v)?.slice(0, 120) ?? String(v);
  } catch {
    return String(v);
  }
}

/** A debug diagnostic for input outside the catalogue (EC9: reported, never swallowed). */
function outOfCatalog(it: unknown, what: string): Diagnostic {
  return { level: 'debug', category: 'out_of_catalog', message: `${what}: ${describe(it)}` };
}

type Refusal = { outcome: ActionOutcome; diagnostic: Diagnostic | null };

/** The board-face check, then whether the ledger would pay: one implementation for settle and check. */
function refusal(w: World, b: Board, cover: Uint8Array, it: Intent): Refusal | null {
  const sub = boardFaceCheck(b, cover, w.a2.pos, it);
  if (sub !== null)
    return {
      outcome: refused('board_face', sub),
      diagnostic: sub === 'out_of_catalog' ? outOfCatalog(it, 'target outside the board') : null,
    };
  if (it.type !== 'stop' && it.type !== 'move' && !canSpend(w.a3, it.type))
    return { outcome: refused('resource_face'), diagnostic: null };
  return null;
}

/**
 * What settle_batch would answer for `it` if it were the first intent to run on the current
 * state, found without changing anything (no AP spent, no cell opened). A batch executes some
 * intent exactly when one of its intents passes this check, since refused intents change
 * nothing; the ruleset's validate relies on that instead of a dry run.
 */
export function checkIntent(w: World, it: unknown): Refusal | null {
  const b = w.a2.board;
  if (b === null || w.a3.phase !== 'Active') return { outcome: refused('phase'), diagnostic: null };
  if (!inCatalog(it))
    return {
      outcome: refused('board_face', 'out_of_catalog'),
      diagnostic: outOfCatalog(it, 'intent outside the catalogue'),
    };
  return refusal(w, b, textToBytes(w.a2.cover), it);
}

function execute(
  w: World,
  b: Board,
  cover: Uint8Array,
  it: Intent,
  sink: Sink,
): { outcome: ActionOutcome; dirty: boolean } {
  const no = refusal(w, b, cover, it);
  if (no !== null) {
    if (no.diagnostic !== null) sink.diagnose(no.diagnostic);
    return { outcome: no.outcome, dirty: false };
  }
  if (it.type === 'stop') {
    judgeFlags(b, cover, sink);
    requestStop(w.a3, (e) => sink.emit(e, 'a3'));
    return { outcome: EXECUTED, dirty: false };
  }
  const c = targetOf(b, it);
  if (c === null) return { outcome: refused('board_face', 'out_of_catalog'), dirty: false };
  if (it.type === 'move') {
    w.a2.pos = c;
    return { outcome: EXECUTED, dirty: false };
  }
  if (!trySpend(w.a3, it.type)) return { outcome: refused('resource_face'), dirty: false };
  if (it.type === 'flag_place') cover[c] = FLAG;
  else if (it.type === 'flag_pull') cover[c] = CONCEALED;
  else {
    const opened = chainOpen(b, cover, c);
    const channel: Channel = opened.length > 1 ? 'chain' : 'dig';
    let safeOpened = 0;
    for (const x of opened) {
      if (b.mines.charCodeAt(x) !== MINE_CH) safeOpened++;
      sink.emit(revealed(b, x, channel), 'a2');
    }
    w.a2.rem -= safeOpened;
    requestDig(w.a3, opened.length - 1, isCleared(w.a2));
  }
  if (w.a3.phase !== 'Active') closeRoundOnBoardPath(w, b, cover, sink);
  return { outcome: EXECUTED, dirty: true };
}

/** Board-path round end: every flag judged (row-major), then exactly one round_end from A3's record. */
function closeRoundOnBoardPath(w: World, b: Board, cover: Uint8Array, sink: Sink): void {
  judgeFlags(b, cover, sink);
  const rec = lastRoundEnd(w.a3);
  if (rec === null) return;
  sink.emit({ type: 'round_end', path_tag: rec.path_tag, continuation_hint: rec.continuation_hint }, 'a2');
}

function judgeFlags(b: Board, cover: Uint8Array, sink: Sink): void {
  for (let i = 0; i < cover.length; i++) {
    if (cover[i] === FLAG)
      sink.emit({ type: 'flag_judged', cell: cellXY(b.w, i), hit: b.mines.charCodeAt(i) === MINE_CH }, 'a2');
  }
}

/** The convenience forms: each is exactly the one-intent batch. */
export function tryDig(w: World, cell: Cell, sink: Sink): ActionOutcome {
  return settleBatch(w, [{ type: 'dig', cell }], sink)[0];
}
export function tryFlagPlace(w: World, cell: Cell, sink: Sink): ActionOutcome {
  return settleBatch(w, [{ type: 'flag_place', cell }], sink)[0];
}
export function tryFlagPull(w: World, cell: Cell, sink: Sink): ActionOutcome {
  return settleBatch(w, [{ type: 'flag_pull', cell }], sink)[0];
}
export function tryMove(w: World, cell: Cell, sink: Sink): ActionOutcome {
  return settleBatch(w, [{ type: 'move', cell }], sink)[0];
}
export function tryStop(w: World, sink: Sink): ActionOutcome {
  return settleBatch(w, [{ type: 'stop' }], sink)[0];
}
