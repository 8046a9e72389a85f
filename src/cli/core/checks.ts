// `arbiter scenario run`, `arbiter coverage`, `arbiter register`: the designer's verbs.

import { resolve } from 'node:path';
import { pc } from '../colors.ts';
import type { Command } from 'commander';
import type { CliContext } from '../io.ts';
import { PACKAGES, REGISTRY, getPackage, rulesetIds } from '@arbiter/engine';
import { coverageOf, registerOf, type RulesetRegister } from '../../runners/coverage.ts';
import { findScenarioFiles, loadScenarioFile } from '../../runners/scenario-file.ts';
import { runScenario, type ScenarioResult } from '../../runners/scenario.ts';

export function registerChecks(program: Command, ctx: CliContext): void {
  const scenario = program.command('scenario').description('scenario files: run them');
  scenario
    .command('run')
    .description("run scenario files (default: every registered ruleset's scenarios)")
    .argument('[paths...]', 'files or folders of *.yaml scenarios')
    .option('--json', 'print results as JSON')
    .option('-v, --verbose', 'list passing scenarios too')
    .action((paths: string[], opts: { json?: boolean; verbose?: boolean }) => {
      const root = ctx.io.cwd;
      const targets = paths.length ? paths : [...REGISTRY.values()].map((e) => resolve(root, e.scenarios));
      const files = findScenarioFiles(targets.filter((t) => paths.length > 0 || require_exists(t)));
      const results: ScenarioResult[] = files.map((f) => {
        try {
          const loaded = loadScenarioFile(f, root);
          return runScenario(loaded, getPackage(loaded.scenario.ruleset).ruleset);
        } catch (err) {
          return {
            id: f,
            file: f,
            ruleset: '?',
            ok: false,
            provisional: false,
            covers: [],
            steps: 0,
            failure: (err as Error).message,
          };
        }
      });
      const failed = results.filter((r) => !r.ok);
      if (opts.json)
        ctx.out(
          JSON.stringify({ passed: results.length - failed.length, failed: failed.length, results }, null, 2) + '\n',
        );
      else {
        for (const r of results) {
          if (!r.ok)
            ctx.out(
              `${pc.red('FAIL')} ${r.ruleset}/${r.id}  (${r.file})\n     ${r.failure?.split('\n').join('\n     ')}\n`,
            );
          else if (opts.verbose)
            ctx.out(`${pc.green('ok')}   ${r.ruleset}/${r.id}${r.provisional ? pc.yellow(' (provisional)') : ''}\n`);
        }
        ctx.out(`${results.length - failed.length} passed, ${failed.length} failed\n`);
      }
      if (failed.length > 0 || results.length === 0) ctx.exit(1);
    });

  program
    .command('coverage')
    .description(
      'list every rule id of every ruleset with the scenarios and tests that cover it, run the scenarios to check each lists the U-items it relies on, and report U-item register debt; exit 1 if any id is uncovered, a scenario is broken or one relies on an unlisted U-item (register warnings do not fail)',
    )
    .argument('[ruleset]', 'only this ruleset')
    .option('--json', 'print {ruleset: {ruleId: [scenarioIds]}}')
    .option('--uncovered', 'list only uncovered ids')
    .action((only: string | undefined, opts: { json?: boolean; uncovered?: boolean }) => {
      const pkgs = only ? [getPackage(only)] : PACKAGES;
      const all = pkgs.map((p) => ({ c: coverageOf(p, ctx.io.cwd, { run: true }), reg: registerOf(p) }));
      let bad = false;
      if (opts.json) {
        const out: Record<string, Record<string, string[]>> = {};
        for (const { c } of all) out[c.ruleset] = Object.fromEntries(c.rules.map((r) => [r.id, r.by]));
        ctx.out(JSON.stringify(out, null, 2) + '\n');
      }
      for (const { c, reg } of all) {
        if (c.uncovered.length || c.broken.length || c.unknownIds.length || c.failedRuns.length) bad = true;
        for (const w of reg.warnings) ctx.err(pc.yellow(`warning: ${c.ruleset}: ${w}\n`));
        if (opts.json) continue;
        const covered = c.rules.length - c.uncovered.length;
        ctx.out(pc.bold(`${c.ruleset}: ${covered}/${c.rules.length} ids covered`) + '\n');
        for (const r of c.rules) {
          if (opts.uncovered && r.by.length) continue;
          const mark = r.by.length ? pc.green('✓') : pc.red('✗');
          const by = r.by.length
            ? r.by.slice(0, 4).join(', ') + (r.by.length > 4 ? ` (+${r.by.length - 4})` : '')
            : pc.red('UNCOVERED');
          ctx.out(`  ${mark} ${r.id.padEnd(14)} ${by}\n`);
        }
        for (const b of c.broken) ctx.out(pc.red(`  broken scenario ${b.file}: ${b.error}\n`));
        for (const u of c.unknownIds) ctx.out(pc.red(`  scenario ${u.by} names unknown id ${u.id}\n`));
        for (const f of c.failedRuns) ctx.out(pc.red(`  scenario ${f.scenario} fails: ${f.failure.split('\n')[0]}\n`));
        if (reg.uItems.length) ctx.out(`  ${registerSummary(reg)}\n`);
      }
      if (bad) {
        if (!opts.json)
          ctx.err(
            'coverage: some rule ids are uncovered, some scenarios are broken, or a scenario relies on a U-item it does not list\n',
          );
        ctx.exit(1);
      }
    });

  program
    .command('register')
    .description(
      'print the findings register and the U-items of a ruleset: state, owner, age, ruling, reproduction and the scenarios that list each; the reproduction debt (target zero) and warnings',
    )
    .argument('<ruleset>', `one of: ${rulesetIds().join(', ')}`)
    .option('--json', 'print as JSON')
    .action((id: string, opts: { json?: boolean }) => {
      const reg = registerOf(getPackage(id));
      if (opts.json) {
        ctx.out(JSON.stringify(reg, null, 2) + '\n');
        return;
      }
      ctx.out(pc.bold(`${reg.title} (${reg.version}) — findings register`) + '\n');
      if (reg.findings.length === 0) ctx.out('  (no findings recorded)\n');
      for (const f of reg.findings) {
        ctx.out(
          `  ${pc.bold(f.id.padEnd(5))} ${f.kind.padEnd(15)} ${f.state.padEnd(10)} raised ${f.raised} by ${f.owner}\n`,
        );
        ctx.out(`        reproduction: ${f.reproduction ?? '—'}   role: ${f.role ?? '—'}\n        ${f.summary}\n`);
      }
      ctx.out('\n' + pc.bold('Underdetermined items (defaults the engine uses)') + '\n');
      for (const u of reg.uItems) {
        const sc = u.scenarios.length
          ? u.scenarios.map((s) => s.id + (s.provisional ? ' (provisional)' : '')).join(', ')
          : pc.yellow('no scenario lists it');
        const repro =
          u.reproductionStatus === 'ok'
            ? u.reproduction
            : pc.yellow(`${u.reproduction ?? 'none'} — DEBT (${u.reproductionStatus})`);
        ctx.out(`  ${pc.bold(u.id.padEnd(5))} ${u.question}\n        default: ${u.default}\n        why: ${u.why}\n`);
        ctx.out(
          `        state: ${u.state ?? 'open'}; source: ${u.source ?? 'engine'}; owner: ${u.owner ?? '?'}; raised: ${u.raised ?? '?'}${u.ageDays !== null ? ` (${u.ageDays} days)` : ''}${u.ruling ? `\n        ruling: ${u.ruling}` : ''}\n`,
        );
        ctx.out(`        reproduction: ${repro}\n        listed by: ${sc}\n`);
      }
      ctx.out('\n' + registerSummary(reg) + '\n');
      for (const w of reg.warnings) ctx.err(pc.yellow(`warning: ${w}\n`));
    });
}

/** One line: U-items by state and the reproduction debt against its target of zero. */
function registerSummary(reg: RulesetRegister): string {
  const states = [
    'open',
    'ruled',
    'applied',
    'withdrawn',
    ...Object.keys(reg.counts).filter((k) => !['open', 'ruled', 'applied', 'withdrawn'].includes(k)),
  ];
  const parts = states.filter((k) => reg.counts[k]).map((k) => `${reg.counts[k]} ${k}`);
  const debt = reg.debt.length
    ? pc.yellow(`reproduction debt ${reg.debt.length} (${reg.debt.join(', ')}); target 0`)
    : 'reproduction debt 0 (target 0)';
  return `${reg.uItems.length} U-items: ${parts.join(', ')}; ${debt}`;
}

function require_exists(p: string): boolean {
  try {
    findScenarioFiles([p]);
    return true;
  } catch {
    return false;
  }
}
