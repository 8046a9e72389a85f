// Tic-tac-toe, played at random three ways in one process: through Arbiter's public ruleset API
// (trusted `step` and checked `act`), through a hand-written plain loop (the floor), and through
// boardgame.io 0.50.2's own client (the peer). All three pick moves the same way: a SeededRandom
// draws an index into the ascending list of empty cells, so for one seed they play the same games.

import { createRequire } from 'node:module';
import { SeededRandom, type GameEvent, type Ruleset, type Json } from '../src/kernel/index.ts';
import { tictactoe } from '../src/rulesets/tictactoe/index.ts';
import { measure, cpuMsSince, type BenchCase, type BenchResult } from './types.ts';
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
// (c) the peer: boardgame.io 0.50.2 through its public client, in process, no server, no debug panel

/** The minimal surface of boardgame.io's client we use (typed here so a missing package only fails at run time). */
interface BgioClient {
  start(): void;
  stop(): void;
  reset(): void;
  getState(): { G: { cells: (string | null)[] }; ctx: { gameover?: unknown; currentPlayer: string } } | null;
  moves: Record<string, (...args: unknown[]) => void>;
}
interface BgioModules {
  Client: (opts: Record<string, unknown>) => BgioClient;
  RandomBot: new (opts: Record<string, unknown>) => unknown;
  Step: (client: BgioClient, bot: unknown) => Promise<unknown>;
}

const BG_LINES = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
];

/** The game as a boardgame.io author writes it: moves, endIf, and ai.enumerate for its bots. */
export const bgioGame = {
  name: 'tictactoe',
  setup: () => ({ cells: [null, null, null, null, null, null, null, null, null] as (string | null)[] }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    mark: ({ G, playerID }: { G: { cells: (string | null)[] }; playerID: string }, cell: number) => {
      if (G.cells[cell] !== null) return 'INVALID_MOVE'; // boardgame.io's refusal sentinel
      G.cells[cell] = playerID;
    },
  },
  endIf: ({ G, ctx }: { G: { cells: (string | null)[] }; ctx: { currentPlayer: string } }) => {
    for (const [a, b, c] of BG_LINES) {
      if (G.cells[a] !== null && G.cells[a] === G.cells[b] && G.cells[a] === G.cells[c])
        return { winner: ctx.currentPlayer };
    }
    if (G.cells.every((c) => c !== null)) return { draw: true };
    return undefined;
  },
  ai: {
    enumerate: (G: { cells: (string | null)[] }) => {
      const out: { move: string; args: number[] }[] = [];
      for (let i = 0; i < 9; i++) if (G.cells[i] === null) out.push({ move: 'mark', args: [i] });
      return out;
    },
  },
};

let bgioCache: BgioModules | Error | undefined;

/**
 * Load boardgame.io through require: its subpath folders ('boardgame.io/client') only resolve as
 * CommonJS, and require keeps a missing package a catchable error instead of a failed import.
 * It is loaded in production mode, the mode a deployment runs in, which skips its per-move
 * serializability check and info logging.
 */
export function loadBoardgameIo(): BgioModules | Error {
  if (bgioCache) return bgioCache;
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const require = createRequire(import.meta.url);
    const client = require('boardgame.io/client') as { Client: BgioModules['Client'] };
    const ai = require('boardgame.io/ai') as { RandomBot: BgioModules['RandomBot']; Step: BgioModules['Step'] };
    bgioCache = { Client: client.Client, RandomBot: ai.RandomBot, Step: ai.Step };
  } catch (err) {
    bgioCache = err instanceof Error ? err : new Error(String(err));
  } finally {
    restoreNodeEnv(previous);
  }
  return bgioCache;
}

function restoreNodeEnv(previous: string | undefined): void {
  if (previous === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = previous;
}

export function newBgioClient(mods: BgioModules): BgioClient {
  const client = mods.Client({ game: bgioGame, numPlayers: 2, debug: false });
  client.start();
  return client;
}

/**
 * One random game through boardgame.io's client with the shared choice rule: the seeded index
 * into the ascending empty cells, sent with `client.moves.mark`. Returns the same code as
 * plainGame (result + 4 × moves).
 */
export function bgioGame1(client: BgioClient, rng: SeededRandom, trace?: number[]): number {
  client.reset();
  let moves = 0;
  for (;;) {
    const st = client.getState()!;
    const over = st.ctx.gameover as { winner?: string; draw?: boolean } | undefined;
    if (over) return (over.draw ? 2 : Number(over.winner)) + 4 * moves;
    const cells = st.G.cells;
    let k = rng.int(cells.reduce((n, c) => (c === null ? n + 1 : n), 0));
    let cell = 0;
    for (; ; cell++) if (cells[cell] === null && k-- === 0) break;
    if (trace) trace.push(cell);
    client.moves.mark(cell);
    moves++;
  }
}

function bgioError(name: string, err: Error): BenchResult {
  return {
    case: name,
    games: 0,
    moves: 0,
    cpu_ms: 0,
    games_per_cpu_s: 0,
    moves_per_cpu_s: 0,
    extra: { error: `boardgame.io unavailable: ${err.message.split('\n')[0]}` },
  };
}

/** Run `body` with NODE_ENV=production (boardgame.io reads it on every move). */
function inProduction<T>(body: () => T): T {
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return body();
  } finally {
    restoreNodeEnv(previous);
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

/** The boardgame.io cases take their loader as a parameter so a test can check the failure path. */
export type BgioLoader = () => BgioModules | Error;

export const bgioCase = (load: BgioLoader = loadBoardgameIo): BenchCase => ({
  name: 'tictactoe/boardgame.io',
  group: 'tictactoe',
  run(budgetMs) {
    const mods = load();
    if (mods instanceof Error) return bgioError('tictactoe/boardgame.io', mods);
    return inProduction(() => {
      const client = newBgioClient(mods);
      const rng = new SeededRandom(BENCH_SEED);
      try {
        return measure('tictactoe/boardgame.io', budgetMs, () => [1, bgioGame1(client, rng) >> 2], {
          path: 'Client (boardgame.io/client), client.moves with the shared seeded choice',
          version: '0.50.2',
        });
      } finally {
        client.stop();
      }
    });
  },
});

/** boardgame.io's own bot loop (RandomBot + Step), the way its figures are usually quoted. */
export const bgioBotCase = (load: BgioLoader = loadBoardgameIo): BenchCase => ({
  name: 'tictactoe/boardgame.io-bot',
  group: 'tictactoe',
  async run(budgetMs) {
    const mods = load();
    if (mods instanceof Error) return bgioError('tictactoe/boardgame.io-bot', mods);
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    const client = newBgioClient(mods);
    try {
      const bot = new mods.RandomBot({ enumerate: bgioGame.ai.enumerate, seed: String(BENCH_SEED) });
      const playOne = async (): Promise<number> => {
        client.reset();
        let moves = 0;
        while (!client.getState()!.ctx.gameover) {
          await mods.Step(client, bot);
          moves++;
        }
        return moves;
      };
      // short warm-up, then time whole games until the budget is spent
      const warmStart = process.cpuUsage();
      while (cpuMsSince(warmStart) < Math.min(200, budgetMs / 5)) await playOne();
      const start = process.cpuUsage();
      let games = 0;
      let moves = 0;
      let elapsed = 0;
      do {
        moves += await playOne();
        games++;
        elapsed = cpuMsSince(start);
      } while (elapsed < budgetMs);
      return {
        case: 'tictactoe/boardgame.io-bot',
        games,
        moves,
        cpu_ms: Math.round(elapsed * 1000) / 1000,
        games_per_cpu_s: Math.round((games / elapsed) * 1000),
        moves_per_cpu_s: Math.round((moves / elapsed) * 1000),
        extra: { path: 'RandomBot + Step (boardgame.io/ai)', version: '0.50.2' },
      };
    } finally {
      client.stop();
      restoreNodeEnv(previous);
    }
  },
});

export const cases: BenchCase[] = [plainCase, engineCase, engineCheckedCase, bgioCase(), bgioBotCase()];

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
