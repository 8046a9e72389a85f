// `arbiter rulesets`: the registered rulesets with their game type, agents, tools and presets. The
// listing is a fact of the sources, so the build writes it once (scripts/cli-build.mjs runs this verb
// with --json into build/cli/rulesets.json) and the built command prints from that table instead of
// evaluating every ruleset, which is most of the verb's start-up. From the sources (tsx), or when the
// table is missing or unreadable, the rows are made from the packages.

import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { GameType } from '@arbiter/engine/kernel';
import type { CliContext } from '../io.ts';
import { pc } from '../colors.ts';

interface RulesetRow {
  id: string;
  version: string;
  title: string;
  rules: number;
  uItems: number;
  gameType: GameType;
  agents: { name: string; reads: string; description: string }[];
  tools: string[];
  presets: string[];
  search?: string;
}

/** Beside the built chunk that holds this module (build/cli); there is none beside the source. */
const TABLE = new URL('./rulesets.json', import.meta.url);

async function liveRows(): Promise<RulesetRow[]> {
  const { PACKAGES } = await import('@arbiter/engine');
  const { BUILTIN_NOTES } = await import('@arbiter/engine/agents');
  const { agentNames } = await import('../../agents/resolve.ts');
  return PACKAGES.map((p) => ({
    id: p.ruleset.id,
    version: p.ruleset.version,
    title: p.ruleset.title,
    rules: p.ruleset.catalog.rules.length,
    uItems: p.ruleset.catalog.uItems.length,
    gameType: p.gameType,
    agents: agentNames(p).map((name) => ({
      name,
      reads: p.agents[name]?.reads ?? 'view',
      description: p.agents[name]?.description ?? BUILTIN_NOTES[name] ?? '',
    })),
    tools: p.tools.map((t) => t.name),
    presets: Object.keys(p.presets),
    ...(p.search?.rollout ? { search: p.search.rollout } : {}),
  }));
}

async function rows(): Promise<RulesetRow[]> {
  if (TABLE.protocol === 'file:') {
    try {
      return JSON.parse(readFileSync(TABLE, 'utf8')) as RulesetRow[];
    } catch {
      // no table here (running from the sources): read the packages
    }
  }
  return liveRows();
}

export function registerRulesets(program: Command, ctx: CliContext): void {
  program
    .command('rulesets')
    .description('list the registered rulesets with their game type and agents')
    .option('--json', 'print as JSON')
    .action(async (opts: { json?: boolean }) => {
      const list = await rows();
      if (opts.json) {
        ctx.out(JSON.stringify(list, null, 2) + '\n');
        return;
      }
      for (const r of list) {
        const g = r.gameType;
        const seats = g.seats.min === g.seats.max ? `${g.seats.min}` : `${g.seats.min}-${g.seats.max}`;
        ctx.out(`${pc.bold(r.id.padEnd(10))} ${r.version.padEnd(24)} ${r.title}\n`);
        ctx.out(
          `  ${seats} seats, ${g.turns} turns, chance: ${g.chance}, ${g.information} information, outcome: ${g.outcome.join('+')}; ${r.rules} rules, ${r.uItems} U-items\n`,
        );
        ctx.out(`  agents: ${r.agents.map((a) => `${a.name} (${a.reads})`).join(', ')}\n`);
        if (r.search) ctx.out(`  search: mcts/ismcts play out with ${r.search}\n`);
        if (r.tools.length) ctx.out(`  tools: ${r.tools.map((t) => `arbiter ${r.id} ${t}`).join(', ')}\n`);
      }
      ctx.out(`(view): reads only the seat's view and menu, a fair agent; (state): reads the omniscient state\n`);
    });
}
