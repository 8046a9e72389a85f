// The parallel simulator: seeds split into chunks, played on a piscina worker pool, records put
// back in seed order and summarised exactly as the single-thread simulator does.
//
// Runners never look a ruleset up by id. A worker thread cannot receive a package object (it holds
// functions), so the caller names the worker module: its default export plays a SimTask, finding
// the package by id in a list it imports (the CLI's src/cli/sim-worker.ts uses the registry).

import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { RulesetPackage } from '../kernel/index.ts';
import { simulate, summarize, type GameRecord, type SimOptions, type SimReport } from './sim.ts';
import type { SimTask } from './sim-worker.ts';

export function defaultThreads(): number {
  return Math.max(1, availableParallelism());
}

export interface ParallelOptions {
  threads: number;
  /** URL of the worker module (default export: SimTask → GameRecord[]; it must know `pkg`). */
  worker: string;
}

export async function simulateParallel<S, A>(pkg: RulesetPackage<S, A>, opts: SimOptions, parallel: ParallelOptions): Promise<SimReport> {
  const { threads } = parallel;
  // starting workers costs about half a second each (they load the sources), so small runs stay here
  if (threads <= 1 || opts.games < 1000) return simulate(pkg, opts);
  const t0 = performance.now();
  const pool = new Piscina<SimTask, GameRecord[]>({
    filename: parallel.worker,
    minThreads: threads,
    maxThreads: threads,
    // workers load TypeScript through tsx, like the main thread
    execArgv: [...process.execArgv, '--import', 'tsx'],
  });
  try {
    const chunk = Math.max(16, Math.ceil(opts.games / (threads * 8)));
    const tasks: Promise<GameRecord[]>[] = [];
    let done = 0;
    for (let start = 0; start < opts.games; start += chunk) {
      const task: SimTask = { ruleset: pkg.ruleset.id, first: (opts.firstSeed + start) >>> 0, count: Math.min(chunk, opts.games - start), config: opts.config, agents: opts.agents };
      tasks.push(
        pool.run(task).then((r) => {
          done += r.length;
          opts.onGame?.(done);
          return r;
        }),
      );
    }
    const parts = await Promise.all(tasks);
    return summarize(pkg.ruleset, opts, parts.flat(), performance.now() - t0, threads);
  } finally {
    await pool.destroy();
  }
}
