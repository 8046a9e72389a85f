// mines benchmarks, each against a baseline measured in the same run:
//  - one chain dig opening a 1000x1000 mostly-empty board through A2 (closure alone, and the
//    full settle_batch with its ~10^6 cell_revealed events) vs a plain typed-array BFS;
//  - digits + the four install invariants per million cells;
//  - no-guess generation vs Simon Tatham's generator (`sgt-mines --time-generation`, Debian
//    sgt-puzzles) at the same sizes; skipped cleanly when the binary is absent.

import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpuMsSince, measure, type BenchCase, type BenchResult } from './types.ts';
import { minesParts, type Board, type World } from '@arbiter/engine/rulesets/mines';

const {
  chainOpen,
  checkInvariants,
  computeDigits,
  createA2,
  createLedger,
  economyTable,
  generate,
  installBoard,
  settleBatch,
  solveBoard,
  startRound,
  textToBytes,
} = minesParts;

const SGT = '/usr/games/sgt-mines';
const SIDE = 1000;

/** A 1000x1000 board: a 5x5 pocket around the spawn walled by mines, everything else empty. */
function pocketBoard(): Board {
  const n = SIDE * SIDE;
  const m = new Uint8Array(n).fill(48);
  for (let y = 0; y <= 5; y++) m[y * SIDE + 5] = 49;
  for (let x = 0; x <= 5; x++) m[5 * SIDE + x] = 49;
  const mines = new TextDecoder().decode(m);
  return {
    id: 'pocket-1000',
    w: SIDE,
    h: SIDE,
    spawn: [2, 2],
    mines,
    digits: computeDigits(SIDE, SIDE, mines),
    variants: [],
  };
}

const quiet = { emit: () => {}, diagnose: () => {} };

/** Installed, with the wall mine (5,4) dug and the figure on (6,4): the next dig of (7,4) opens the board. */
function readyWorld(): World {
  const w: World = { a2: createA2(), a3: createLedger(economyTable({ ap_per_round: 1000 })) };
  installBoard(w, pocketBoard(), quiet);
  startRound(w.a3);
  settleBatch(
    w,
    [
      { type: 'move', cell: [4, 4] },
      { type: 'dig', cell: [5, 4] },
      { type: 'move', cell: [5, 4] },
      { type: 'dig', cell: [6, 4] },
      { type: 'move', cell: [6, 4] },
    ],
    quiet,
  );
  return w;
}

/** The baseline: breadth-first flood over typed arrays, nothing else. */
function plainBfs(mines: Uint8Array, digits: Uint8Array, open: Uint8Array, start: number): number {
  const n = SIDE * SIDE;
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  open[start] = 1;
  queue[tail++] = start;
  while (head < tail) {
    const c = queue[head++];
    if (digits[c] !== 48) continue;
    const x = c % SIDE;
    const y = (c - x) / SIDE;
    for (let dy = -1; dy <= 1; dy++) {
      const yy = y + dy;
      if (yy < 0 || yy >= SIDE) continue;
      for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx;
        if (xx < 0 || xx >= SIDE) continue;
        const d = yy * SIDE + xx;
        if (open[d] || mines[d] === 49) continue;
        open[d] = 1;
        queue[tail++] = d;
      }
    }
  }
  return tail;
}

function chainCases(): BenchCase[] {
  let cache: { w: World; cover: Uint8Array; mines: Uint8Array; digits: Uint8Array; openBase: Uint8Array } | null = null;
  const ready = () => {
    if (cache) return cache;
    const w = readyWorld();
    const cover = textToBytes(w.a2.cover);
    const openBase = new Uint8Array(cover.length);
    for (let i = 0; i < cover.length; i++) openBase[i] = cover[i] === 111 ? 1 : 0;
    cache = { w, cover, mines: textToBytes(w.a2.board!.mines), digits: textToBytes(w.a2.board!.digits), openBase };
    return cache;
  };
  const start = 4 * SIDE + 7;
  let baselineMs = 0;
  return [
    {
      name: 'mines/chain-1000x1000/plain-bfs',
      group: 'mines',
      run(budget) {
        const c = ready();
        let opened = 0;
        const r = measure('mines/chain-1000x1000/plain-bfs', budget, () => {
          opened = plainBfs(c.mines, c.digits, c.openBase.slice(), start);
          return [1, opened];
        });
        baselineMs = r.cpu_ms / r.games;
        r.extra = { cells_opened: opened, ms_per_dig: round(baselineMs) };
        return r;
      },
    },
    {
      name: 'mines/chain-1000x1000/a2-closure',
      group: 'mines',
      run(budget) {
        const c = ready();
        let opened = 0;
        const r = measure('mines/chain-1000x1000/a2-closure', budget, () => {
          opened = chainOpen(c.w.a2.board!, c.cover.slice(), start).length;
          return [1, opened];
        });
        const ms = r.cpu_ms / r.games;
        r.extra = {
          cells_opened: opened,
          ms_per_dig: round(ms),
          vs_plain_bfs: baselineMs ? round(ms / baselineMs) : null,
        };
        return r;
      },
    },
    {
      name: 'mines/chain-1000x1000/a2-settle-with-events',
      group: 'mines',
      run(budget) {
        const c = ready();
        let events = 0;
        const sink = { emit: () => void events++, diagnose: () => {} };
        const r = measure('mines/chain-1000x1000/a2-settle-with-events', budget, () => {
          const w: World = { a2: { ...c.w.a2 }, a3: { ...c.w.a3 } };
          events = 0;
          settleBatch(w, [{ type: 'dig', cell: [7, 4] }], sink);
          return [1, events];
        });
        const ms = r.cpu_ms / r.games;
        r.extra = {
          events_per_dig: events,
          ms_per_dig: round(ms),
          vs_plain_bfs: baselineMs ? round(ms / baselineMs) : null,
        };
        return r;
      },
    },
  ];
}

function invariantCase(): BenchCase {
  return {
    name: 'mines/digits-and-invariants-1000x1000',
    group: 'mines',
    run(budget) {
      const b = generate({ width: SIDE, height: SIDE, mines: (SIDE * SIDE) / 10, fog: 100 }, 7);
      const r = measure('mines/digits-and-invariants-1000x1000', budget, () => {
        computeDigits(b.w, b.h, b.mines);
        if (checkInvariants(b) !== null) throw new Error('generated board fails install');
        return [1, b.w * b.h];
      });
      r.extra = {
        ms_per_million_cells: round(r.cpu_ms / r.games),
        million_cells_per_cpu_s: round(r.moves_per_cpu_s / 1e6),
      };
      return r;
    },
  };
}

/** Tatham's CPU seconds per board from `sgt-mines --time-generation`, or null without the binary. */
function tatham(spec: string, count: number): number | null {
  if (!existsSync(SGT)) return null;
  const r = spawnSync(SGT, ['--time-generation', '--generate', String(count), `${spec}#arbiter`], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  const times = [...(r.stdout ?? '').matchAll(/: ([0-9.]+)\s*$/gm)].map((m) => Number(m[1]));
  if (times.length === 0) return null;
  return (times.reduce((a, b) => a + b, 0) / times.length) * 1000;
}

function nogCase(w: number, h: number, m: number, sgtBoards: number): BenchCase {
  const name = `mines/no-guess-${w}x${h}n${m}`;
  return {
    name,
    group: 'mines',
    run(budget) {
      let seed = 0;
      let solverCleared = 0;
      let randomBoards = 0;
      const start = process.cpuUsage();
      let boards = 0;
      do {
        generate({ width: w, height: h, mines: m, fog: 0, no_guess: true }, seed++);
        boards++;
      } while (cpuMsSince(start) < budget);
      const cpu = cpuMsSince(start);
      const ours = cpu / boards;
      // solver strength: share of plain random boards it clears without a guess (same sizes)
      const sample = w * h > 100_000 ? 2 : 100;
      for (let s = 0; s < sample; s++) {
        randomBoards++;
        if (solveBoard(generate({ width: w, height: h, mines: m, fog: 0 }, 100_000 + s)).cleared) solverCleared++;
      }
      const sgt = sgtBoards > 0 ? tatham(`${w}x${h}n${m}`, sgtBoards) : null;
      const res: BenchResult = {
        case: name,
        games: boards,
        moves: boards,
        cpu_ms: round(cpu),
        games_per_cpu_s: Math.round((boards / cpu) * 1000),
        moves_per_cpu_s: Math.round((boards / cpu) * 1000),
        extra: {
          ms_per_board: round(ours),
          tatham_ms_per_board: sgt === null ? null : round(sgt),
          speedup_vs_tatham: sgt === null ? (existsSync(SGT) ? 'not measured' : 'sgt-mines absent') : round(sgt / ours),
          random_boards_cleared_by_solver: `${solverCleared}/${randomBoards}`,
        },
      };
      return res;
    },
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

const BIG_SGT = process.env.ARBITER_BENCH_SGT_BIG === '1' ? 1 : 0;

export const cases: BenchCase[] = [
  ...chainCases(),
  invariantCase(),
  nogCase(30, 16, 99, 40),
  nogCase(30, 16, 170, 10),
  nogCase(1000, 1000, 100_000, BIG_SGT),
];
