// The public rules page, generated from the catalog so it cannot drift from the engine.
// `arbiter rules bnc` prints it for the working tree (docs/rules/bnc.md is the committed copy);
// `arbiter bnc lock --sha SHA` publishes it with the pinned commit as rulesets/<version>/rules.md.

import { BEATS } from './beats.ts';
import { catalog } from './catalog.ts';
import {
  ALLIANCE_TURNS_MAX,
  GUILD_TERM_MAX,
  INVITATION_TURNS,
  OFFER_ITEMS_MAX,
  OFFER_TURNS_MAX,
  TEXT_MAX,
  ZONE_NAMES,
} from './constants.ts';
import { ACTION_TYPES } from './schema.ts';

/** A version's manifest: the seed it implements and the engine commit that released it (null: unreleased). */
export type Manifest = { ruleset: string; version: string; seed: string; engine_sha: string | null };

/** The contestant policy the seed names for bnc-1.1: who plays, not a rule. */
const CONTESTANT_POLICY = 'llm-mixed-provider-scarcity-stated-v1';

export function renderRulesPage(m: Manifest): string {
  const out: string[] = [];
  const dir = `rulesets/${m.version}/`;
  out.push(`# ${m.version} — the Episode 2 survival match`);
  out.push('');
  out.push('<!-- generated from packages/engine/src/rulesets/bnc/catalog.ts; do not edit by hand -->');
  out.push('');
  out.push(`Ruleset id \`${m.ruleset}\`, version \`${m.version}\`, from seed \`${m.seed}\`.`);
  if (m.engine_sha === null) {
    out.push(
      `This page describes the working tree: \`engine_sha\` is null until \`arbiter bnc lock --sha SHA\` releases the version`,
    );
    out.push(`into \`${dir}\` (its \`manifest.json\` with the pinned commit and this page as \`rules.md\`).`);
  } else {
    out.push(
      `Released: this page is published from \`${dir}rules.md\`; the directory and \`engine_sha\` ${m.engine_sha}`,
    );
    out.push(
      'together identify the ruleset, and checking that commit out replays any log whose header names this version.',
    );
  }
  out.push('A match with any config other than the default (for example other than four contestants) is a variant,');
  out.push(`labelled \`${m.version}-variant(...)\` in its state and setup events, not a ${m.version} match (BNC-U24).`);
  out.push('');
  out.push('Four contestants race along a six-zone spine for three access fragments while a Stage Warden');
  out.push('guards the Exit. Each turn every contestant still inside submits one action, chosen from an');
  out.push('authoritative menu and checked against a JSON Schema; the turn resolves when all are in.');
  out.push('');
  out.push(`Zones: ${ZONE_NAMES.map((n, i) => `${i} ${n}`).join(', ')}.`);
  out.push('');
  out.push(
    `Actions: ${ACTION_TYPES.map((t) => `\`${t}\``).join(', ')}. Limits: text ${TEXT_MAX} code points; offers ${OFFER_ITEMS_MAX} items a side for up to ${OFFER_TURNS_MAX} turns; pacts up to ${ALLIANCE_TURNS_MAX} turns; guild terms up to ${GUILD_TERM_MAX} turns; invitations ${INVITATION_TURNS} turns.`,
  );
  out.push('');
  let group = '';
  for (const r of catalog.rules) {
    if (r.group !== group) {
      group = r.group ?? '';
      out.push(`## ${group}`);
      out.push('');
    }
    out.push(`- **${r.id}** ${r.summary}`);
  }
  out.push('');
  out.push('## Contestant policy');
  out.push('');
  out.push(
    `The contestant policy is \`${CONTESTANT_POLICY}\`: it names who plays (the seed's line), not a rule; the engine`,
  );
  out.push('does not model it, and any agent (an LLM behind the `cmd:` subprocess agent included) can take a seat.');
  out.push('');
  out.push('## Beat taxonomy');
  out.push('');
  out.push(
    'Beats are events `{"type":"beat","beat":NAME,"turn":N,...}` in the event stream; `arbiter bnc beats LOG` lists them.',
  );
  out.push('');
  out.push('| beat | rule | definition |');
  out.push('|---|---|---|');
  for (const b of BEATS) out.push(`| ${b.beat} | ${b.id} | ${b.definition} |`);
  out.push('');
  out.push('## Underdetermined points and the defaults the engine uses');
  out.push('');
  for (const u of catalog.uItems) {
    out.push(`### ${u.id}: ${u.question}`);
    out.push('');
    out.push(`- Default: ${u.default}`);
    out.push(`- Why: ${u.why}`);
    if (u.rules?.length) out.push(`- Bears on: ${u.rules.join(', ')}`);
    out.push('');
  }
  return out.join('\n');
}
