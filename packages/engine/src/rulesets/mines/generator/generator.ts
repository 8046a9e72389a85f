// A1's role: a seeded board generator. A board is a pure function of (parameters, seed), and its
// id names both, so the id alone reproduces the board. Every emitted board passes install: no
// mine in the spawn 3x3, true digits, R0 != S, and fog only on safe non-zero cells outside B3 and
// R0. With no_guess the generator only emits boards the deduction solver clears from R0.

import { createRng, nextInt, type RngState } from '../../../kernel/index.ts';
import { type Board, computeDigits, MINE_CH, DIGIT_ZERO, spawnCells } from '../board/geometry.ts';
import { initialDomain } from '../board/closure.ts';
import { repairForNoGuess } from './nog.ts';
import { gridFromBoard } from './solver.ts';

export type GenParams = {
  width: number;
  height: number;
  mines: number;
  fog: number;
  /** Spawn centre [x, y]; default the board centre. */
  spawn?: [number, number];
  no_guess?: boolean;
};

export class GenError extends Error {}

const GEN_LIMITS = { minSide: 4, maxSide: 2000, maxCells: 4_000_000 };

/** Checks the parameters and fills the defaults; throws GenError with a clear message. */
export function normaliseParams(p: Partial<GenParams>): Required<GenParams> {
  const int = (name: string, v: unknown, lo: number, hi: number): number => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
      throw new GenError(`${name} must be an integer from ${lo} to ${hi} (got ${JSON.stringify(v)})`);
    }
    return v;
  };
  const width = int('width', p.width, GEN_LIMITS.minSide, GEN_LIMITS.maxSide);
  const height = int('height', p.height, GEN_LIMITS.minSide, GEN_LIMITS.maxSide);
  if (width * height > GEN_LIMITS.maxCells)
    throw new GenError(`width x height must be at most ${GEN_LIMITS.maxCells} cells`);
  // 9 spawn cells stay clear, and at least one safe cell must lie outside R0 (R0 != S)
  const mines = int('mines', p.mines, 1, width * height - 10);
  const fog = int('fog', p.fog ?? 0, 0, width * height - mines - 10);
  let spawn: [number, number];
  if (p.spawn === undefined) spawn = [Math.floor(width / 2), Math.floor(height / 2)];
  else {
    if (!Array.isArray(p.spawn) || p.spawn.length !== 2) throw new GenError('spawn must be [x, y]');
    spawn = [int('spawn x', p.spawn[0], 1, width - 2), int('spawn y', p.spawn[1], 1, height - 2)];
  }
  const no_guess = p.no_guess ?? false;
  if (typeof no_guess !== 'boolean') throw new GenError('no_guess must be true or false');
  return { width, height, mines, fog, spawn, no_guess };
}

/** g1-WxH-mM-fF-sX.Y-SEED[-ng]: everything generate() needs. */
export function boardId(p: Required<GenParams>, seed: number): string {
  return `g1-${p.width}x${p.height}-m${p.mines}-f${p.fog}-s${p.spawn[0]}.${p.spawn[1]}-${seed}${p.no_guess ? '-ng' : ''}`;
}

export function parseBoardId(id: string): { params: Required<GenParams>; seed: number } {
  const m = /^g1-(\d+)x(\d+)-m(\d+)-f(\d+)-s(\d+)\.(\d+)-(\d+)(-ng)?$/.exec(id);
  if (!m) throw new GenError(`"${id}" is not a generator board id (g1-WxH-mM-fF-sX.Y-SEED[-ng])`);
  const n = m.slice(1, 8).map(Number);
  const params = normaliseParams({
    width: n[0],
    height: n[1],
    mines: n[2],
    fog: n[3],
    spawn: [n[4], n[5]],
    no_guess: m[8] !== undefined,
  });
  if (n[6] > 0xffffffff) throw new GenError('seed must be at most 4294967295');
  return { params, seed: n[6] };
}

const MAX_ATTEMPTS = 200;

/** The generator: (parameters, seed) -> board. Throws GenError if no legal board is found. */
export function generate(raw: Partial<GenParams>, seed: number): Board {
  const p = normaliseParams(raw);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new GenError('seed must be an integer from 0 to 4294967295');
  const rng = createRng(seed);
  const { width: w, height: h } = p;
  const n = w * h;
  const spawn = new Uint8Array(n);
  for (const c of spawnCells({ w, h, spawn: p.spawn } as Board)) spawn[c] = 1;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const mines = placeMines(rng, n, spawn, p.mines);
    let board = assemble(boardId(p, seed), p, mines);
    const safe = n - p.mines;
    let r0 = initialDomain(board);
    if (r0.length === safe) continue; // R0 = S: the degenerate board install refuses
    const fog = pickFog(rng, board, r0, spawn, p.fog);
    if (fog === null) continue;
    board.variants = fog.map((c) => [c, ['fog']] as [number, string[]]);
    if (!p.no_guess) return board;
    // fog is fixed first (it hides digits and marks safe cells, so it changes what is solvable)
    const g = gridFromBoard(board);
    if (!repairForNoGuess(g, rng)) continue;
    board = assemble(board.id, p, g.mines);
    board.variants = fog.map((c) => [c, ['fog']] as [number, string[]]);
    r0 = initialDomain(board);
    if (r0.length === safe || !fogStillLegal(board, r0)) continue;
    return board;
  }
  throw new GenError(
    `no legal board found in ${MAX_ATTEMPTS} attempts for ${boardId(p, seed)} (too many mines or fog cells for this size?)`,
  );
}

function placeMines(rng: RngState, n: number, spawn: Uint8Array, count: number): Uint8Array {
  const cand = new Int32Array(n - 9);
  let k = 0;
  for (let i = 0; i < n; i++) if (!spawn[i]) cand[k++] = i;
  if (count > k) throw new GenError(`${count} mines do not fit outside the spawn square`);
  // partial Fisher–Yates: the first `count` slots become the mines
  const out = new Uint8Array(n);
  for (let i = 0; i < count; i++) {
    const j = i + nextInt(rng, 'mines', k - i);
    const t = cand[i];
    cand[i] = cand[j];
    cand[j] = t;
    out[cand[i]] = 1;
  }
  return out;
}

function assemble(id: string, p: Required<GenParams>, mines: Uint8Array): Board {
  const chars = new Uint8Array(mines.length);
  for (let i = 0; i < mines.length; i++) chars[i] = mines[i] ? MINE_CH : DIGIT_ZERO;
  const ms = new TextDecoder().decode(chars);
  return {
    id,
    w: p.width,
    h: p.height,
    spawn: [p.spawn[0], p.spawn[1]],
    mines: ms,
    digits: computeDigits(p.width, p.height, ms),
    variants: [],
  };
}

function pickFog(rng: RngState, b: Board, r0: Int32Array, spawn: Uint8Array, count: number): number[] | null {
  if (count === 0) return [];
  const n = b.w * b.h;
  const excluded = new Uint8Array(n);
  for (const c of r0) excluded[c] = 1;
  const cand: number[] = [];
  for (let i = 0; i < n; i++) {
    if (excluded[i] || spawn[i] || b.mines.charCodeAt(i) === MINE_CH || b.digits.charCodeAt(i) === DIGIT_ZERO) continue;
    cand.push(i);
  }
  if (cand.length < count) return null;
  for (let i = 0; i < count; i++) {
    const j = i + nextInt(rng, 'fog', cand.length - i);
    const t = cand[i];
    cand[i] = cand[j];
    cand[j] = t;
  }
  return cand.slice(0, count).sort((a, c) => a - c);
}

/** After repairs moved mines: fog still on safe non-zero cells outside R0. */
function fogStillLegal(b: Board, r0: Int32Array): boolean {
  const inR0 = new Set(r0);
  for (const [c] of b.variants) {
    if (inR0.has(c) || b.mines.charCodeAt(c) === MINE_CH || b.digits.charCodeAt(c) === DIGIT_ZERO) return false;
  }
  return true;
}
