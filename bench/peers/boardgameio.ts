// The peer for the tic-tac-toe cases: boardgame.io 0.50.2 (a devDependency) through its public
// client, in process, no server, no debug panel. It plays the same games as bench/tictactoe.ts for
// one seed. Loaded only by dev scripts and by `arbiter bench` after it found the package installed
// (bench/index.ts), so the shipped verb never needs it; the package itself is loaded with require
// on first use, never at import time.

import { createRequire } from 'node:module';
import { SeededRandom } from '@arbiter/engine/kernel';
import { BENCH_SEED } from '../tictactoe.ts';
import { cpuMsSince, measure, type BenchCase, type BenchResult } from '../types.ts';

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

export const cases: BenchCase[] = [bgioCase(), bgioBotCase()];
