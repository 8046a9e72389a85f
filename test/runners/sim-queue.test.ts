// Simulation on a Redis queue: three worker processes, one killed with SIGKILL mid-run; the
// merged report equals the local run of the same seeds, every shard counted once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { groundPackage } from '../../packages/engine/src/rulesets/ground/index.ts';
import { reportFingerprint, simulate } from '../../src/runners/sim.ts';
import { parseRedisUrl, simulateQueued } from '../../src/runners/sim-queue.ts';
import { startRedis } from '../support/redis.ts';

function worker(url: string): ChildProcess {
  return spawn(process.execPath, ['bin/arbiter.js', 'worker', url, '--lock-ms', '4000', '--stalled-ms', '1000', '-q'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: false,
  });
}

test("[sim] a queued run with a worker killed mid-run gives the local run's report, each shard once", async (t) => {
  const redis = await startRedis();
  if (!redis) {
    console.log('skipped: Redis not installed');
    t.skip('Redis not installed');
    return;
  }
  const workers: ChildProcess[] = [];
  try {
    const opts = { games: 6000, firstSeed: 11, config: { players: 3 }, agents: 'random' };
    for (let i = 0; i < 3; i++) workers.push(worker(redis.url));
    let killed = false;
    const queued = await simulateQueued(
      groundPackage,
      {
        ...opts,
        onGame: (done) => {
          // kill one worker as soon as the first shard is in: the others are mid-shard
          if (!killed && done >= 1000) {
            killed = true;
            workers[0].kill('SIGKILL');
          }
        },
      },
      { redis: parseRedisUrl(redis.url), idleTimeoutMs: 120_000 },
    );
    assert.ok(killed, 'a worker was killed during the run');
    const local = simulate(groundPackage, opts);
    assert.equal(queued.games, 6000);
    assert.equal(reportFingerprint(queued), reportFingerprint(local));
  } finally {
    for (const w of workers) w.kill('SIGKILL');
    await redis.stop();
  }
});

test('[sim] a queue URL that is not redis:// is a typed error', () => {
  assert.throws(() => parseRedisUrl('http://x'), /redis:\/\//);
  assert.throws(() => parseRedisUrl('nonsense'), /not a redis/);
  assert.deepEqual(parseRedisUrl('redis://:pw@h:1234/2'), { host: 'h', port: 1234, password: 'pw', db: 2 });
});
