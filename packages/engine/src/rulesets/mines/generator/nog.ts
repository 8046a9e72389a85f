// No-guess repair, in the spirit of Simon Tatham's generator (ideas only): solve from R0, and
// where the solver is stuck at an open cell `a`, move mines so that `a` alone decides its
// unknown neighbours: either empty them (their mines go to concealed cells away from `a`) or
// fill them (mines come from concealed cells away from `a`). Then keep solving on the changed
// board. A board that needed repairs is solved again from scratch until a pass needs none, so
// the emitted board is verified guess-free as it is.

import { nextInt, type RngState } from '../../../kernel/index.ts';
import { Solver, bumpDigits, type Grid } from './solver.ts';

const UNKNOWN = 0;
const OPEN = 1;
const PROBES = 48;

const MAX_PASSES = 12;

function far(g: Grid, a: number, t: number): boolean {
  const ax = a % g.w;
  const tx = t % g.w;
  return Math.abs(ax - tx) > 1 || Math.abs((a - ax) / g.w - (t - tx) / g.w) > 1;
}

/** Removing a mine at c must not leave a fog cell with digit 0 (fog never spreads a chain). */
function removable(g: Grid, s: Solver, c: number, nb: Int32Array): boolean {
  const k = s.neighbours(c, nb);
  for (let j = 0; j < k; j++) if (g.fog[nb[j]] && g.digit[nb[j]] <= 1) return false;
  return true;
}

function touchesOpen(s: Solver, c: number, nb: Int32Array): boolean {
  const k = s.neighbours(c, nb);
  for (let j = 0; j < k; j++) if (s.st[nb[j]] === OPEN) return true;
  return false;
}

/** A concealed unknown cell away from `a`, with or without a mine; far from the open region preferred. */
function findPartner(
  s: Solver,
  rng: RngState,
  a: number,
  wantMine: boolean,
  taken: Set<number>,
  nb: Int32Array,
): number {
  const g = s.g;
  const ok = (t: number): boolean =>
    s.st[t] === UNKNOWN &&
    !taken.has(t) &&
    g.mines[t] === (wantMine ? 1 : 0) &&
    !g.fog[t] &&
    !g.spawn[t] &&
    far(g, a, t) &&
    (!wantMine || removable(g, s, t, nb));
  for (let p = 0; p < PROBES; p++) {
    const t = nextInt(rng, 'repair', g.n);
    if (ok(t) && !touchesOpen(s, t, nb)) return t;
  }
  const start = nextInt(rng, 'repair', g.n);
  let fallback = -1;
  for (let q = 0; q < g.n; q++) {
    const t = (start + q) % g.n;
    if (!ok(t)) continue;
    if (!touchesOpen(s, t, nb)) return t;
    if (fallback < 0) fallback = t;
  }
  return fallback;
}

/** The repair hook: returns the changed cells, or null when neither emptying nor filling is possible. */
function makeRepair(rng: RngState, counter: { repairs: number }) {
  const nb = new Int32Array(8);
  const nb2 = new Int32Array(8);
  return (s: Solver, a: number): number[] | null => {
    const g = s.g;
    const k = s.neighbours(a, nb);
    const unknown: number[] = [];
    for (let j = 0; j < k; j++) if (s.st[nb[j]] === UNKNOWN) unknown.push(nb[j]);
    const tryMode = (empty: boolean): number[] | null => {
      const movers = unknown.filter((u) => g.mines[u] === (empty ? 1 : 0));
      if (movers.length === 0) return null;
      if (empty && !movers.every((u) => removable(g, s, u, nb2))) return null;
      const taken = new Set<number>();
      const partners: number[] = [];
      for (let i = 0; i < movers.length; i++) {
        const t = findPartner(s, rng, a, !empty, taken, nb2);
        if (t < 0) return null;
        taken.add(t);
        partners.push(t);
      }
      for (let i = 0; i < movers.length; i++) {
        const [from, to] = empty ? [movers[i], partners[i]] : [partners[i], movers[i]];
        g.mines[from] = 0;
        bumpDigits(g, from, -1);
        g.mines[to] = 1;
        bumpDigits(g, to, +1);
      }
      counter.repairs++;
      return [...movers, ...partners];
    };
    const emptyFirst = nextInt(rng, 'repair', 2) === 0;
    return tryMode(emptyFirst) ?? tryMode(!emptyFirst);
  };
}

/**
 * Make the grid guess-free in place. Returns true when a from-scratch solve clears it without
 * any repair; false when repairs ran out (the caller starts a new attempt).
 */
export function repairForNoGuess(g: Grid, rng: RngState): boolean {
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const counter = { repairs: 0 };
    const s = new Solver(g);
    // repairs make the cheaper rules (per-cell, pairs, global count) suffice; a board they clear
    // is also cleared by the full solver, whose deductions are a superset
    s.enumCells = 0;
    s.picker = (n) => nextInt(rng, 'repair', n);
    s.start();
    if (!s.run(makeRepair(rng, counter))) return false;
    if (counter.repairs === 0) return true;
  }
  return false;
}
