// `arbiter bench`: every benchmark case from bench/index.ts, or those matching a filter.
// `arbiter bench server [-- OPTIONS]` runs the server benchmark (bench/server.ts) in its own process:
// it starts servers and a load client and has options of its own.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pc } from '../colors.ts';
import type { Command } from 'commander';
import type { CliContext } from '../io.ts';
import { ArbiterError } from '@arbiter/engine/kernel';
import { parseCount } from './config.ts';
import { ROOT } from '../paths.ts';
import { runCase, type BenchResult } from '../../../bench/types.ts';

export function registerBench(program: Command, ctx: CliContext): void {
  program
    .command('bench')
    .description('run the benchmarks (ratios against baselines measured in the same run)')
    .argument(
      '[filter...]',
      "only cases whose name or group contains one of these; 'server [-- OPTIONS]' runs bench/server.ts",
    )
    .option('--budget <ms>', 'CPU milliseconds per case', '1000')
    .option('--list', 'list the cases and exit')
    .option('--json', 'print one JSON object per case per line')
    .action(async (filters: string[], opts: { budget?: string; list?: boolean; json?: boolean }) => {
      if (filters[0] === 'server') {
        // the server bench prints its own table; its options go after `--`
        if (opts.json || opts.list || opts.budget !== '1000')
          throw new ArbiterError(
            'bad_request',
            'bench server takes its own options after "--" (e.g. arbiter bench server -- --runs 1); --json, --list and --budget are for the case benchmarks',
          );
        const script = join(ROOT, 'bench', 'server.ts');
        // it borrows the test suite's throw-away PostgreSQL helper, which an installed package lacks
        if (!existsSync(join(ROOT, 'test', 'server', 'helpers.ts'))) {
          ctx.out('skipped: the server benchmark runs from a source checkout (git clone, npm ci)\n');
          return;
        }
        const r = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), script, ...filters.slice(1)], {
          stdio: 'inherit',
        });
        ctx.exit(r.status ?? 1);
        return;
      }
      const { ALL_CASES, PEERS, POSTPROCESS, peerCases } = await import('../../../bench/index.ts');
      const budget = parseCount(opts.budget, 'budget', 1000, 600_000);
      const wanted = (c: { name: string; group: string }) =>
        filters.length === 0 || filters.some((f) => c.name.includes(f) || c.group.includes(f));
      if (opts.list) {
        for (const c of ALL_CASES) ctx.out(`${c.group.padEnd(10)} ${c.name}\n`);
        for (const p of PEERS)
          for (const name of p.names) ctx.out(`${p.group.padEnd(10)} ${name}  (peer: ${p.peer})\n`);
        return;
      }
      // peers (devDependencies) load only when installed; otherwise one `skipped:` line each
      const peers = await peerCases(wanted, (line) => ctx.err(`${line}\n`));
      const cases = ALL_CASES.filter(wanted);
      for (const c of peers) {
        // after the last own case of the same group, so a group reads together
        let at = cases.length;
        while (at > 0 && cases[at - 1].group !== c.group) at--;
        cases.splice(at === 0 ? cases.length : at, 0, c);
      }
      if (cases.length === 0) throw new ArbiterError('not_found', `no benchmark case matches ${filters.join(', ')}`);
      const results: BenchResult[] = [];
      for (const c of cases) {
        if (!opts.json && ctx.io.stderr.isTTY) ctx.err(pc.dim(`running ${c.name}…\n`));
        results.push(await runCase(c, budget));
      }
      for (const post of POSTPROCESS) post(results);
      if (!opts.json)
        ctx.out(
          pc.bold(`${'case'.padEnd(34)} ${'games/CPU-s'.padStart(14)} ${'moves/CPU-s'.padStart(14)}  extra`) + '\n',
        );
      for (const r of results) {
        if (opts.json) ctx.out(JSON.stringify(r) + '\n');
        else {
          const extra = r.extra
            ? Object.entries(r.extra)
                .map(([k, v]) => `${k}=${v}`)
                .join(' ')
            : '';
          ctx.out(
            `${r.case.padEnd(34)} ${fmt(r.games_per_cpu_s).padStart(14)} ${fmt(r.moves_per_cpu_s).padStart(14)}  ${extra}\n`,
          );
        }
      }
    });
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
