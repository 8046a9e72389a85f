// `arbiter explore RULESET`: exhaustive breadth-first exploration of a bounded configuration with
// invariant, contract, deadlock and goal checks (src/runners/explore.ts). Without --preset or
// --config it explores the ruleset's "ci" preset when it has one, else its default config.

import type { Command } from 'commander';
import { canonicalJson } from '../../kernel/index.ts';
import { getPackage } from '../../registry.ts';
import { explore, formatReport } from '../../runners/explore.ts';
import { buildConfig, parseCount, parseSeed } from '../core/config.ts';

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

export function register(program: Command): void {
  if (program.commands.some((c) => c.name() === 'explore')) return;
  program
    .command('explore')
    .description('exhaustively explore a bounded configuration: invariants, per-transition contracts, deadlocks, branch goals, shortest counterexample')
    .argument('<ruleset>', 'ruleset id')
    .option('--preset <name>', 'a named config the ruleset ships (default: "ci" when it exists)')
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
      if (o.preset === undefined && o.config === undefined && entry.presets?.ci) o.preset = 'ci';
      const config = buildConfig(id, o);
      const report = explore(entry.ruleset, {
        config,
        seed: parseSeed(opts.seed),
        maxStates: parseCount(opts.maxStates, 'max-states', 2_000_000, 50_000_000),
        maxDepth: opts.maxDepth === undefined ? undefined : parseCount(opts.maxDepth, 'max-depth', 1000, 1_000_000),
        checkTransitions: opts.check !== false,
        checkInvariants: opts.invariants !== false,
        maxViolations: parseCount(opts.violations, 'violations', 1, 1000),
        exactKeys: opts.exact === true,
        validateMenus: opts.validateMenus === true,
        progress: opts.json || !process.stderr.isTTY ? undefined
          : (p) => process.stderr.write(`\r  ${p.states} states, ${p.transitions} transitions, depth ${p.depth}   `),
      });
      if (!opts.json && process.stderr.isTTY) process.stderr.write('\r\x1b[K');
      if (opts.json) {
        const out = opts.traces ? report : { ...report, goals: report.goals.map(({ trace: _t, ...g }) => g) };
        process.stdout.write(canonicalJson(out) + '\n');
      } else {
        process.stdout.write(formatReport(report, entry.ruleset.describeEvent?.bind(entry.ruleset)) + '\n');
      }
      const missed = report.complete && report.goals.some((g) => !g.reached);
      if (report.violations.length > 0 || missed) process.exitCode = 1;
    });
}
