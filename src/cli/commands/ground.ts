// GROUND-specific verb: `arbiter ground-edition [PATH]` prints the shipped SAMPLE edition (a
// starting point for `--edition PATH`), or checks an edition file and shows, per Scenario, the
// Problem value in play against the threshold at each player count (the F13 check).

import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ArbiterError } from '../../kernel/index.ts';
import { parseEdition, SAMPLE_EDITION, valueInPlay, type Edition } from '../../rulesets/ground/edition.ts';

export function editionReport(ed: Edition): string {
  const lines = [`${ed.id}: ${ed.title}${ed.sample ? ' [SAMPLE]' : ''}`, `  ${ed.solutions.length} Solution cards; ${ed.scenarios.length} Scenario cards`];
  for (const sc of ed.scenarios) {
    const cells = [2, 3, 4, 5, 6].map((n) => {
      const inPlay = valueInPlay(sc, n);
      const t = sc.thresholds[String(n) as '2'];
      return `${n}p ${inPlay}/${t}${inPlay < t ? ' UNREACHABLE' : ''}`;
    });
    lines.push(`  ${sc.id} (${sc.name}): value in play / threshold: ${cells.join(', ')}`);
  }
  return lines.join('\n');
}

export function register(program: Command): void {
  program
    .command('ground-edition [path]')
    .description('print the SAMPLE GROUND edition as JSON, or check an edition file and report value in play against thresholds')
    .option('--json', 'with a path: print the checked edition as JSON')
    .action((path: string | undefined, opts: { json?: boolean }) => {
      if (path === undefined) {
        process.stdout.write(JSON.stringify(SAMPLE_EDITION, null, 2) + '\n');
        return;
      }
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(path, 'utf8'));
      } catch (err) {
        throw new ArbiterError('bad_config', `cannot read edition ${path}: ${(err as Error).message}`);
      }
      const ed = parseEdition(raw, path);
      process.stdout.write(opts.json ? JSON.stringify(ed, null, 2) + '\n' : editionReport(ed) + '\n');
    });
}
