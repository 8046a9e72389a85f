// Shared test harness for the mines acceptance tests: a real A3 ledger, a capturing sink with
// both emitter faces, and NAIVE recomputations (coordinate sets, explicit offset loops) that
// share no code with the engine, so they can disagree with it.

import assert from 'node:assert/strict';
import type { Board } from '../../packages/engine/src/rulesets/mines/board/geometry.ts';
import {
  createA2,
  installBoard,
  settleBatch,
  tryDig,
  tryFlagPlace,
  tryFlagPull,
  tryMove,
  tryStop,
  type World,
} from '../../packages/engine/src/rulesets/mines/board/engine.ts';
import type {
  ActionOutcome,
  Cell,
  Diagnostic,
  Face,
  Intent,
  MinesEvent,
  Sink,
} from '../../packages/engine/src/rulesets/mines/board/types.ts';
import { createLedger } from '../../packages/engine/src/rulesets/mines/ledger/ledger.ts';
import { economyTable, type EconomyTable } from '../../packages/engine/src/rulesets/mines/ledger/economy.ts';
import {
  notifyRoundStart,
  notifySettlementDone,
} from '../../packages/engine/src/rulesets/mines/orchestrator/orchestrator.ts';
import { fixture } from '../../packages/engine/src/rulesets/mines/fixtures.ts';

export class Capture implements Sink {
  log: Array<{ face: Face; e: MinesEvent }> = [];
  diags: Diagnostic[] = [];
  emit(e: MinesEvent, face: Face): void {
    this.log.push({ face, e: JSON.parse(JSON.stringify(e)) });
  }
  diagnose(d: Diagnostic): void {
    this.diags.push(d);
  }
  /** reset_diagnostics() and the event capture. */
  reset(): void {
    this.log = [];
    this.diags = [];
  }
  get events(): MinesEvent[] {
    return this.log.map((x) => x.e);
  }
  face(f: Face): MinesEvent[] {
    return this.log.filter((x) => x.face === f).map((x) => x.e);
  }
  since(n: number): MinesEvent[] {
    return this.log.slice(n).map((x) => x.e);
  }
}

export function newWorld(overrides?: Partial<EconomyTable>): World {
  return { a2: createA2(), a3: createLedger(economyTable(overrides ?? {})) };
}

/** Install a fixture and open the first round (B1 notify_round_start). */
export function start(name: string, overrides?: Partial<EconomyTable>): { w: World; cap: Capture; board: Board } {
  const w = newWorld(overrides);
  const cap = new Capture();
  const board = fixture(name);
  const r = installBoard(w, board, cap);
  assert.equal(r.accepted, true, `${name} installs`);
  assert.equal(notifyRoundStart(w), true);
  return { w, cap, board };
}

/** Settle the finished round on the same board and open the next one (B1 role). */
export function nextRound(w: World, cap: Capture): void {
  assert.equal(w.a3.phase, 'Waiting');
  notifySettlementDone(w, 'same_board', cap);
  assert.equal(notifyRoundStart(w), true);
}

export type Step = ['dig' | 'flag_place' | 'flag_pull' | 'move', number, number] | ['stop'];
export const dig = (x: number, y: number): Step => ['dig', x, y];
export const mv = (x: number, y: number): Step => ['move', x, y];
export const place = (x: number, y: number): Step => ['flag_place', x, y];
export const pull = (x: number, y: number): Step => ['flag_pull', x, y];
export const stop: Step = ['stop'];

function intent(s: Step): Intent {
  return s[0] === 'stop' ? { type: 'stop' } : { type: s[0], cell: [s[1], s[2]] };
}

/** One convenience call; returns its ActionOutcome. */
export function act(w: World, cap: Capture, s: Step): ActionOutcome {
  switch (s[0]) {
    case 'dig':
      return tryDig(w, [s[1], s[2]], cap);
    case 'flag_place':
      return tryFlagPlace(w, [s[1], s[2]], cap);
    case 'flag_pull':
      return tryFlagPull(w, [s[1], s[2]], cap);
    case 'move':
      return tryMove(w, [s[1], s[2]], cap);
    case 'stop':
      return tryStop(w, cap);
  }
}

/** Run steps that must all execute. */
export function run(w: World, cap: Capture, steps: Step[]): void {
  for (const s of steps) {
    const r = act(w, cap, s);
    assert.equal(r.outcome, 'executed', `${JSON.stringify(s)} should execute, got ${JSON.stringify(r)}`);
  }
}

export function batch(w: World, cap: Capture, steps: Step[]): ActionOutcome[] {
  return settleBatch(w, steps.map(intent), cap);
}

/** Read-only observables of a world, for "nothing changed" assertions. */
export function snapshot(w: World): string {
  return JSON.stringify({ a2: w.a2, a3: w.a3 });
}

// ---- naive recomputations -------------------------------------------------------------------

const key = (x: number, y: number) => `${x},${y}`;
/** Row-major offsets written out by hand: up-left, up, up-right, left, right, down-left, down, down-right. */
const OFFSETS: Array<[number, number]> = [
  [-1, -1],
  [0, -1],
  [1, -1],
  [-1, 0],
  [1, 0],
  [-1, 1],
  [0, 1],
  [1, 1],
];

export function mineAt(b: Board, x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < b.w && y < b.h && b.mines[y * b.w + x] === '1';
}

export function naiveDigit(b: Board, x: number, y: number): number {
  let n = 0;
  for (const [dx, dy] of OFFSETS) if (mineAt(b, x + dx, y + dy)) n++;
  return n;
}

export function safeCells(b: Board): Cell[] {
  const out: Cell[] = [];
  for (let y = 0; y < b.h; y++) for (let x = 0; x < b.w; x++) if (!mineAt(b, x, y)) out.push([x, y]);
  return out;
}

function bfs(b: Board, seeds: Cell[], blocked: Set<string>, already: Set<string>): Cell[] {
  const seen = new Set<string>(already);
  const order: Cell[] = [];
  const queue: Cell[] = [];
  for (const [x, y] of seeds) {
    if (seen.has(key(x, y))) continue;
    seen.add(key(x, y));
    queue.push([x, y]);
  }
  while (queue.length) {
    const [x, y] = queue.shift() as Cell;
    order.push([x, y]);
    if (mineAt(b, x, y) || naiveDigit(b, x, y) !== 0) continue;
    for (const [dx, dy] of OFFSETS) {
      const nx = x + dx;
      const ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= b.w || ny >= b.h) continue;
      if (mineAt(b, nx, ny) || blocked.has(key(nx, ny)) || seen.has(key(nx, ny))) continue;
      seen.add(key(nx, ny));
      queue.push([nx, ny]);
    }
  }
  return order;
}

/**
 * R0 in the seed's canonical order, read from the seed's words alone: breadth-first from the
 * trigger cell (the spawn centre, where the figure lands), neighbours in row-major order.
 */
export function naiveR0(b: Board): Cell[] {
  return bfs(b, [[b.spawn[0], b.spawn[1]]], new Set(), new Set());
}

/** The other reading AC-1 must tell apart: the nine spawn cells row-major, then breadth-first. */
export function naiveR0SquareFirst(b: Board): Cell[] {
  const [sx, sy] = b.spawn;
  const seeds: Cell[] = [];
  for (let y = sy - 1; y <= sy + 1; y++) for (let x = sx - 1; x <= sx + 1; x++) seeds.push([x, y]);
  return bfs(b, seeds, new Set(), new Set());
}

/** Cells a dig of `c` opens, in canonical order, given the open cells and flags. */
export function naiveChain(b: Board, open: Cell[], flags: Cell[], c: Cell): Cell[] {
  return bfs(b, [c], new Set(flags.map(([x, y]) => key(x, y))), new Set(open.map(([x, y]) => key(x, y))));
}

/** R0 plus one ring (the generator's exclusion domain X(B)). */
export function naiveRing(b: Board, cells: Cell[]): Set<string> {
  const out = new Set<string>();
  for (const [x, y] of cells) {
    out.add(key(x, y));
    for (const [dx, dy] of OFFSETS) {
      const nx = x + dx;
      const ny = y + dy;
      if (nx >= 0 && ny >= 0 && nx < b.w && ny < b.h) out.add(key(nx, ny));
    }
  }
  return out;
}

export function openCells(w: World): Cell[] {
  const b = w.a2.board as Board;
  const out: Cell[] = [];
  for (let i = 0; i < w.a2.cover.length; i++) if (w.a2.cover[i] === 'o') out.push([i % b.w, Math.floor(i / b.w)]);
  return out;
}

export function flagCells(w: World): Cell[] {
  const b = w.a2.board as Board;
  const out: Cell[] = [];
  for (let i = 0; i < w.a2.cover.length; i++) if (w.a2.cover[i] === 'F') out.push([i % b.w, Math.floor(i / b.w)]);
  return out;
}

export const cellsOf = (events: MinesEvent[]): Cell[] =>
  events.filter((e) => e.type === 'cell_revealed').map((e) => e.cell);
export const roundEnds = (events: MinesEvent[]) => events.filter((e) => e.type === 'round_end');
export const judged = (events: MinesEvent[]) => events.filter((e) => e.type === 'flag_judged');

/** The b_spawn / b_flag / b_batch dig-everything sequence: 8 digs of the 8 concealed safe cells. */
export const CLEAR_ALL: Step[] = [
  mv(2, 3),
  dig(1, 3),
  mv(1, 3),
  dig(0, 2),
  dig(0, 3),
  dig(0, 4),
  mv(0, 2),
  dig(0, 1),
  mv(0, 1),
  dig(0, 0),
  mv(0, 4),
  dig(0, 5),
  mv(0, 5),
  dig(0, 6),
];
/** Seven digs in a fresh round that leave (0,5),(0,6) concealed and ap = 1 (the 7th digs mine (1,2)); ends on (0,4). */
export const SEVEN_NON_CLEARING: Step[] = [
  mv(2, 3),
  dig(1, 3),
  mv(1, 3),
  dig(0, 2),
  dig(0, 3),
  dig(0, 4),
  mv(0, 2),
  dig(0, 1),
  mv(0, 1),
  dig(0, 0),
  dig(1, 2),
  mv(0, 4),
];
