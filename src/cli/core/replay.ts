// `arbiter replay LOG [--verify] [--partial]`: re-execute a match log as a stream and stop at the
// first thing that is wrong, with an exit code per kind of problem (docs/logs.md).

import { pc } from '../colors.ts';
import type { Command } from 'commander';
import type { CliContext } from '../io.ts';
import { canonicalJson, type Ruleset } from '@arbiter/engine/kernel';
import { REGISTRY, rulesetAt } from '@arbiter/engine';
import { VERIFY_EXIT, verifyLogFile } from '../../runners/replay.ts';
import { outcomeLine } from './print.ts';

export function registerReplay(program: Command, ctx: CliContext): void {
  program
    .command('replay')
    .description(
      're-execute a JSON Lines match log and fail on the first thing that is wrong (exit codes in docs/logs.md)',
    )
    .argument('<log>', 'a match log written by `arbiter play --log` or `--json` (- for stdin)')
    .option('--verify', 'check every line, count and hash (the default; kept for scripts)')
    .option('--partial', 'accept a log with no footer yet (a match still running) and say so')
    .option('--json', 'print the report as JSON')
    .action(async (file: string, opts: { verify?: boolean; partial?: boolean; json?: boolean }) => {
      const report = await verifyLogFile(file, {
        partial: opts.partial,
        resolve: (id, version) => rulesetAt(id, version) as Ruleset<unknown> | undefined,
      });
      if (opts.json) {
        const { state: _s, ...rest } = report;
        ctx.out(JSON.stringify({ ...rest, exit: VERIFY_EXIT[report.status] }, null, 2) + '\n');
      } else if (report.ok) {
        ctx.out(`${pc.green(report.status)}: ${report.message.replace(/^(verified|partial): /, '')}\n`);
        const rs = REGISTRY.get(report.ruleset!)!.ruleset as Ruleset<unknown>;
        ctx.out(outcomeLine(rs.outcome(report.state)) + '\n');
      } else {
        ctx.err(`arbiter: ${pc.red(report.status)}: ${report.message}\n`);
        const d = report.divergence;
        if (d) ctx.err(`  recorded: ${canonicalJson(d.expected)}\n  replayed: ${canonicalJson(d.actual)}\n`);
      }
      ctx.exit(VERIFY_EXIT[report.status]);
    });
}
