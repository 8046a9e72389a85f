// The deduction solver of the generator (A1 role). It plays a board the way a careful player
// can under this game's rules: it starts from R0, sees the digits of opened cells except opened
// fog (which shows no number), knows concealed fog is safe, knows the total mine count, and
// digs only cells next to the open region (the figure walks through open cells, so every
// concealed cell that touches an open cell is diggable). It never guesses.
//
// Deductions: per-cell (reduced value 0 => all safe, = unknowns => all mines), pairs of nearby
// constraints with overlapping cell sets (bounds on the mines in the overlap), the global
// count, and (enumeration mode) local enumeration plus the global count across frontier
// components. With a repair hook it moves mines when stuck (the no-guess generator, see nog.ts).
// Head to head with Simon Tatham's solver: rules.md, "Solver strength against Tatham's".

import type { Board } from '../board/geometry.ts';

const UNKNOWN = 0;
const OPEN = 1;
const MINE = 2;
const PENDING = 3; // known safe, not yet dug (no open neighbour yet)
const WALK = 4; // a known mine the figure dug open to walk through (reaches enclosed safe cells)

type SolveResult = {
  cleared: boolean;
  /** Safe cells opened, R0 included. */
  opened: number;
  r0: number;
  safe: number;
  /** Share of the safe cells outside R0 the solver opened without a guess (1 = cleared). */
  rate: number;
  repairs: number;
};

/** A mutable board in typed arrays, shared by the solver and the repair step. */
export type Grid = {
  w: number;
  h: number;
  n: number;
  mines: Uint8Array;
  digit: Uint8Array;
  fog: Uint8Array;
  spawn: Uint8Array;
  mineCount: number;
};

export function gridFromBoard(b: Board): Grid {
  const n = b.w * b.h;
  const mines = new Uint8Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) if (b.mines.charCodeAt(i) === 49) (mines[i] = 1), m++;
  const fog = new Uint8Array(n);
  for (const [c, ids] of b.variants) if (ids.includes('fog')) fog[c] = 1;
  const spawn = new Uint8Array(n);
  for (let y = b.spawn[1] - 1; y <= b.spawn[1] + 1; y++)
    for (let x = b.spawn[0] - 1; x <= b.spawn[0] + 1; x++) spawn[y * b.w + x] = 1;
  const g: Grid = { w: b.w, h: b.h, n, mines, digit: new Uint8Array(n), fog, spawn, mineCount: m };
  recomputeDigits(g);
  return g;
}

function recomputeDigits(g: Grid): void {
  const { w, h, mines, digit } = g;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let c = 0;
      for (let yy = y - 1; yy <= y + 1; yy++) {
        if (yy < 0 || yy >= h) continue;
        for (let xx = x - 1; xx <= x + 1; xx++) if (xx >= 0 && xx < w && mines[yy * w + xx]) c++;
      }
      digit[y * w + x] = c - mines[y * w + x];
    }
  }
}

/** Adjust digits around cell i after its mine flag changed by `delta` (+1 / -1). */
export function bumpDigits(g: Grid, i: number, delta: number): void {
  const x = i % g.w;
  const y = (i - x) / g.w;
  for (let yy = y - 1; yy <= y + 1; yy++) {
    if (yy < 0 || yy >= g.h) continue;
    for (let xx = x - 1; xx <= x + 1; xx++)
      if (xx >= 0 && xx < g.w && (xx !== x || yy !== y)) g.digit[yy * g.w + xx] += delta;
  }
}

/** A connected part of the frontier: its cells, the open constraints on them, its mine range. */
interface Component {
  cells: number[];
  val: number[];
  /** Per constraint, the indices (into cells) of its unknown cells; all lie in the component. */
  members: number[][];
  byCell: number[][];
  lo: number;
  hi: number;
}

/** When stuck, the repair hook may change the grid near `cell` (an open constraint cell) and report the changed cells. */
type RepairHook = (s: Solver, cell: number) => number[] | null;

export class Solver {
  readonly g: Grid;
  readonly st: Uint8Array;
  private readonly queue: Int32Array;
  private readonly queued: Uint8Array;
  private qHead = 0;
  private qLen = 0;
  /** Open non-fog cells that may still have unknown neighbours (lazy). */
  private active: number[] = [];
  knownMines = 0;
  openedSafe = 0;
  /** Known-safe cells waiting for an open (or walked) neighbour. */
  pending = 0;
  unknownCells: number;
  r0 = 0;
  private readonly nb2 = new Int32Array(8);
  /** 1 = local enumeration around this constraint found nothing since it last changed. */
  private readonly tried: Uint8Array;
  /** Largest unknown set the local enumeration works on, and its search budget. */
  enumCells = 14;
  enumNodes = 40_000;
  /**
   * Classic minesweeper digging: a known-safe cell is dug at once even with no open neighbour
   * (no movement rule). Off in this game; on only to compare with classic solvers.
   */
  freeDig = false;

  constructor(g: Grid) {
    this.g = g;
    this.st = new Uint8Array(g.n);
    this.queue = new Int32Array(g.n);
    this.queued = new Uint8Array(g.n);
    this.tried = new Uint8Array(g.n);
    this.unknownCells = g.n;
  }

  neighbours(i: number, out: Int32Array): number {
    const { w, h } = this.g;
    const x = i % w;
    const y = (i - x) / w;
    let k = 0;
    for (let yy = y - 1; yy <= y + 1; yy++) {
      if (yy < 0 || yy >= h) continue;
      for (let xx = x - 1; xx <= x + 1; xx++) if (xx >= 0 && xx < w && (xx !== x || yy !== y)) out[k++] = yy * w + xx;
    }
    return k;
  }

  push(i: number): void {
    this.tried[i] = 0;
    if (this.queued[i]) return;
    this.queued[i] = 1;
    let t = this.qHead + this.qLen;
    if (t >= this.queue.length) t -= this.queue.length;
    this.queue[t] = i;
    this.qLen++;
  }

  private pop(): number {
    const i = this.queue[this.qHead];
    this.qHead++;
    if (this.qHead === this.queue.length) this.qHead = 0;
    this.qLen--;
    this.queued[i] = 0;
    return i;
  }

  /** Open R0 (spawn 3x3 + zero closure), then mark concealed fog as known safe. */
  start(): void {
    const g = this.g;
    for (let i = 0; i < g.n; i++) if (g.spawn[i]) this.dig(i);
    this.r0 = this.openedSafe;
    for (let i = 0; i < g.n; i++) {
      if (!g.fog[i] || this.st[i] !== UNKNOWN) continue;
      this.st[i] = PENDING;
      this.unknownCells--;
      this.pending++;
    }
    for (let i = 0; i < g.n; i++) if (g.fog[i] && this.st[i] === PENDING) this.tryPending(i);
  }

  /** Open a safe cell and its zero closure; dirty everything whose constraint changed. */
  dig(c: number): void {
    const g = this.g;
    const st = this.st;
    if (st[c] === OPEN) return;
    const stack = [c];
    if (st[c] === UNKNOWN) this.unknownCells--;
    else if (st[c] === PENDING) this.pending--;
    st[c] = OPEN;
    while (stack.length) {
      const x = stack.pop() as number;
      this.openedSafe++;
      if (!g.fog[x]) {
        this.push(x);
        this.active.push(x);
      }
      const k = this.neighbours(x, this.nb2);
      const zero = g.digit[x] === 0 && !g.mines[x];
      for (let j = 0; j < k; j++) {
        const y = this.nb2[j];
        const sy = st[y];
        if (sy === OPEN) {
          if (!g.fog[y]) this.push(y);
          continue;
        }
        // zero cells open their neighbours; pending-safe neighbours become diggable now
        if ((zero && sy !== MINE && sy !== WALK) || sy === PENDING) {
          if (sy === UNKNOWN) this.unknownCells--;
          else this.pending--;
          st[y] = OPEN;
          stack.push(y);
        }
      }
    }
  }

  markMine(c: number): void {
    if (this.st[c] !== UNKNOWN) return;
    this.st[c] = MINE;
    this.unknownCells--;
    this.knownMines++;
    const k = this.neighbours(c, this.nb2);
    for (let j = 0; j < k; j++) if (this.st[this.nb2[j]] === OPEN && !this.g.fog[this.nb2[j]]) this.push(this.nb2[j]);
  }

  markSafe(c: number): void {
    if (this.st[c] !== UNKNOWN) return;
    if (this.freeDig) {
      this.dig(c);
      return;
    }
    const k = this.neighbours(c, this.nb2);
    for (let j = 0; j < k; j++) {
      const t = this.st[this.nb2[j]];
      if (t === OPEN || t === WALK) {
        this.dig(c);
        return;
      }
    }
    this.st[c] = PENDING;
    this.unknownCells--;
    this.pending++;
  }

  /** Unknown neighbours of open cell a into `out`; returns [count, reduced value]. */
  private constraint(a: number, out: Int32Array): [number, number] {
    const k = this.neighbours(a, this.nb2);
    let u = 0;
    let v = this.g.digit[a];
    for (let j = 0; j < k; j++) {
      const y = this.nb2[j];
      if (this.st[y] === UNKNOWN) out[u++] = y;
      else if (this.st[y] === MINE || this.st[y] === WALK) v--;
    }
    return [u, v];
  }

  /** Run deductions until stuck or done. Returns true when every safe cell is open. */
  run(repair: RepairHook | null = null): boolean {
    const g = this.g;
    const safe = g.n - g.mineCount;
    const ua = new Int32Array(8);
    const ub = new Int32Array(8);
    for (;;) {
      while (this.qLen > 0) {
        const a = this.pop();
        if (this.st[a] !== OPEN || g.fog[a]) continue;
        const [na, va] = this.constraint(a, ua);
        if (na === 0) continue;
        if (va === 0) {
          for (let j = 0; j < na; j++) this.markSafe(ua[j]);
          continue;
        }
        if (va === na) {
          for (let j = 0; j < na; j++) this.markMine(ua[j]);
          continue;
        }
        this.pairs(a, ua, na, va, ub);
      }
      if (this.openedSafe === safe) return true;
      if (this.globalRule()) continue;
      if (this.pending > 0 && this.walkToPending()) continue;
      if (this.enumCells > 0 && this.enumerate()) continue;
      if (this.enumCells > 0 && this.globalComponents()) continue;
      if (repair === null) return false;
      const cell = this.pickStuck();
      if (cell < 0) return false;
      const changed = repair(this, cell);
      if (changed === null) return false;
      for (const c of changed) {
        const k = this.neighbours(c, this.nb2);
        for (let j = 0; j < k; j++) if (this.st[this.nb2[j]] === OPEN && !g.fog[this.nb2[j]]) this.push(this.nb2[j]);
      }
      this.push(cell);
    }
  }

  // Pair deduction with every open constraint cell b within distance 2 of a.
  private pairs(a: number, ua: Int32Array, na: number, va: number, ub: Int32Array): void {
    const { w, h } = this.g;
    const ax = a % w;
    const ay = (a - ax) / w;
    for (let by = ay - 2; by <= ay + 2; by++) {
      if (by < 0 || by >= h) continue;
      for (let bx = ax - 2; bx <= ax + 2; bx++) {
        if (bx < 0 || bx >= w || (bx === ax && by === ay)) continue;
        const b = by * w + bx;
        if (this.st[b] !== OPEN || this.g.fog[b]) continue;
        const [nb, vb] = this.constraint(b, ub);
        if (nb === 0) continue;
        // overlap = cells of a's set within distance 1 of b
        let both = 0;
        for (let j = 0; j < na; j++) {
          const c = ua[j];
          const cx = c % w;
          const cy = (c - cx) / w;
          if (Math.abs(cx - bx) <= 1 && Math.abs(cy - by) <= 1) both++;
        }
        if (both === 0) continue;
        const onlyA = na - both;
        const onlyB = nb - both;
        const maxBoth = Math.min(both, va, vb);
        const minBoth = Math.max(0, va - onlyA, vb - onlyB);
        let progressed = false;
        // b's private cells
        if (onlyB > 0) {
          if (vb - minBoth === 0) progressed = this.markOutside(ub, nb, ax, ay, false) || progressed;
          else if (vb - maxBoth === onlyB) progressed = this.markOutside(ub, nb, ax, ay, true) || progressed;
        }
        if (onlyA > 0) {
          if (va - minBoth === 0) progressed = this.markOutside(ua, na, bx, by, false) || progressed;
          else if (va - maxBoth === onlyA) progressed = this.markOutside(ua, na, bx, by, true) || progressed;
        }
        if (progressed) return;
      }
    }
  }

  /** Mark the cells of `set` NOT within distance 1 of (ox, oy) as mines or safe. */
  private markOutside(set: Int32Array, n: number, ox: number, oy: number, mine: boolean): boolean {
    const w = this.g.w;
    const cells: number[] = [];
    for (let j = 0; j < n; j++) {
      const c = set[j];
      const cx = c % w;
      const cy = (c - cx) / w;
      if (Math.abs(cx - ox) > 1 || Math.abs(cy - oy) > 1) cells.push(c);
    }
    for (const c of cells) mine ? this.markMine(c) : this.markSafe(c);
    return cells.length > 0;
  }

  // Known total: no mines left => every unknown is safe; as many mines as unknowns => all mines.
  private globalRule(): boolean {
    const left = this.g.mineCount - this.knownMines;
    if (this.unknownCells === 0) return false;
    if (left !== 0 && left !== this.unknownCells) return false;
    for (let i = 0; i < this.g.n; i++) {
      if (this.st[i] !== UNKNOWN) continue;
      if (left === 0) this.markSafe(i);
      else this.markMine(i);
    }
    // pending cells with no open neighbour get dug as the region grows; re-scan once
    for (let i = 0; i < this.g.n; i++) if (this.st[i] === PENDING) this.tryPending(i);
    return true;
  }

  private tryPending(i: number): void {
    const k = this.neighbours(i, this.nb2);
    for (let j = 0; j < k; j++) {
      const t = this.st[this.nb2[j]];
      if (t === OPEN || t === WALK) {
        this.dig(i);
        return;
      }
    }
  }

  /**
   * Known-safe cells with no open neighbour may sit behind known mines: the figure can dig a
   * known mine next to the open region (dug mines are walkable) and reach them. No guess.
   */
  private walkToPending(): boolean {
    const nb = new Int32Array(8);
    const nb3 = new Int32Array(8);
    let progress = false;
    for (let i = 0; i < this.g.n; i++) {
      if (this.st[i] !== PENDING) continue;
      const k = this.neighbours(i, nb);
      for (let j = 0; j < k && this.st[i] === PENDING; j++) {
        const m = nb[j];
        if (this.st[m] !== MINE && this.st[m] !== WALK) continue;
        const k3 = this.neighbours(m, nb3);
        for (let q = 0; q < k3; q++) {
          const t = this.st[nb3[q]];
          if (t === OPEN || t === WALK) {
            this.st[m] = WALK;
            this.dig(i);
            progress = true;
            break;
          }
        }
      }
    }
    return progress;
  }

  // Local exhaustive reasoning: around a stuck constraint, gather up to enumCells unknown cells
  // and the constraints touching them, enumerate every consistent mine assignment (constraints
  // reaching outside the set are only bounded), and fix the cells that agree in all of them.
  private enumerate(): boolean {
    const act = this.active;
    const scratch = new Int32Array(8);
    // the global count bounds an enumeration (total <= left, left - total <= unknowns outside)
    // only when left < enumCells or unknowns - left < enumCells; then a change in either
    // count can make a constraint tried before succeed now, so every one is tried again
    const left = this.g.mineCount - this.knownMines;
    const key = this.knownMines * (this.g.n + 1) + this.unknownCells;
    if (key !== this.enumKey && (left < this.enumCells || this.unknownCells - left < this.enumCells))
      this.tried.fill(0);
    this.enumKey = key;
    for (let j = 0; j < act.length; j++) {
      const a = act[j];
      if (this.tried[a] || this.st[a] !== OPEN) continue;
      this.tried[a] = 1;
      if (this.constraint(a, scratch)[0] === 0) continue;
      if (this.enumerateAround(a)) return true;
    }
    return false;
  }

  private enumerateAround(a: number): boolean {
    const g = this.g;
    const cells: number[] = [];
    const where = new Map<number, number>();
    const cons: number[] = [];
    const seenCons = new Set<number>([a]);
    const queue = [a];
    const buf = new Int32Array(8);
    const buf2 = new Int32Array(8);
    while (queue.length && cells.length < this.enumCells) {
      const c = queue.shift() as number;
      cons.push(c);
      const [nu] = this.constraint(c, buf);
      for (let j = 0; j < nu && cells.length < this.enumCells; j++) {
        const u = buf[j];
        if (where.has(u)) continue;
        where.set(u, cells.length);
        cells.push(u);
        const k = this.neighbours(u, buf2);
        for (let q = 0; q < k; q++) {
          const o = buf2[q];
          if (this.st[o] === OPEN && !g.fog[o] && !seenCons.has(o)) {
            seenCons.add(o);
            queue.push(o);
          }
        }
      }
    }
    for (const c of queue) cons.push(c); // constraints found but not expanded still bound the set
    const K = cells.length;
    if (K === 0) return false;
    // per constraint: value, members inside the set, count outside
    const cVal: number[] = [];
    const cOut: number[] = [];
    const cIn: number[][] = [];
    const byCell: number[][] = cells.map(() => []);
    for (const c of cons) {
      const [nu, v] = this.constraint(c, buf);
      const inside: number[] = [];
      for (let j = 0; j < nu; j++) {
        const p = where.get(buf[j]);
        if (p !== undefined) inside.push(p);
      }
      if (inside.length === 0) continue;
      const idx = cVal.length;
      cVal.push(v);
      cOut.push(nu - inside.length);
      cIn.push(inside);
      for (const p of inside) byCell[p].push(idx);
    }
    const assign = new Int8Array(K).fill(-1);
    const mines = new Int32Array(cVal.length);
    const open = cIn.map((x) => x.length);
    const count = new Int32Array(K);
    let solutions = 0;
    let nodes = 0;
    let total = 0;
    const left = g.mineCount - this.knownMines;
    const othersUnknown = this.unknownCells - K;
    const ok = (p: number): boolean => {
      for (const ci of byCell[p]) {
        if (mines[ci] > cVal[ci]) return false;
        if (mines[ci] + open[ci] + cOut[ci] < cVal[ci]) return false;
      }
      return true;
    };
    const rec = (p: number): boolean => {
      if (++nodes > this.enumNodes) return false;
      if (p === K) {
        if (total > left || left - total > othersUnknown) return true;
        solutions++;
        for (let i = 0; i < K; i++) count[i] += assign[i];
        return true;
      }
      for (let v = 0; v <= 1; v++) {
        assign[p] = v;
        total += v;
        for (const ci of byCell[p]) {
          open[ci]--;
          mines[ci] += v;
        }
        const fine = ok(p);
        const go = fine ? rec(p + 1) : true;
        for (const ci of byCell[p]) {
          open[ci]++;
          mines[ci] -= v;
        }
        total -= v;
        assign[p] = -1;
        if (!go) return false;
      }
      return true;
    };
    if (!rec(0) || solutions === 0) return false;
    let progress = false;
    for (let i = 0; i < K; i++) {
      if (count[i] === 0) {
        this.markSafe(cells[i]);
        progress = true;
      } else if (count[i] === solutions) {
        this.markMine(cells[i]);
        progress = true;
      }
    }
    return progress;
  }

  /** (known mines, unknown cells) at the last enumeration pass. */
  private enumKey = -1;
  /** Search budget (nodes) of the global-count rule, per call, and its largest enumerated component. */
  globalNodes = 200_000;
  globalCells = 40;

  // Global count across the whole frontier. Unknown cells split into the interior (touching no
  // open constraint) and frontier components (cells linked through shared constraints). Each
  // component C holds between lo_C and hi_C mines in its consistent assignments (exact by search
  // while the budget lasts, else a disjoint-packing lower and a covering upper bound). With L
  // mines left and I interior cells: sum lo = L => the interior holds no mine; sum hi = L - I =>
  // it is all mines; otherwise the other components and the interior narrow C's count to
  // [L - I - (sum hi - hi_C), L - (sum lo - lo_C)], and a small component is enumerated inside
  // that window, fixing the cells that agree in every assignment. Runs with the local
  // enumeration (off in the no-guess repair loop, which stays on the cheaper rules).
  private globalComponents(): boolean {
    const g = this.g;
    const st = this.st;
    const left = g.mineCount - this.knownMines;
    const nb = new Int32Array(8);
    const isCons = (c: number): boolean => st[c] === OPEN && !g.fog[c];
    const frontier: number[] = [];
    let interior = 0;
    for (let i = 0; i < g.n; i++) {
      if (st[i] !== UNKNOWN) continue;
      const k = this.neighbours(i, nb);
      let f = false;
      for (let j = 0; j < k && !f; j++) f = isCons(nb[j]);
      if (f) frontier.push(i);
      else interior++;
    }
    const seenCell = new Uint8Array(g.n);
    const seenCons = new Uint8Array(g.n);
    const budget = { nodes: this.globalNodes };
    const comps: Component[] = [];
    let lo = 0;
    let hi = 0;
    const buf = new Int32Array(8);
    for (const f0 of frontier) {
      if (seenCell[f0]) continue;
      const cells: number[] = [f0];
      const cons: number[] = [];
      seenCell[f0] = 1;
      for (let q = 0; q < cells.length; q++) {
        const k = this.neighbours(cells[q], nb);
        for (let j = 0; j < k; j++) {
          const c = nb[j];
          if (!isCons(c) || seenCons[c]) continue;
          seenCons[c] = 1;
          cons.push(c);
          const [nu] = this.constraint(c, buf);
          for (let t = 0; t < nu; t++) {
            if (!seenCell[buf[t]]) {
              seenCell[buf[t]] = 1;
              cells.push(buf[t]);
            }
          }
        }
      }
      const comp = this.component(cells, cons);
      this.componentRange(comp, budget);
      comps.push(comp);
      lo += comp.lo;
      hi += comp.hi;
    }
    if (interior > 0 && (lo >= left || hi <= left - interior)) {
      const mine = lo < left;
      for (let i = 0; i < g.n; i++) if (st[i] === UNKNOWN && !seenCell[i]) mine ? this.markMine(i) : this.markSafe(i);
      for (let i = 0; i < g.n; i++) if (st[i] === PENDING) this.tryPending(i);
      return true;
    }
    let progress = false;
    for (const c of comps) {
      const min = Math.max(c.lo, left - interior - (hi - c.hi));
      const max = Math.min(c.hi, left - (lo - c.lo));
      if ((min <= c.lo && max >= c.hi) || c.cells.length > this.globalCells) continue;
      const counts = this.componentCounts(c, min, max, budget);
      if (counts === null) continue;
      const [solutions, count] = counts;
      if (solutions === 0) continue;
      for (let i = 0; i < c.cells.length; i++) {
        if (st[c.cells[i]] !== UNKNOWN) continue;
        if (count[i] === 0) this.markSafe(c.cells[i]), (progress = true);
        else if (count[i] === solutions) this.markMine(c.cells[i]), (progress = true);
      }
    }
    return progress;
  }

  private component(cells: number[], cons: number[]): Component {
    const where = new Map<number, number>();
    cells.forEach((c, i) => where.set(c, i));
    const buf = new Int32Array(8);
    const val: number[] = [];
    const members: number[][] = [];
    const byCell: number[][] = cells.map(() => []);
    for (const c of cons) {
      const [nu, v] = this.constraint(c, buf);
      const inside: number[] = [];
      for (let j = 0; j < nu; j++) inside.push(where.get(buf[j]) as number);
      const idx = val.length;
      val.push(v);
      members.push(inside);
      for (const p of inside) byCell[p].push(idx);
    }
    return { cells, val, members, byCell, lo: 0, hi: cells.length };
  }

  /**
   * Depth-first over the component's cells (BFS order) with the constraint checks; `leaf` sees
   * each consistent full assignment. `order` 0 tries safe first, 1 mine first; `prune(total, p)`
   * may cut a branch. Returns false when the node budget ran out.
   */
  private componentSearch(
    c: Component,
    budget: { nodes: number },
    order: 0 | 1,
    prune: (total: number, p: number) => boolean,
    leaf: (assign: Uint8Array, total: number) => void,
  ): boolean {
    const K = c.cells.length;
    const mines = new Int32Array(c.val.length);
    const open = new Int32Array(c.members.map((x) => x.length));
    const assign = new Uint8Array(K);
    let total = 0;
    const rec = (p: number): boolean => {
      if (--budget.nodes < 0) return false;
      if (prune(total, p)) return true;
      if (p === K) {
        leaf(assign, total);
        return true;
      }
      for (let t = 0; t <= 1; t++) {
        const v = t ^ order;
        assign[p] = v;
        total += v;
        let fine = true;
        for (const ci of c.byCell[p]) {
          open[ci]--;
          mines[ci] += v;
          if (mines[ci] > c.val[ci] || mines[ci] + open[ci] < c.val[ci]) fine = false;
        }
        const go = fine ? rec(p + 1) : true;
        for (const ci of c.byCell[p]) {
          open[ci]++;
          mines[ci] -= v;
        }
        total -= v;
        if (!go) return false;
      }
      return true;
    };
    return rec(0);
  }

  /** Sets c.lo / c.hi: exact min and max mines while the budget lasts, else sound bounds. */
  private componentRange(c: Component, budget: { nodes: number }): void {
    const K = c.cells.length;
    let best = K + 1;
    const exactLo =
      this.componentSearch(
        c,
        budget,
        0,
        (t) => t >= best,
        (_, t) => (best = t),
      ) && best <= K
        ? best
        : null;
    let top = -1;
    const exactHi =
      exactLo !== null &&
      this.componentSearch(
        c,
        budget,
        1,
        (t, p) => t + (K - p) <= top,
        (_, t) => (top = t),
      ) &&
      top >= 0
        ? top
        : null;
    if (exactLo !== null && exactHi !== null) {
      c.lo = exactLo;
      c.hi = exactHi;
      return;
    }
    // disjoint constraints each hold their count (lower); a cover of the cells by constraints
    // holds at most the sum of their counts (upper)
    const order = c.val.map((_, i) => i);
    const used = new Uint8Array(K);
    let lo = 0;
    order.sort((a, b) => c.val[b] - c.val[a]);
    for (const ci of order) {
      if (c.members[ci].some((p) => used[p])) continue;
      for (const p of c.members[ci]) used[p] = 1;
      lo += c.val[ci];
    }
    used.fill(0);
    let hi = 0;
    order.sort((a, b) => c.val[a] / c.members[a].length - c.val[b] / c.members[b].length);
    for (const ci of order) {
      if (!c.members[ci].some((p) => !used[p])) continue;
      for (const p of c.members[ci]) used[p] = 1;
      hi += c.val[ci];
    }
    c.lo = exactLo ?? lo;
    c.hi = Math.min(hi, K);
  }

  /** Assignments of the component with between min and max mines, and per-cell mine counts; null when over budget. */
  private componentCounts(
    c: Component,
    min: number,
    max: number,
    budget: { nodes: number },
  ): [number, Int32Array] | null {
    const K = c.cells.length;
    const count = new Int32Array(K);
    let solutions = 0;
    const ok = this.componentSearch(
      c,
      budget,
      0,
      (t, p) => t > max || t + (K - p) < min,
      (assign) => {
        solutions++;
        for (let i = 0; i < K; i++) count[i] += assign[i];
      },
    );
    return ok ? [solutions, count] : null;
  }

  /** An open constraint cell with unknown neighbours, chosen by the repair hook's picker. */
  picker: ((n: number) => number) | null = null;
  private pickStuck(): number {
    const act = this.active;
    const scratch = new Int32Array(8);
    while (act.length > 0) {
      const j = this.picker ? this.picker(act.length) : act.length - 1;
      const a = act[j];
      if (this.st[a] === OPEN && this.constraint(a, scratch)[0] > 0) return a;
      act[j] = act[act.length - 1];
      act.pop();
    }
    return -1;
  }
}

/**
 * Solve a board without guessing; the inference-rate metric. `freeDig` drops the movement rule
 * (any known-safe cell may be dug), for comparisons with classic minesweeper solvers.
 */
export function solveBoard(b: Board, opts: { freeDig?: boolean } = {}): SolveResult {
  const g = gridFromBoard(b);
  const s = new Solver(g);
  s.freeDig = opts.freeDig ?? false;
  s.start();
  const cleared = s.run(null);
  const safe = g.n - g.mineCount;
  const rest = safe - s.r0;
  return {
    cleared,
    opened: s.openedSafe,
    r0: s.r0,
    safe,
    rate: rest === 0 ? 1 : (s.openedSafe - s.r0) / rest,
    repairs: 0,
  };
}
