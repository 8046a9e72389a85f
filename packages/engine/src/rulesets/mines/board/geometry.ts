// The board product A2 installs (A1's output) and the pure geometry every board rule uses.
// A board is plain JSON: strings of one character per cell (row-major, index = y*w + x) keep
// even a 1000x1000 board compact and cheap to copy.

/** One installed board. A2 keeps it as a snapshot: nothing in it changes after install. */
export type Board = {
  /** Identifies the board (a fixture name, or a generator id that reproduces it). */
  id: string;
  w: number;
  h: number;
  /** Centre of the 3x3 spawn square B3; the figure starts here. */
  spawn: [number, number];
  /** One char per cell: '1' mine, '0' safe. */
  mines: string;
  /** One char per cell: '0'..'8' the true count of mined neighbours of a safe cell, '*' on a mine. */
  digits: string;
  /** Variant marks carried per cell (e.g. "fog"), sorted by cell index; read-only, never branched on. */
  variants: Array<[number, string[]]>;
};

export const MINE_CH = 49; // '1'
export const DIGIT_ZERO = 48; // '0'

export function cellIndex(w: number, x: number, y: number): number {
  return y * w + x;
}

export function cellXY(w: number, i: number): [number, number] {
  return [i % w, (i - (i % w)) / w];
}

/**
 * The 8 neighbours of cell i in row-major order (up-left, up, up-right, left, right, down-left,
 * down, down-right), skipping those off the board. Writes into `out`, returns how many.
 */
export function neighbours(w: number, h: number, i: number, out: Int32Array | number[]): number {
  const x = i % w;
  const y = (i - x) / w;
  let n = 0;
  for (let dy = -1; dy <= 1; dy++) {
    const yy = y + dy;
    if (yy < 0 || yy >= h) continue;
    for (let dx = -1; dx <= 1; dx++) {
      if (dx === 0 && dy === 0) continue;
      const xx = x + dx;
      if (xx < 0 || xx >= w) continue;
      out[n++] = yy * w + xx;
    }
  }
  return n;
}

/** Chebyshev distance 1: the 8-neighbourhood test used for dig and flag targets. */
export function isAdjacent(w: number, a: number, b: number): boolean {
  const ax = a % w;
  const bx = b % w;
  const ay = (a - ax) / w;
  const by = (b - bx) / w;
  const dx = Math.abs(ax - bx);
  const dy = Math.abs(ay - by);
  return dx <= 1 && dy <= 1 && dx + dy > 0;
}

/** The 9 cells of the spawn square, row-major. */
export function spawnCells(b: Board): number[] {
  const [sx, sy] = b.spawn;
  const out: number[] = [];
  for (let y = sy - 1; y <= sy + 1; y++) for (let x = sx - 1; x <= sx + 1; x++) out.push(y * b.w + x);
  return out;
}

/** Counts mined neighbours from the mine string: the ground truth digits are checked against. */
export function computeDigits(w: number, h: number, mines: string): string {
  const m = textToBytes(mines);
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const up = y > 0 ? (y - 1) * w : -1;
    const row = y * w;
    const down = y < h - 1 ? (y + 1) * w : -1;
    for (let x = 0; x < w; x++) {
      const i = row + x;
      if (m[i] === MINE_CH) {
        out[i] = 42; // '*'
        continue;
      }
      const xl = x > 0 ? x - 1 : x;
      const xr = x < w - 1 ? x + 1 : x;
      let c = 0;
      for (let xx = xl; xx <= xr; xx++) {
        if (up >= 0 && m[up + xx] === MINE_CH) c++;
        if (xx !== x && m[row + xx] === MINE_CH) c++;
        if (down >= 0 && m[down + xx] === MINE_CH) c++;
      }
      out[i] = DIGIT_ZERO + c;
    }
  }
  return bytesToText(out);
}

/** Variant ids of cell i (empty when unmarked). Binary search: the list is sorted by index. */
export function variantIds(b: Board, i: number): string[] {
  const v = b.variants;
  let lo = 0;
  let hi = v.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = v[mid][0];
    if (c === i) return v[mid][1].slice();
    if (c < i) lo = mid + 1;
    else hi = mid - 1;
  }
  return [];
}

export function safeCount(b: Board): number {
  let m = 0;
  for (let i = 0; i < b.mines.length; i++) if (b.mines.charCodeAt(i) === MINE_CH) m++;
  return b.w * b.h - m;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** ASCII text <-> bytes, so per-cell strings can be edited as typed arrays. */
export function textToBytes(s: string): Uint8Array {
  return encoder.encode(s);
}

export function bytesToText(b: Uint8Array): string {
  return decoder.decode(b);
}
