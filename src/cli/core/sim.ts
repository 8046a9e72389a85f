// `arbiter sim`: many seeded matches, summary statistics, --json / --csv, a progress bar on a TTY.

import { writeFileSync } from 'node:fs';
import cliProgress from 'cli-progress';
import { pc } from '../colors.ts';
import type { Command } from 'commander';
import type { CliContext } from '../io.ts';
import { ArbiterError } from '@arbiter/engine/kernel';
import { agentNames } from '../../agents/resolve.ts';
import { SIM_WORKER } from '../paths.ts';
import type { SimReport } from '../../runners/sim.ts';
import { defaultThreads, simulateParallel } from '../../runners/sim-parallel.ts';
import { addConfigOptions, buildConfig, parseCount, parseSeed } from './config.ts';
import { perRulesetVerb } from './play.ts';
import { addAgentOptions, agentSession } from './agents-cli.ts';
import { isTransportSpec } from '../../agents/resolve.ts';
import { simulateAsync } from '../../runners/sim.ts';

export function registerSim(program: Command, ctx: CliContext): void {
  perRulesetVerb(program, 'sim', 'simulate many seeded matches and report statistics', (cmd, pkg) => {
    cmd
      .option('-g, --games <k>', 'number of games', '1000')
      .option('-s, --seed <n>', 'seed of the first game (game i uses seed+i)', '1')
      .option(
        '-a, --agents <list>',
        `agent per seat, comma-separated, cycling (${agentNames(pkg).join(', ')})`,
        'random',
      )
      .option('--json', 'print the report as JSON')
      .option('--csv', 'print metrics as CSV (name,mean,min,max)')
      .option('--html <file>', 'also write a self-contained HTML report with charts (opens from disk, no network)')
      .option('-t, --threads <n>', 'worker threads (default: all cores; 1 = this process only)')
      .option(
        '--queue <redis-url>',
        'split the run into shards on a Redis queue (BullMQ) for `arbiter worker` processes on any machine',
      )
      .option('--no-progress', 'no progress bar')
      .option('--concurrency <n>', 'games at once with protocol agents (cmd:, http:, llm:)', '4');
    addAgentOptions(cmd);
    addConfigOptions(cmd, pkg);
    cmd.action(async (opts: Record<string, unknown>) => {
      const rulesetId = pkg.ruleset.id;
      const threads = parseCount(opts.threads as string | undefined, 'threads', defaultThreads(), 256);
      const games = parseCount(opts.games as string, 'games', 1000);
      const firstSeed = parseSeed(opts.seed as string);
      const config = buildConfig(pkg, opts);
      // a config mistake should surface here, once, not inside a worker
      pkg.ruleset.setup(config, firstSeed);
      const tty = Boolean(ctx.io.stderr.isTTY) && opts.progress !== false;
      // games done, games per second since the start, time left: from every worker as shards finish
      const bar = tty
        ? new cliProgress.SingleBar(
            {
              stream: process.stderr,
              format: `${rulesetId} {bar} {value}/{total} games | {rate} games/s | {left} left`,
              hideCursor: true,
            },
            cliProgress.Presets.shades_classic,
          )
        : null;
      const started = performance.now();
      const rate = (done: number) => Math.round(done / Math.max((performance.now() - started) / 1000, 1e-3));
      // time left from the whole run's rate (cli-progress's own estimate lagged by minutes on long runs)
      const left = (done: number) => {
        const r = done / Math.max((performance.now() - started) / 1000, 1e-3);
        if (done === 0 || r <= 0) return '?';
        const s = Math.round((games - done) / r);
        return s >= 3600
          ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
          : s >= 60
            ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
            : `${s}s`;
      };
      bar?.start(games, 0, { rate: 0, left: '?' });
      if (typeof opts.lineup === 'string' && opts.agents !== undefined && opts.agents !== 'random')
        throw new ArbiterError('bad_request', '--lineup and --agents exclude each other');
      // a line-up names its seats itself: the report says which line-up, not the default agents
      const agents = typeof opts.lineup === 'string' ? `lineup:${opts.lineup}` : ((opts.agents as string) ?? 'random');
      const simOpts = {
        games,
        firstSeed,
        config,
        agents,
        onGame: bar ? (d: number) => bar.update(d, { rate: rate(d), left: left(d) }) : undefined,
      };
      // protocol agents (cmd:, http:, llm:) answer asynchronously: checked matches, several at once
      let report: SimReport;
      if (agents.split(',').some((a) => isTransportSpec(a.trim())) || opts.lineup) {
        const session = agentSession(opts);
        report = await simulateAsync(
          pkg,
          simOpts,
          parseCount(opts.concurrency as string, 'concurrency', 4, 256),
          (n) => session.seat(pkg, agents, n),
          { policy: session.policy },
        );
      } else if (typeof opts.queue === 'string') {
        // bullmq and ioredis load only for a queued run
        const { parseRedisUrl, simulateQueued } = await import('../../runners/sim-queue.ts');
        report = await simulateQueued(pkg, simOpts, { redis: parseRedisUrl(opts.queue) });
      } else report = await simulateParallel(pkg, simOpts, { threads, worker: SIM_WORKER });
      bar?.update(games);
      bar?.stop();
      // the charting (Observable Plot, linkedom) loads only when a report file is asked for
      if (typeof opts.html === 'string')
        writeFileSync(opts.html, (await import('../../report/static.ts')).simReportHtml(report));
      if (opts.json) ctx.out(JSON.stringify(report, null, 2) + '\n');
      else if (opts.csv) ctx.out(toCsv(report));
      else ctx.out(toText(report));
    });
  });
}

function toCsv(r: SimReport): string {
  const rows = ['name,mean,min,max', `actions,${r.actions.mean},${r.actions.min},${r.actions.max}`];
  r.win_rate.forEach((w, i) => rows.push(`win_rate_seat_${i},${w},,`));
  for (const [k, s] of Object.entries(r.metrics))
    rows.push(`${k.includes(',') ? JSON.stringify(k) : k},${s.mean},${s.min},${s.max}`);
  return rows.join('\n') + '\n';
}

function toText(r: SimReport): string {
  const out: string[] = [];
  out.push(
    pc.bold(
      `${r.ruleset} (${r.version}): ${r.games} games from seed ${r.first_seed}, agents ${r.agents}, config ${compactConfig(r.config)}`,
    ),
  );
  out.push(`actions per game: mean ${r.actions.mean}, min ${r.actions.min}, max ${r.actions.max}`);
  out.push(
    `endings: ${Object.entries(r.reasons)
      .map(([k, v]) => `${k} ×${v}`)
      .join(', ')}`,
  );
  if (r.defaults)
    out.push(
      `agent defaults: ${
        Object.entries(r.defaults)
          .map(([k, v]) => `${k} ×${v}`)
          .join(', ') || 'none'
      }`,
    );
  out.push(
    `win rate by seat: ${r.win_rate.map((w, i) => `${i}:${(w * 100).toFixed(1)}%`).join('  ')}   no-winner games: ${r.no_winner}`,
  );
  if (r.mean_place) out.push(`mean place by seat: ${r.mean_place.join(' / ')}`);
  if (r.mean_score) out.push(`mean score by seat: ${r.mean_score.join(' / ')}`);
  const m = Object.entries(r.metrics);
  if (m.length) {
    out.push('metrics (mean, min..max per game):');
    const w = Math.max(...m.map(([k]) => k.length));
    for (const [k, s] of m) out.push(`  ${k.padEnd(w)}  ${String(s.mean).padStart(10)}  ${s.min}..${s.max}`);
  }
  out.push(
    pc.dim(
      `${r.wall_ms} ms on ${r.threads === 0 ? 'queue workers' : `${r.threads} thread${r.threads > 1 ? 's' : ''}`}, ${r.games_per_s} games per second`,
    ),
  );
  return out.join('\n') + '\n';
}

function compactConfig(config: unknown): string {
  // an inline edition or board can be large: show its id (or its size) instead of the whole object
  const shown = Object.fromEntries(
    Object.entries((config ?? {}) as Record<string, unknown>).map(([k, v]) => {
      if (v === null || typeof v !== 'object') return [k, v];
      const id = (v as Record<string, unknown>).id;
      return [k, typeof id === 'string' ? `<${k} ${id}>` : JSON.stringify(v).length > 80 ? `<${k}>` : v];
    }),
  );
  return JSON.stringify(shown);
}
