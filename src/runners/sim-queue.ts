// Simulation beyond one machine: a run's shards become BullMQ jobs on Redis; `arbiter worker`
// processes on any machine play them; the coordinator merges the returned aggregates in shard
// order, so the report equals a local run of the same seeds. A worker killed mid-shard leaves its
// job stalled; BullMQ's stalled-job check hands it to another worker, and because a shard's
// result is stored once under its job id it is counted once.
//
// Runners import no registry: the worker side receives the package list from its caller.

import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import { ArbiterError, canonicalJson, StreamHash, type RulesetPackage, type Json } from '@arbiter/engine/kernel';
import {
  addRecord,
  emptyAggregate,
  playRecord,
  shardsOf,
  summarize,
  type SimAggregate,
  type SimOptions,
  type SimReport,
} from './sim.ts';
import type { SimTask } from './sim-worker.ts';
import { mergeShardsInOrder } from './sim-parallel.ts';

const QUEUE_NAME = 'arbiter-sim';

export interface RedisTarget {
  host: string;
  port: number;
  password?: string;
  db?: number;
}

/** `redis://[:password@]host:port[/db]` → connection options; anything else is a typed error. */
export function parseRedisUrl(url: string): RedisTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ArbiterError('bad_request', `not a redis:// URL: "${url}"`);
  }
  if (u.protocol !== 'redis:') throw new ArbiterError('bad_request', `the queue must be a redis:// URL, got "${url}"`);
  const port = u.port === '' ? 6379 : Number(u.port);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  if (db !== undefined && (!Number.isInteger(db) || db < 0))
    throw new ArbiterError('bad_request', `bad Redis database number in "${url}"`);
  return {
    host: u.hostname || '127.0.0.1',
    port,
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(db !== undefined ? { db } : {}),
  };
}

function connection(t: RedisTarget) {
  // BullMQ needs maxRetriesPerRequest null on the connections it blocks on
  return { host: t.host, port: t.port, password: t.password, db: t.db, maxRetriesPerRequest: null };
}

/** A run's identity: the same run submitted again finds (and reuses) the shards already played. */
function runId(pkgVersion: string, opts: SimOptions, rulesetId: string): string {
  const h = new StreamHash();
  h.update(
    canonicalJson({
      ruleset: rulesetId,
      version: pkgVersion,
      config: opts.config,
      agents: opts.agents,
      first: opts.firstSeed,
      games: opts.games,
    }),
  );
  return h.digest();
}

export interface QueueSimOptions {
  redis: RedisTarget;
  /** Stop waiting after this long without any shard finishing (default 10 minutes). */
  idleTimeoutMs?: number;
}

/** Coordinator: enqueue the run's shards, wait for workers, merge in shard order. */
export async function simulateQueued<S, A extends Json>(
  pkg: RulesetPackage<S, A>,
  opts: SimOptions,
  q: QueueSimOptions,
): Promise<SimReport> {
  const t0 = performance.now();
  const conn = connection(q.redis);
  const queue = new Queue<SimTask, SimAggregate>(QUEUE_NAME, { connection: conn });
  const events = new QueueEvents(QUEUE_NAME, { connection: conn });
  // up to 256 shards are awaited at once, each with its own listeners (Node warns past 10)
  queue.setMaxListeners(300);
  events.setMaxListeners(300);
  try {
    await events.waitUntilReady();
    const id = runId(pkg.ruleset.version, opts, pkg.ruleset.id);
    const shards = shardsOf(opts);
    // one job per shard, its id fixed by the run and shard, so a resubmitted run adds nothing twice
    await queue.addBulk(
      shards.map(([first, count], i) => ({
        name: 'shard',
        data: { ruleset: pkg.ruleset.id, first, count, config: opts.config, agents: opts.agents },
        opts: { jobId: `${id}-${i}`, attempts: 3, removeOnComplete: false, removeOnFail: false },
      })),
    );
    const index = new Map(shards.map(([first], i) => [first, i]));
    const idle = q.idleTimeoutMs ?? 600_000;
    const total = await mergeShardsInOrder(
      shards,
      256,
      async (first) => {
        const job = await queue.getJob(`${id}-${index.get(first)}`);
        if (!job) throw new ArbiterError('not_found', `shard ${first} vanished from the queue`);
        const result = (await job.waitUntilFinished(events, idle)) as SimAggregate;
        return result;
      },
      opts.onGame,
    );
    // the run is merged: its jobs are no longer needed
    await Promise.all(shards.map((_, i) => queue.remove(`${id}-${i}`)));
    return summarize(pkg.ruleset, opts, total, performance.now() - t0, 0);
  } finally {
    await events.close();
    await queue.close();
  }
}

/**
 * Play a shard in slices, giving the event loop a turn every few milliseconds so BullMQ can renew
 * the job's lock: a worker busy for longer than its lock would otherwise look dead.
 */
async function playTaskYielding(packages: readonly RulesetPackage[], task: SimTask): Promise<SimAggregate> {
  const pkg = packages.find((p) => p.ruleset.id === task.ruleset);
  if (!pkg) throw new ArbiterError('not_found', `this worker knows no ruleset "${task.ruleset}"`);
  // records are folded one by one, exactly as playShard folds them, so sums agree to the bit
  const total = emptyAggregate();
  let sliceStart = performance.now();
  for (let i = 0; i < task.count; i++) {
    addRecord(total, playRecord(pkg, (task.first + i) >>> 0, task.config, task.agents));
    if (performance.now() - sliceStart > 20) {
      await new Promise((r) => setImmediate(r));
      sliceStart = performance.now();
    }
  }
  return total;
}

export interface WorkerOptions {
  redis: RedisTarget;
  /** Jobs processed at once in this process (default 1: a shard is CPU-bound). */
  concurrency?: number;
  /** How long a job's lock lasts without renewal, and how often stalled jobs are looked for (ms). */
  lockMs?: number;
  stalledMs?: number;
  onShard?: (task: SimTask, ms: number) => void;
}

/** Worker: play shards from the queue until closed. Returns a handle to close it. */
export function startQueueWorker(
  packages: readonly RulesetPackage[],
  o: WorkerOptions,
): { close(): Promise<void>; ready: Promise<void> } {
  const worker = new Worker<SimTask, SimAggregate>(
    QUEUE_NAME,
    async (job: Job<SimTask, SimAggregate>) => {
      const t = performance.now();
      const result = await playTaskYielding(packages, job.data);
      o.onShard?.(job.data, performance.now() - t);
      return result;
    },
    {
      connection: connection(o.redis),
      concurrency: o.concurrency ?? 1,
      lockDuration: o.lockMs ?? 30_000,
      stalledInterval: o.stalledMs ?? 30_000,
      // a shard killed with its worker is retried, not failed
      maxStalledCount: 10,
    },
  );
  return { ready: worker.waitUntilReady().then(() => undefined), close: () => worker.close() };
}
