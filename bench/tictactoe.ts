// Tic-tac-toe, played at random in one process: through Arbiter's public ruleset API (trusted
// `step` and checked `act`) and through a hand-written plain loop (the floor). The peer,
// boardgame.io 0.50.2, is a devDependency and lives in bench/peers/boardgameio.ts, which this file
// does not import: the shipped `bench` verb must load without it. All of them pick moves the same
// way: a SeededRandom draws an index into the ascending list of empty cells, so for one seed they
// play the same games.

import { SeededRandom, type GameEvent, type Ruleset, type Json } from '@arbiter/engine/kernel';
import { tictactoe } from '@arbiter/engine/rulesets/tictactoe';
import { measure, type BenchCase, type BenchResult } from './types.ts';
import { randomPlayout, randomPlayoutChecked } from './playout.ts';

export const BENCH_SEED = 20261129;

// ---------------------------------------------------------------------------------------------
// (a) the engine, through the API every ruleset shares

/** One random game through setup / pending / legal / step (generic: nothing here knows tic-tac-toe). */
export function engineGame<S, A extends Json>(
  rs: Ruleset<S, A>,
  seed: number,
  rng: SeededRandom,
  events: GameEvent[],
  trace?: A[],
): { state: S; moves: number } {
  return randomPlayout(rs, undefined, seed, rng, events, trace);
}

/** The same game through the checked path. */
export function engineGameChecked<S, A extends Json>(
  rs: Ruleset<S, A>,
  seed: number,
  rng: SeededRandom,
  trace?: A[],
): { state: S; moves: number } {
  return randomPlayoutChecked(rs, undefined, seed, rng, trace);
}

// ---------------------------------------------------------------------------------------------
// (b) the floor: the same game written directly, with a typed-array board

// for each cell, the other two cells of every line through it, flattened in pairs
const PLAIN_LINES: Int8Array[] = (() => {
  const lines = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
  ];
  const out: Int8Array[] = [];
  for (let c = 0; c < 9; c++) {
    const pairs: number[] = [];
    for (const l of lines) if (l.includes(c)) pairs.push(...l.filter((x) => x !== c));
    out.push(Int8Array.from(pairs));
  }
  return out;
})();

const plainBoard = new Int8Array(9);

/**
 * One random game, hand-written. Returns the result code (0 or 1: that seat won, 2: draw) plus
 * 4 × moves, so a caller gets both from one number without an allocation.
 * `trace` (tests only) receives the chosen cells in order.
 */
export function plainGame(rng: SeededRandom, trace?: number[]): number {
  const b = plainBoard;
  b.fill(-1);
  let seat = 0;
  for (let moves = 1; ; moves++) {
    // k-th empty cell in ascending order: the same list the engine's menu holds
    let k = rng.int(10 - moves);
    let cell = 0;
    for (; ; cell++) if (b[cell] === -1 && k-- === 0) break;
    if (trace) trace.push(cell);
    b[cell] = seat;
    const pairs = PLAIN_LINES[cell];
    for (let i = 0; i < pairs.length; i += 2) {
      if (b[pairs[i]] === seat && b[pairs[i + 1]] === seat) return seat + 4 * moves;
    }
    if (moves === 9) return 2 + 4 * moves;
    seat = 1 - seat;
  }
}

// ---------------------------------------------------------------------------------------------
// the cases

const engineCase: BenchCase = {
  name: 'tictactoe/engine',
  group: 'tictactoe',
  run(budgetMs) {
    const rng = new SeededRandom(BENCH_SEED);
    const events: GameEvent[] = [];
    let seed = 0;
    return measure('tictactoe/engine', budgetMs, () => [1, engineGame(tictactoe, seed++ >>> 0, rng, events).moves], {
      path: 'step (trusted menu actions, in place)',
    });
  },
};

const engineCheckedCase: BenchCase = {
  name: 'tictactoe/engine-checked',
  group: 'tictactoe',
  run(budgetMs) {
    const rng = new SeededRandom(BENCH_SEED);
    let seed = 0;
    return measure(
      'tictactoe/engine-checked',
      budgetMs,
      () => [1, engineGameChecked(tictactoe, seed++ >>> 0, rng).moves],
      { path: 'act (validate + copy)' },
    );
  },
};

const plainCase: BenchCase = {
  name: 'tictactoe/plain-loop',
  group: 'tictactoe',
  run(budgetMs) {
    const rng = new SeededRandom(BENCH_SEED);
    return measure('tictactoe/plain-loop', budgetMs, () => [1, plainGame(rng) >> 2], {
      path: 'hand-written loop, Int8Array board',
    });
  },
};

/** The cases `arbiter bench` ships; the boardgame.io peer cases live in bench/peers/boardgameio.ts. */
export const cases: BenchCase[] = [plainCase, engineCase, engineCheckedCase];

/** Targets from the foundation issue: the fast path within 5x of the floor and 100x the peer. */
export const TARGETS = { maxSlowdownVsPlain: 5, minSpeedupVsBoardgameIo: 100 };

function ratio(a: number, b: number): number | null {
  return b > 0 ? Math.round((a / b) * 1000) / 1000 : null;
}

/**
 * After all cases ran: add to each engine case the ratios vs_plain (engine ÷ plain moves/s) and
 * vs_boardgameio (engine ÷ boardgame.io moves/s), and whether the targets hold. Mutates and
 * returns `results`; a missing or failed peer leaves its ratio null.
 */
export function compareTicTacToe(results: BenchResult[]): BenchResult[] {
  const by = (name: string) => results.find((r) => r.case === name);
  const plain = by('tictactoe/plain-loop');
  const bg = by('tictactoe/boardgame.io');
  const bgBot = by('tictactoe/boardgame.io-bot');
  for (const name of ['tictactoe/engine', 'tictactoe/engine-checked']) {
    const r = by(name);
    if (!r) continue;
    const vsPlain = plain ? ratio(r.moves_per_cpu_s, plain.moves_per_cpu_s) : null;
    const vsBg = bg ? ratio(r.moves_per_cpu_s, bg.moves_per_cpu_s) : null;
    const vsBot = bgBot ? ratio(r.moves_per_cpu_s, bgBot.moves_per_cpu_s) : null;
    r.extra = {
      ...r.extra,
      vs_plain: vsPlain,
      vs_boardgameio: vsBg,
      vs_boardgameio_bot: vsBot,
      ...(name === 'tictactoe/engine'
        ? {
            target_within_5x_of_plain: vsPlain === null ? null : vsPlain >= 1 / TARGETS.maxSlowdownVsPlain,
            target_100x_boardgameio: vsBg === null ? null : vsBg >= TARGETS.minSpeedupVsBoardgameIo,
          }
        : {}),
    };
  }
  return results;
}
