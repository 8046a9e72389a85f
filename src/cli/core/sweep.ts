// `arbiter sweep FILE.yaml`: a grid of configs × line-ups, one simulated row per cell.

import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import type { CliContext } from '../io.ts';
import { parse as parseYaml } from 'yaml';
import { ArbiterError } from '@arbiter/engine/kernel';
import { getPackage } from '@arbiter/engine';
import { defaultThreads, simulateParallel } from '../../runners/sim-parallel.ts';
import { headlineText, parseSweep, runSweep, type SweepRow } from '../../runners/sweep.ts';
import { SIM_WORKER } from '../paths.ts';
import { parseCount } from './config.ts';

const MAX_FILE = 1 << 20;

function readSweepFile(path: string): unknown {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new ArbiterError('not_found', `cannot read ${path}`);
  }
  if (size > MAX_FILE)
    throw new ArbiterError('too_large', `${path} is ${size} bytes; a sweep file may be at most ${MAX_FILE}`);
  try {
    return parseYaml(readFileSync(path, 'utf8'), { schema: 'core', uniqueKeys: true });
  } catch (err) {
    throw new ArbiterError('bad_config', `${path}: ${(err as Error).message.split('\n')[0]}`);
  }
}

export function registerSweep(program: Command, ctx: CliContext): void {
  program
    .command('sweep')
    .description(
      'simulate a grid of configs × line-ups (a YAML file: ruleset, games, seed, base, grid, agents) and report each cell',
    )
    .argument('<file>', 'the sweep file')
    .option('-t, --threads <n>', 'worker threads per cell (default: all cores)')
    .option('--json', "print every cell's full report as JSON")
    .option('--csv', 'print one CSV row per cell')
    .action(async (file: string, opts: { threads?: string; json?: boolean; csv?: boolean }) => {
      const spec = parseSweep(readSweepFile(file), file);
      const pkg = getPackage(spec.ruleset);
      const threads = parseCount(opts.threads, 'threads', defaultThreads(), 256);
      const rows = await runSweep(
        pkg,
        spec,
        (p, o) => simulateParallel(p, o, { threads, worker: SIM_WORKER }),
        (i, n) => {
          if (ctx.io.stderr.isTTY) ctx.err(`\rcell ${i + 1}/${n}`);
        },
      );
      if (ctx.io.stderr.isTTY) ctx.err('\n');
      if (opts.json) ctx.out(JSON.stringify(rows, null, 2) + '\n');
      else ctx.out(opts.csv ? csv(rows) : table(rows));
    });
}

function metricNames(rows: SweepRow[]): string[] {
  return [...new Set(rows.flatMap((r) => Object.keys(r.report.metrics)))].sort();
}

function csv(rows: SweepRow[]): string {
  const keys = [
    ...new Set(rows.flatMap((r) => Object.keys(r.config).filter((k) => typeof r.config[k] !== 'object'))),
  ].sort();
  const metrics = metricNames(rows);
  const head = [...keys, 'agents', 'games', 'win_rate', 'no_winner', ...metrics.map((m) => `${m}_mean`)];
  const q = (v: unknown) => (typeof v === 'string' && /[",\n]/.test(v) ? JSON.stringify(v) : String(v ?? ''));
  const lines = rows.map((r) =>
    [
      ...keys.map((k) => q(r.config[k])),
      q(r.agents),
      r.report.games,
      q(r.report.win_rate.join(' ')),
      r.report.no_winner,
      ...metrics.map((m) => r.report.metrics[m]?.mean ?? ''),
    ].join(','),
  );
  return [head.join(','), ...lines].join('\n') + '\n';
}

function table(rows: SweepRow[]): string {
  const metrics = metricNames(rows).slice(0, 6);
  const out: string[] = [];
  for (const r of rows) {
    const cfg = Object.entries(r.config)
      .filter(([, v]) => typeof v !== 'object')
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    const wr = r.report.win_rate.map((w) => (w * 100).toFixed(0) + '%').join('/');
    const ms = metrics.map((m) => `${m} ${r.report.metrics[m]?.mean ?? '-'}`).join(', ');
    // the ruleset's declared headline first: GROUND's group success by mode and player count
    const head = headlineText(r.report);
    out.push(
      `${cfg || '(base)'} | ${r.agents}${head ? ` | ${head}` : ''} | wins ${wr} | no winner ${r.report.no_winner}/${r.report.games}${ms ? ' | ' + ms : ''}`,
    );
  }
  return out.join('\n') + '\n';
}
