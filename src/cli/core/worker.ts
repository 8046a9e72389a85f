// `arbiter worker redis://HOST:PORT`: play simulation shards from the queue until stopped.

import type { Command } from 'commander';
import type { CliContext } from '../io.ts';
import { PACKAGES } from '@arbiter/engine';
import { parseCount } from './config.ts';

export function registerWorker(program: Command, ctx: CliContext): void {
  program
    .command('worker')
    .description('process `sim --queue` shards from a Redis queue (BullMQ) until stopped (SIGINT/SIGTERM)')
    .argument('<redis-url>', 'redis://HOST:PORT of the queue')
    .option('--concurrency <n>', 'shards played at once in this process', '1')
    .option('--lock-ms <ms>', 'job lock duration; a worker silent this long is presumed dead', '30000')
    .option('--stalled-ms <ms>', 'how often stalled shards are looked for and handed to another worker', '30000')
    .option('-q, --quiet', 'no line per shard')
    .action(async (url: string, opts: { concurrency: string; lockMs: string; stalledMs: string; quiet?: boolean }) => {
      const { parseRedisUrl, startQueueWorker } = await import('../../runners/sim-queue.ts');
      const w = startQueueWorker(PACKAGES, {
        redis: parseRedisUrl(url),
        concurrency: parseCount(opts.concurrency, 'concurrency', 1, 64),
        lockMs: parseCount(opts.lockMs, 'lock-ms', 30000, 3_600_000),
        stalledMs: parseCount(opts.stalledMs, 'stalled-ms', 30000, 3_600_000),
        onShard: opts.quiet
          ? undefined
          : (t, ms) => ctx.err(`shard ${t.ruleset} seeds ${t.first}..${t.first + t.count - 1}: ${Math.round(ms)} ms\n`),
      });
      await w.ready;
      ctx.err(`worker ready on ${url}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => void w.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
