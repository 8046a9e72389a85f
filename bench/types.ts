// The shape every benchmark case has, so `arbiter bench` can run and report any of them.

export interface BenchResult {
  /** Case name, e.g. "tictactoe/engine". */
  case: string;
  /** Completed games (or boards, or explorations) in the timed part. */
  games: number;
  /** Actions (moves, intents, states ...) in the timed part. */
  moves: number;
  /** CPU milliseconds of this process spent in the timed part (process.cpuUsage). */
  cpu_ms: number;
  games_per_cpu_s: number;
  moves_per_cpu_s: number;
  /** Anything else worth reporting (ratios, sizes, peak memory). */
  extra?: Record<string, number | string | boolean | null>;
}

export interface BenchCase {
  name: string;
  /** Which ruleset it belongs to ("kernel" for cross-cutting cases). */
  group: string;
  /** Run for about `budgetMs` of CPU time (at least one unit of work) and report. */
  run(budgetMs: number): Promise<BenchResult> | BenchResult;
}

/** Time `unit` repeatedly until `budgetMs` of CPU time is used; `unit` returns [games, moves]. */
export function measure(
  name: string,
  budgetMs: number,
  unit: () => [number, number],
  extra?: BenchResult['extra'],
): BenchResult {
  // Warm up so the JIT has compiled the hot path before timing: the figure is the steady-state
  // rate a long sim sees. 200 ms was too short: bnc's checked path still ran at a third of its
  // steady rate after it, and the cold start then decided before/after comparisons.
  const warmEnd = process.cpuUsage();
  let warm = 0;
  while (cpuMsSince(warmEnd) < Math.min(1000, budgetMs) && warm < 1e6) {
    unit();
    warm++;
  }
  const start = process.cpuUsage();
  let games = 0;
  let moves = 0;
  let elapsed = 0;
  do {
    for (let i = 0; i < 16; i++) {
      const [g, m] = unit();
      games += g;
      moves += m;
    }
    elapsed = cpuMsSince(start);
  } while (elapsed < budgetMs);
  return {
    case: name,
    games,
    moves,
    cpu_ms: Math.round(elapsed * 1000) / 1000,
    games_per_cpu_s: Math.round((games / elapsed) * 1000),
    moves_per_cpu_s: Math.round((moves / elapsed) * 1000),
    ...(extra ? { extra } : {}),
  };
}

export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

/** Run one case; a case that throws reports its error as a row, so one broken case hides no other. */
export async function runCase(c: BenchCase, budgetMs: number): Promise<BenchResult> {
  try {
    return await c.run(budgetMs);
  } catch (err) {
    return {
      case: c.name,
      games: 0,
      moves: 0,
      cpu_ms: 0,
      games_per_cpu_s: 0,
      moves_per_cpu_s: 0,
      extra: { error: (err as Error).message },
    };
  }
}
