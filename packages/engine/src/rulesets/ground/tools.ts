// GROUND's own subcommands, declared as data: `arbiter ground edition [PATH]` prints the shipped
// SAMPLE edition (a starting point for `--edition PATH`), or checks an edition file and shows, per
// Scenario, the Problem value in play against the threshold at each player count (the F13 check).
// Files and output go through the ToolIO the CLI hands in, so this folder needs no Node modules.

import { ArbiterError, assertNoPrototypeKeys, type RulesetTool } from '../../kernel/index.ts';
import { parseEdition, SAMPLE_EDITION, valueInPlay, type Edition } from './edition.ts';

export function editionReport(ed: Edition): string {
  const lines = [
    `${ed.id}: ${ed.title}${ed.sample ? ' [SAMPLE]' : ''}`,
    `  ${ed.solutions.length} Solution cards; ${ed.scenarios.length} Scenario cards`,
  ];
  for (const sc of ed.scenarios) {
    const cells = (['2', '3', '4', '5', '6'] as const).map((k) => {
      const inPlay = valueInPlay(sc, Number(k));
      const t = sc.thresholds[k];
      return `${k}p ${inPlay}/${t}${inPlay < t ? ' UNREACHABLE' : ''}`;
    });
    lines.push(`  ${sc.id} (${sc.name}): value in play / threshold: ${cells.join(', ')}`);
  }
  return lines.join('\n');
}

const edition: RulesetTool = {
  name: 'edition',
  description:
    'print the SAMPLE GROUND edition as JSON, or check an edition file and report value in play against thresholds',
  arguments: [{ name: 'path', description: 'an edition JSON file to check' }],
  options: [{ name: 'json', type: 'boolean', description: 'with a path: print the checked edition as JSON' }],
  run(args, options, io) {
    const path = args[0];
    if (path === undefined) {
      io.out(JSON.stringify(SAMPLE_EDITION, null, 2) + '\n');
      return 0;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(io.readText(path));
    } catch (err) {
      throw new ArbiterError(
        'bad_config',
        `cannot read edition ${path}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    assertNoPrototypeKeys(raw, `edition ${path}`, 'bad_config');
    const ed = parseEdition(raw, path);
    io.out((options.json ? JSON.stringify(ed, null, 2) : editionReport(ed)) + '\n');
    return 0;
  },
};

export const tools: RulesetTool[] = [edition];
