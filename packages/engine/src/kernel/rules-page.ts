// The public rules page of a ruleset, generated from its catalog and game type, so the page
// `arbiter rules RULESET` prints and the committed docs/rules/<id>.md cannot drift from the code.

import type { Ruleset } from './contract.ts';
import type { GameType } from './package.ts';

export function catalogRulesPage(rs: Ruleset, type: GameType): string {
  const out: string[] = [];
  out.push(
    `# ${rs.title}`,
    '',
    `Ruleset \`${rs.id}\`, version \`${rs.version}\`. This page is generated from the catalog (\`arbiter rules ${rs.id}\`).`,
    '',
  );
  const seats = type.seats.min === type.seats.max ? `${type.seats.min}` : `${type.seats.min}–${type.seats.max}`;
  out.push('## Game type', '', '| property | value |', '|---|---|');
  out.push(
    `| seats | ${seats} |`,
    `| turns | ${type.turns} |`,
    `| chance | ${type.chance} |`,
    `| information | ${type.information} |`,
    `| outcome | ${type.outcome.join(', ')} |`,
  );
  if (type.defaultAction) out.push(`| default action | ${type.defaultAction} |`);
  out.push('', '## Rules', '');
  let group: string | undefined;
  for (const r of rs.catalog.rules) {
    if (r.group !== group) {
      group = r.group;
      if (group) out.push('', `### ${group}`, '');
    }
    out.push(`- **${r.id}** ${r.summary}`);
  }
  if (rs.catalog.uItems.length) {
    out.push('', '## Underdetermined points and the defaults used', '');
    for (const u of rs.catalog.uItems) out.push(`- **${u.id}** ${u.question} — default: ${u.default} (${u.why})`);
  }
  return out.join('\n') + '\n';
}
