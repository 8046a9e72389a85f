// The parallel simulator: seeds split into chunks, played on a piscina worker pool, records put
// back in seed order and summarised exactly as the single-thread simulator does.

import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { getRuleset } from '../registry.ts';
import { simulate, summarize, type GameRecord, type SimOptions, type SimReport } from './sim.ts';
import type { SimTask } from './sim-worker.ts';

export function defaultThreads(): number {
  return Math.max(1, availableParallelism());
}

export async function simulateParallel(rulesetId: string, opts: SimOptions, threads = defaultThreads()): Promise<SimReport> {
  const rs = getRuleset(rulesetId);
  // starting workers costs about half a second each (they load the sources), so small runs stay here
  if (threads <= 1 || opts.games < 1000) return simulate(rs, opts);
  const t0 = performance.now();
  const pool = new Piscina({
    filename: new URL('./sim-worker.ts', import.meta.url).href,
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
      const task: SimTask = { ruleset: rulesetId, first: (opts.firstSeed + start) >>> 0, count: Math.min(chunk, opts.games - start), config: opts.config, agents: opts.agents };
      tasks.push(
        (pool.run(task) as Promise<GameRecord[]>).then((r) => {
          done += r.length;
          opts.onGame?.(done);
          return r;
        }),
      );
    }
    const parts = await Promise.all(tasks);
    return summarize(rs, opts, parts.flat(), performance.now() - t0, threads);
  } finally {
    await pool.destroy();
  }
}
