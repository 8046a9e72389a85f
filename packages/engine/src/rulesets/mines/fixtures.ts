// The registered fixture boards of the acceptance criteria, built from their coordinate-level
// specification (mines, fog, spawn). Digits are computed from the mines except where a fixture
// exists to break that (b_invalid_digit). Derivations of every registered constant are in
// rules.md ("Fixture boards"); the tests recompute them naively.

import { type Board, computeDigits } from './board/geometry.ts';

type XY = [number, number];

export function buildBoard(id: string, w: number, h: number, spawn: XY, mineCells: XY[], fog: XY[] = []): Board {
  const m = new Array<string>(w * h).fill('0');
  for (const [x, y] of mineCells) m[y * w + x] = '1';
  const mines = m.join('');
  const variants = fog.map(([x, y]) => [y * w + x, ['fog']] as [number, string[]]).sort((a, b) => a[0] - b[0]);
  return { id, w, h, spawn: [spawn[0], spawn[1]], mines, digits: computeDigits(w, h, mines), variants };
}

const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);

/** Vertical wall at x=1, gap at (1,3); spawn (3,3). */
const SPAWN_MINES: XY[] = range(0, 6)
  .filter((y) => y !== 3)
  .map((y) => [1, y] as XY);
/** Horizontal wall at y=4, gap at (3,4); spawn (3,2). */
const CHAIN_MINES: XY[] = range(0, 6)
  .filter((x) => x !== 3)
  .map((x) => [x, 4] as XY);
const FOG_MINES: XY[] = [...CHAIN_MINES, [5, 0], [6, 1]];
const FOG_CELLS: XY[] = [
  [0, 5],
  [1, 5],
  [6, 0],
];

const FIXTURES: Record<string, () => Board> = {
  b_spawn: () => buildBoard('b_spawn', 7, 7, [3, 3], SPAWN_MINES),
  b_chain: () => buildBoard('b_chain', 7, 7, [3, 2], CHAIN_MINES),
  b_fog: () => buildBoard('b_fog', 7, 7, [3, 2], FOG_MINES, FOG_CELLS),
  b_fog_bare: () => buildBoard('b_fog_bare', 7, 7, [3, 2], FOG_MINES),
  b_flag: () => buildBoard('b_flag', 7, 7, [3, 3], SPAWN_MINES),
  b_batch: () => buildBoard('b_batch', 7, 7, [3, 3], SPAWN_MINES),
  b_mine_walk: () => buildBoard('b_mine_walk', 7, 7, [3, 3], [[3, 5]]),
  b_degenerate: () => buildBoard('b_degenerate', 8, 8, [3, 3], [[7, 7]]),
  b_invalid_mine_spawn: () => buildBoard('b_invalid_mine_spawn', 7, 7, [3, 3], [...SPAWN_MINES, [3, 3]]),
  b_invalid_fog_spawn: () => buildBoard('b_invalid_fog_spawn', 7, 7, [3, 2], FOG_MINES, [...FOG_CELLS, [3, 2]]),
  b_invalid_fog_flood: () => buildBoard('b_invalid_fog_flood', 7, 7, [3, 2], FOG_MINES, [...FOG_CELLS, [5, 1]]),
  b_invalid_digit: () => {
    const b = buildBoard('b_invalid_digit', 7, 7, [3, 3], SPAWN_MINES);
    // tamper one digit: (1,3) truly has 2 mined neighbours; the product claims 1
    const i = 3 * 7 + 1;
    b.digits = b.digits.slice(0, i) + '1' + b.digits.slice(i + 1);
    return b;
  },
};

export const FIXTURE_NAMES = Object.keys(FIXTURES);

export function fixture(name: string): Board {
  const f = FIXTURES[name];
  if (f === undefined) throw new Error(`unknown fixture board "${name}" (known: ${FIXTURE_NAMES.join(', ')})`);
  return f();
}
