// `arbiter replay LOG [--verify]`: re-execute a match log; fail loudly at the first divergence.

import { readFileSync } from 'node:fs';
import pc from 'picocolors';
import type { Command } from 'commander';
import { ArbiterError, canonicalJson } from '../../kernel/index.ts';
import { getPackage } from '../../registry.ts';
import { parseLog } from '../../runners/logfile.ts';
import { replayLog } from '../../runners/replay.ts';
import { outcomeLine } from './print.ts';

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('re-execute a JSON Lines match log; with --verify, fail on the first divergence')
    .argument('<log>', 'a match log written by `arbiter play --log` or `--json` (- for stdin)')
    .option('--verify', 'compare every result and event with the record (exit 1 on a divergence)')
    .option('--json', 'print the report as JSON')
    .action((file: string, opts: { verify?: boolean; json?: boolean }) => {
      let text: string;
      try {
        text = readFileSync(file === '-' ? 0 : file, 'utf8');
      } catch {
        throw new ArbiterError('not_found', `cannot read ${file}`);
      }
      const log = parseLog(text);
      const rs = getPackage(log.header.ruleset).ruleset;
      const report = replayLog(rs, log);
      if (opts.json) {
        const { state: _s, ...rest } = report;
        process.stdout.write(JSON.stringify(rest, null, 2) + '\n');
      } else if (report.ok) {
        process.stdout.write(`${pc.green('verified')}: ${report.submissions} submissions, ${report.events} events, hash ${report.hash}\n`);
        process.stdout.write(outcomeLine(rs.outcome(report.state)) + '\n');
      } else {
        const d = report.divergence!;
        process.stderr.write(
          `${pc.red('DIVERGED')} at ${d.seq === 'end' ? 'the end of the log' : d.seq === 0 ? 'setup' : `submission ${d.seq}`}: ${d.what}\n  recorded: ${canonicalJson(d.expected)}\n  replayed: ${canonicalJson(d.actual)}\n`,
        );
      }
      if (!report.ok && (opts.verify || opts.json)) process.exitCode = 1;
      if (!report.ok && !opts.verify && !opts.json) process.exitCode = 1;
    });
}
