// Queue vs local pool (issue 15 "Performance"): games per CPU-second of `sim` on a Redis queue
// with one and two `arbiter worker` processes, against the local piscina pool, on GROUND with
// random agents. Three runs of each; prints median and range.
//
//   node --import tsx bench/queue.ts [--games 30000] [--runs 3]
//
// - local, 1 thread: simulateParallel plays in this process (after a warm-up run); its CPU is
//   process.cpuUsage. Local pool, 2 threads: process.cpuUsage counts every thread, start-up
//   included (loading the sources and compiling in each new thread), so the steady rate is taken
//   from two run sizes: (big - small games) / (big - small CPU seconds).
// - queue (1 / 2 workers): worker processes started once and left ready; their CPU is read from
//   /proc/PID/stat before and after each run, so it holds only shard play and queue traffic. The
//   coordinator (this process) is reported beside them.
// Targets: queue games per CPU-second per worker within 5% of the local pool's; two workers at
// least 1.8× one in games per second (wall clock).
// Needs redis-server (Debian's); without it this prints one `skipped: Redis not installed` line.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { groundPackage } from '@arbiter/engine/rulesets/ground';
import { simulateParallel } from '../src/runners/sim-parallel.ts';
import { parseRedisUrl, simulateQueued } from '../src/runners/sim-queue.ts';
import { reportFingerprint } from '../src/runners/sim.ts';
import { SIM_WORKER } from '../src/cli/paths.ts';
import { startRedis } from '../test/support/redis.ts';

const args = process.argv.slice(2);
const flag = (name: string, d: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const GAMES = flag('games', 30000);
const RUNS = flag('runs', 3);
// the pool's small run: its minimum size (smaller runs stay in this thread)
const SMALL = 2000;
const TICK = 100; // Linux USER_HZ: /proc/PID/stat counts CPU in hundredths of a second

/** CPU seconds a process has used (user + system). */
function procCpu(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / TICK;
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const opts = (games: number, firstSeed: number) => ({ games, firstSeed, config: { players: 4 }, agents: 'random' });

type Row = { name: string; perCpu: number[]; perSec: number[]; extra: string[] };

async function local(threads: number, run: number): Promise<{ perCpu: number; perSec: number }> {
  const seed = 1 + run * 1_000_000;
  if (threads === 1) {
    // one thread plays in this process: no start-up to take out
    const c = cpuNow();
    const t = performance.now();
    await simulateParallel(groundPackage, opts(GAMES, seed), { threads, worker: SIM_WORKER });
    return { perCpu: GAMES / (cpuNow() - c), perSec: GAMES / ((performance.now() - t) / 1000) };
  }
  const c0 = cpuNow();
  await simulateParallel(groundPackage, opts(SMALL, seed), { threads, worker: SIM_WORKER });
  const c1 = cpuNow();
  const t = performance.now();
  await simulateParallel(groundPackage, opts(GAMES, seed), { threads, worker: SIM_WORKER });
  const wall = (performance.now() - t) / 1000;
  const c2 = cpuNow();
  return { perCpu: (GAMES - SMALL) / (c2 - c1 - (c1 - c0)), perSec: GAMES / wall };
}

function startWorker(url: string): Promise<ChildProcess> {
  const p = spawn(process.execPath, ['bin/arbiter.js', 'worker', url, '-q'], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    p.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('worker ready')) resolve(p);
    });
    p.once('exit', (code) => reject(new Error(`worker exited (${code}): ${err}`)));
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (xs: number[]) =>
  `${Math.round(median(xs))} (${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))})`.padEnd(22);

async function main(): Promise<void> {
  const redis = await startRedis();
  if (!redis) {
    console.log('skipped: Redis not installed');
    return;
  }
  const load0 = loadavg();
  const rows: Row[] = [];
  const workers: ChildProcess[] = [];
  try {
    // warm this process up (the one-thread rows play here)
    await simulateParallel(groundPackage, opts(4000, 98_000_000), { threads: 1, worker: SIM_WORKER });
    for (const threads of [1, 2]) {
      const row: Row = {
        name: `local pool, ${threads} thread${threads > 1 ? 's' : ''}`,
        perCpu: [],
        perSec: [],
        extra: [],
      };
      for (let r = 0; r < RUNS; r++) {
        const m = await local(threads, r);
        row.perCpu.push(m.perCpu);
        row.perSec.push(m.perSec);
      }
      rows.push(row);
    }
    const target = parseRedisUrl(redis.url);
    for (const n of [1, 2]) {
      while (workers.length < n) workers.push(await startWorker(redis.url));
      // a warm-up run so every worker has compiled the hot path
      await simulateQueued(groundPackage, opts(4000 * n, 99_000_000 + n), { redis: target });
      const row: Row = { name: `queue, ${n} worker${n > 1 ? 's' : ''}`, perCpu: [], perSec: [], extra: [] };
      const coord: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const o = opts(GAMES, 1 + r * 1_000_000);
        const w0 = workers.map((w) => procCpu(w.pid!));
        const c0 = cpuNow();
        const t = performance.now();
        const report = await simulateQueued(groundPackage, o, { redis: target });
        const wall = (performance.now() - t) / 1000;
        const coordCpu = cpuNow() - c0;
        const wCpu = workers.reduce((sum, w, i) => sum + procCpu(w.pid!) - w0[i], 0);
        if (report.games !== GAMES) throw new Error(`queued run reported ${report.games} games`);
        if (r === 0 && n === 1) {
          // the queue must give the local report, or its speed means nothing
          const { simulate } = await import('../src/runners/sim.ts');
          if (reportFingerprint(report) !== reportFingerprint(simulate(groundPackage, o)))
            throw new Error('queued report differs from the local one');
        }
        row.perCpu.push(GAMES / wCpu);
        row.perSec.push(GAMES / wall);
        coord.push(coordCpu);
      }
      row.extra.push(`coordinator ${median(coord).toFixed(2)} CPU-s a run`);
      rows.push(row);
    }
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await redis.stop();
  }
  const load1 = loadavg();
  console.log(
    `GROUND, 4 players, random agents, ${GAMES} games a run, ${RUNS} runs; median (min–max); load average ${load0
      .map((x) => x.toFixed(2))
      .join(' ')} at start, ${load1.map((x) => x.toFixed(2)).join(' ')} at end`,
  );
  console.log(`${'setup'.padEnd(24)}${'games per CPU-s'.padEnd(24)}${'games/s (wall)'.padEnd(24)}note`);
  for (const r of rows) console.log(`${r.name.padEnd(24)}${fmt(r.perCpu)}  ${fmt(r.perSec)}  ${r.extra.join('; ')}`);
  const pct = (a: Row, b: Row) => `${((median(a.perCpu) / median(b.perCpu)) * 100).toFixed(1)}%`;
  const [one, pool2, q1, q2] = rows;
  const scale = median(q2.perSec) / median(q1.perSec);
  console.log(
    `queue games per CPU-s as a share of the local pool's (2 threads): 1 worker ${pct(q1, pool2)}, 2 workers ${pct(q2, pool2)}; of one local thread: ${pct(q1, one)}, ${pct(q2, one)} (target ≥ 95%)`,
  );
  console.log(`two workers vs one (games/s): ${scale.toFixed(2)}× (target ≥ 1.8×)`);
}

await main();
