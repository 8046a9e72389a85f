// compute_move_path's one implementation: a breadth-first walk through open cells (dug mines
// included), neighbours in row-major order. A2 judges moves with it, and the web board previews
// a move's path with it from the seat's view alone (the view's rows say which cells are open),
// so the preview and the judgement cannot drift apart.

import { neighbours } from './geometry.ts';
import type { Cell } from './types.ts';

/**
 * The path from `from` to `to` as cell indexes (both ends included) through cells whose byte in
 * `cover` equals `open`; [from] when they are the same cell, [] when `to` is closed or unreachable.
 */
export function openPath(w: number, h: number, cover: Uint8Array, open: number, from: number, to: number): number[] {
  if (cover[to] !== open) return [];
  if (from === to) return [from];
  const n = w * h;
  const parent = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  const nb = new Int32Array(8);
  parent[from] = from;
  queue[0] = from;
  let head = 0;
  let tail = 1;
  while (head < tail) {
    const x = queue[head++];
    const k = neighbours(w, h, x, nb);
    for (let j = 0; j < k; j++) {
      const y = nb[j];
      if (parent[y] !== -1 || cover[y] !== open) continue;
      parent[y] = x;
      if (y === to) {
        const path = [y];
        let p = x;
        while (p !== from) {
          path.push(p);
          p = parent[p];
        }
        path.push(from);
        return path.reverse();
      }
      queue[tail++] = y;
    }
  }
  return [];
}

/** The part of a seat's view the path query reads (see view.ts for the glyphs). */
type RowsView = { w: number; h: number; rows: readonly string[]; pos: Cell | null };

/** Open glyphs of the view: a digit, '~' open fog, '*' a dug mine (walkable). */
export function isOpenGlyph(ch: string): boolean {
  return (ch >= '0' && ch <= '8') || ch === '~' || ch === '*';
}

/** compute_move_path from the view: the figure's path to `cell` through open cells; [] when none. */
export function viewMovePath(v: RowsView, cell: Cell): Cell[] {
  if (v.pos === null) return [];
  const [x, y] = cell;
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= v.w || y >= v.h) return [];
  const cover = new Uint8Array(v.w * v.h);
  for (let r = 0; r < v.h; r++) {
    const row = v.rows[r] ?? '';
    for (let c = 0; c < v.w; c++) if (isOpenGlyph(row[c] ?? '#')) cover[r * v.w + c] = 1;
  }
  const from = v.pos[1] * v.w + v.pos[0];
  return openPath(v.w, v.h, cover, 1, from, y * v.w + x).map((i): Cell => [i % v.w, (i - (i % v.w)) / v.w]);
}
