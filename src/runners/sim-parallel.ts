// The parallel simulator: the run's shards played on a piscina worker pool, a bounded number in
// flight, merged in shard order exactly as the single-thread simulator merges them.
//
// Runners never look a ruleset up by id. A worker thread cannot receive a package object (it holds
// functions), so the caller names the worker module: its default export plays a SimTask, finding
// the package by id in a list it imports (the CLI's src/cli/sim-worker.ts uses the registry).

import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { RulesetPackage, Json } from '@arbiter/engine/kernel';
import {
  emptyAggregate,
  mergeAggregate,
  shardsOf,
  simulate,
  summarize,
  type SimAggregate,
  type SimOptions,
  type SimReport,
} from './sim.ts';
import type { SimTask } from './sim-worker.ts';

export function defaultThreads(): number {
  return Math.max(1, availableParallelism());
}

export interface ParallelOptions {
  threads: number;
  /** URL of the worker module (default export: SimTask → SimAggregate; it must know `pkg`). */
  worker: string;
}

/**
 * Run `play` over the shards with at most `window` in flight, merging results in shard order as
 * soon as the next one in order is in, so memory stays bounded for any number of games.
 */
export async function mergeShardsInOrder(
  shards: [number, number][],
  window: number,
  play: (first: number, count: number) => Promise<SimAggregate>,
  onShard?: (gamesDone: number) => void,
): Promise<SimAggregate> {
  const total = emptyAggregate();
  const ready = new Map<number, SimAggregate>();
  let nextToMerge = 0;
  let nextToStart = 0;
  let done = 0;
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    const startMore = () => {
      while (!failed && nextToStart < shards.length && nextToStart - nextToMerge < window) {
        const i = nextToStart++;
        const [first, count] = shards[i];
        play(first, count).then(
          (agg) => {
            ready.set(i, agg);
            done += count;
            onShard?.(done);
            while (ready.has(nextToMerge)) {
              mergeAggregate(total, ready.get(nextToMerge)!);
              ready.delete(nextToMerge++);
            }
            if (nextToMerge === shards.length) resolve();
            else startMore();
          },
          (err: unknown) => {
            failed = true;
            reject(err);
          },
        );
      }
    };
    if (shards.length === 0) resolve();
    else startMore();
  });
  return total;
}

export async function simulateParallel<S, A extends Json>(
  pkg: RulesetPackage<S, A>,
  opts: SimOptions,
  parallel: ParallelOptions,
): Promise<SimReport> {
  const { threads } = parallel;
  // starting workers costs about half a second each (they load the sources), so small runs stay here
  if (threads <= 1 || opts.games < 2000) return simulate(pkg, opts);
  const t0 = performance.now();
  const pool = new Piscina<SimTask, SimAggregate>({
    filename: parallel.worker,
    minThreads: threads,
    maxThreads: threads,
    // a TypeScript worker loads through tsx, like the main thread; by its resolved URL, since a bare
    // 'tsx' would be looked up from the caller's working directory, not from this package. A built
    // worker (.js, the CLI's build) needs no loader and starts faster without one
    execArgv: parallel.worker.endsWith('.ts')
      ? [...process.execArgv, '--import', import.meta.resolve('tsx')]
      : process.execArgv,
    // a worker holds one game at a time; V8's default heap sizing lets each thread grow to well over
    // 100 MB before collecting (GROUND, two threads: about 355 MB peak RSS). A 16 MB young generation
    // keeps two threads near 240 MB at about the default's CPU per game; 8 MB cost about 25% more
    // CPU per game with two threads (many more scavenges). docs/sim.md has the A/B. The old
    // generation's cap only guards against a runaway agent (an OOM ends the worker, not the host)
    resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 256 },
  });
  try {
    const total = await mergeShardsInOrder(
      shardsOf(opts),
      threads * 4,
      (first, count) => pool.run({ ruleset: pkg.ruleset.id, first, count, config: opts.config, agents: opts.agents }),
      opts.onGame,
    );
    return summarize(pkg.ruleset, opts, total, performance.now() - t0, threads);
  } finally {
    await pool.destroy();
  }
}
