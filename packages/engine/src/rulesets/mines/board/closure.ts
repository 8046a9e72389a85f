// F2 and F3: the two flood closures. Both are breadth-first from their trigger, visiting the 8
// neighbours in row-major order, so the order cells open in (and events are emitted in) is fixed
// by the board alone. A cell spreads only when it is safe with true digit 0; flagged cells are
// removed from the spread set (set difference, not a special case), and a fog cell spreads or not
// purely by its digit, which the generator keeps non-zero.

import { type Board, MINE_CH, DIGIT_ZERO, textToBytes } from './geometry.ts';

/** Cover bytes: one per cell. */
export const CONCEALED = 46; // '.'
export const OPEN = 111; // 'o'
export const FLAG = 70; // 'F'

/**
 * F3: R0 = B3 plus the zero-digit closure, no extra ring, in the seed's canonical order: a BFS
 * from the trigger cell, the spawn centre (where the figure lands). Invariant 1 keeps B3
 * mine-free, so the centre is a zero cell and its 8 neighbours (the rest of B3) come next in
 * row-major order; the set is the same as seeding all of B3.
 */
export function initialDomain(b: Board): Int32Array {
  const n = b.w * b.h;
  const seen = new Uint8Array(n);
  const queue = new Int32Array(n);
  const centre = b.spawn[1] * b.w + b.spawn[0];
  seen[centre] = 1;
  queue[0] = centre;
  // install checks invariants 1 and 3 before it asks for R0, so the centre spreads to all of B3
  return spread(b, queue, 1, seen, null);
}

/**
 * F2: open `c` on the cover in place and spread from it. Returns the newly opened cells in
 * canonical order, `c` first; chain_size is the length minus one.
 */
export function chainOpen(b: Board, cover: Uint8Array, c: number): Int32Array {
  const n = b.w * b.h;
  const queue = new Int32Array(n);
  cover[c] = OPEN;
  queue[0] = c;
  return spread(b, queue, 1, cover, OPEN);
}

/**
 * How many safe cells digging `c` would open, without touching the cover (used to classify a
 * batch on its initial state: a true F2 simulation, no counter shortcut).
 */
export function chainSafeCount(b: Board, cover: Uint8Array, c: number): number {
  if (b.mines.charCodeAt(c) === MINE_CH) return 0;
  const scratch = cover.slice();
  return chainOpen(b, scratch, c).length;
}

// Shared breadth-first loop over byte copies of the board strings, neighbours inlined in
// row-major order. `mark` is either a plain seen-array (any non-zero entry blocks) or the cover
// itself (only CONCEALED cells may be taken; OPEN and FLAG block).
function spread(b: Board, queue: Int32Array, tail: number, mark: Uint8Array, coverMode: number | null): Int32Array {
  const { w, h } = b;
  const mines = textToBytes(b.mines);
  const digits = textToBytes(b.digits);
  let head = 0;
  while (head < tail) {
    const c = queue[head++];
    if (mines[c] === MINE_CH || digits[c] !== DIGIT_ZERO) continue;
    const x = c % w;
    const y = (c - x) / w;
    const x0 = x > 0 ? -1 : 0;
    const x1 = x < w - 1 ? 1 : 0;
    for (let dy = -1; dy <= 1; dy++) {
      const yy = y + dy;
      if (yy < 0 || yy >= h) continue;
      const row = yy * w + x;
      for (let dx = x0; dx <= x1; dx++) {
        if (dx === 0 && dy === 0) continue;
        const d = row + dx;
        if (mines[d] === MINE_CH) continue;
        if (coverMode === null) {
          if (mark[d]) continue;
          mark[d] = 1;
        } else {
          if (mark[d] !== CONCEALED) continue;
          mark[d] = coverMode;
        }
        queue[tail++] = d;
      }
    }
  }
  return queue.slice(0, tail);
}
