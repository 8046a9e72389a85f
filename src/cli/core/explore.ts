// `arbiter explore RULESET`: exhaustive breadth-first exploration of a bounded configuration with
// invariant, contract, deadlock and goal checks (src/runners/explore.ts). Without --preset or
// --config it explores every preset named "ci" or "ci-*" the ruleset ships (goals are judged over
// all of them together), else its default config. --preset takes one name or a comma list.

import type { Command } from 'commander';
import type { CliContext } from '../io.ts';
import { canonicalJson } from '@arbiter/engine/kernel';
import { getPackage } from '@arbiter/engine';
import { explore, formatReport, formatGoals, mergeGoals, type ExploreReport } from '../../runners/explore.ts';
import { buildConfig, parseCount, parseSeed } from './config.ts';

interface Opts {
  preset?: string;
  config?: string;
  set?: string[];
  seed?: string;
  maxStates?: string;
  maxDepth?: string;
  check?: boolean;
  invariants?: boolean;
  violations?: string;
  exact?: boolean;
  validateMenus?: boolean;
  json?: boolean;
  traces?: boolean;
}

export function registerExplore(program: Command, ctx: CliContext): void {
  program
    .command('explore')
    .description(
      'exhaustively explore a bounded configuration: invariants, per-transition contracts, deadlocks, branch goals, shortest counterexample',
    )
    .argument('<ruleset>', 'ruleset id')
    .option(
      '--preset <names>',
      'named configs the ruleset ships, comma-separated (default: every "ci" and "ci-*" preset, goals judged over all)',
    )
    .option('--config <json>', 'config as a JSON object or a JSON file')
    .option('--set <key=value...>', 'override one config field')
    .option('--seed <n>', 'game seed', '1')
    .option('--max-states <n>', 'stop (incomplete) after this many distinct states', '2000000')
    .option('--max-depth <n>', 'stop (incomplete) below this depth')
    .option('--no-check', 'skip the per-transition contract checks (ruleset.checkTransition)')
    .option('--no-invariants', 'skip the per-state invariants')
    .option('--violations <n>', 'stop after this many violations', '1')
    .option('--validate-menus', 'also pass every menu element through validate and report refusals')
    .option('--exact', 'keep full state keys instead of 64-bit hashes (no collisions, more memory)')
    .option('--traces', 'with --json: include the trace that first reached each goal')
    .option('--json', 'print the report as JSON')
    .action((id: string, opts: Opts) => {
      const entry = getPackage(id);
      const o: Record<string, unknown> = { ...opts };
      let presets: (string | undefined)[] = [undefined];
      if (typeof o.preset === 'string')
        presets = o.preset
          .split(',')
          .map((p) => p.trim())
          .filter((p) => p !== '');
      else if (o.config === undefined) {
        const ci = Object.keys(entry.presets ?? {}).filter((p) => p === 'ci' || p.startsWith('ci-'));
        if (ci.length > 0) presets = ci;
      }
      const reports: ExploreReport[] = [];
      for (const preset of presets) {
        const config = buildConfig(entry, { ...o, preset });
        reports.push(
          explore(entry.ruleset, {
            config,
            seed: parseSeed(opts.seed),
            maxStates: parseCount(opts.maxStates, 'max-states', 2_000_000, 50_000_000),
            maxDepth: opts.maxDepth === undefined ? undefined : parseCount(opts.maxDepth, 'max-depth', 1000, 1_000_000),
            checkTransitions: opts.check !== false,
            checkInvariants: opts.invariants !== false,
            maxViolations: parseCount(opts.violations, 'violations', 1, 1000),
            exactKeys: opts.exact === true,
            validateMenus: opts.validateMenus === true,
            progress:
              opts.json || !ctx.io.stderr.isTTY
                ? undefined
                : (p) =>
                    ctx.err(
                      `\r  ${preset ?? ''} ${p.states} states, ${p.transitions} transitions, depth ${p.depth}   `,
                    ),
          }),
        );
        if (!opts.json && ctx.io.stderr.isTTY) ctx.err('\r\x1b[K');
      }
      const strip = (r: ExploreReport) => (opts.traces ? r : { ...r, goals: r.goals.map(({ trace: _t, ...g }) => g) });
      const goals = mergeGoals(reports);
      if (opts.json) {
        const out =
          reports.length === 1
            ? strip(reports[0])
            : {
                runs: reports.map((r, i) => ({ preset: presets[i] ?? null, ...strip(r) })),
                goals: goals.map(({ trace: _t, ...g }) => g),
              };
        ctx.out(canonicalJson(out) + '\n');
      } else {
        reports.forEach((r, i) => {
          if (reports.length > 1) ctx.out(`preset ${presets[i]}:\n`);
          ctx.out(formatReport(r, entry.ruleset.describeEvent?.bind(entry.ruleset)) + '\n');
        });
        if (reports.length > 1)
          ctx.out(formatGoals(goals, `goals over the ${reports.length} presets ${presets.join(', ')}`) + '\n');
      }
      const complete = reports.every((r) => r.complete);
      const missed = complete && goals.some((g) => !g.reached);
      if (reports.some((r) => r.violations.length > 0) || missed) ctx.exit(1);
    });
}
