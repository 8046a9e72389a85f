// F2 and F3: the two flood closures. Both are breadth-first from their trigger, visiting the 8
// neighbours in row-major order, so the order cells open in (and events are emitted in) is fixed
// by the board alone. A cell spreads only when it is safe with true digit 0; flagged cells are
// removed from the spread set (set difference, not a special case), and a fog cell spreads or not
// purely by its digit, which the generator keeps non-zero.

import { type Board, MINE_CH, DIGIT_ZERO, neighbours, spawnCells } from './board.ts';

/** Cover bytes: one per cell. */
export const CONCEALED = 46; // '.'
export const OPEN = 111; // 'o'
export const FLAG = 70; // 'F'

/**
 * F3: R0 = B3 plus the zero-digit closure, no extra ring. Seeds are the 9 spawn cells in
 * row-major order, then breadth-first. Returns the members in that canonical order.
 */
export function initialDomain(b: Board): Int32Array {
  const n = b.w * b.h;
  const seen = new Uint8Array(n);
  const queue = new Int32Array(n);
  let tail = 0;
  for (const c of spawnCells(b)) {
    if (!seen[c]) {
      seen[c] = 1;
      queue[tail++] = c;
    }
  }
  return spread(b, queue, tail, seen, null);
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

// Shared breadth-first loop. `mark` is either a plain seen-array (mark value 1, every non-zero
// entry blocks) or the cover itself (only CONCEALED cells may be taken; OPEN and FLAG block).
function spread(b: Board, queue: Int32Array, tail: number, mark: Uint8Array, coverMode: number | null): Int32Array {
  const { w, h, mines, digits } = b;
  const nb = new Int32Array(8);
  let head = 0;
  while (head < tail) {
    const x = queue[head++];
    if (mines.charCodeAt(x) === MINE_CH || digits.charCodeAt(x) !== DIGIT_ZERO) continue;
    const k = neighbours(w, h, x, nb);
    for (let j = 0; j < k; j++) {
      const y = nb[j];
      if (mines.charCodeAt(y) === MINE_CH) continue;
      if (coverMode === null) {
        if (mark[y]) continue;
        mark[y] = 1;
      } else {
        if (mark[y] !== CONCEALED) continue;
        mark[y] = coverMode;
      }
      queue[tail++] = y;
    }
  }
  return queue.slice(0, tail);
}
