// Coverage of rule ids: which scenarios (and tagged tests) cover each rule and U-item of each
// registered ruleset. A rule is covered by a scenario listing it in `covers`, or by a test under
// test/<ruleset>/ whose title starts with "[ID, ...]". A U-item is covered by a scenario naming it
// in `underdetermined`: a provisional one while the item is open or ruled, any once it is applied
// (applying a ruling lifts the provisional flag). `registerOf` reports the U-items' register
// discipline: owner, raise date and age (warned past 30 days while unsettled), the reproduction each
// names (debt when it has none that cites it; the target is zero) and provisional flags left on
// scenarios whose items are all settled.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Finding, RulesetPackage, UItem, Json } from '@arbiter/engine/kernel';
import { findScenarioFiles, loadScenarioFile, type LoadedScenario } from './scenario-file.ts';
import { runScenario } from './scenario.ts';

export interface RuleCoverage {
  id: string;
  kind: 'rule' | 'u-item';
  summary: string;
  by: string[];
}

export interface RulesetCoverage {
  ruleset: string;
  rules: RuleCoverage[];
  uncovered: string[];
  /** Scenario files that failed to load, with the reason. */
  broken: { file: string; error: string }[];
  /** Ids named by scenarios that the catalog does not know. */
  unknownIds: { id: string; by: string }[];
  /** With `run`: scenarios whose events cite U-items they do not list in `underdetermined` (and other run failures). */
  failedRuns: { scenario: string; failure: string }[];
}

const SETTLED = new Set(['applied', 'withdrawn']);

export function loadScenariosOf(
  dir: string,
  root: string,
): { loaded: LoadedScenario[]; broken: { file: string; error: string }[] } {
  const loaded: LoadedScenario[] = [];
  const broken: { file: string; error: string }[] = [];
  const abs = resolve(root, dir);
  if (!existsSync(abs)) return { loaded, broken };
  for (const f of findScenarioFiles([abs])) {
    try {
      loaded.push(loadScenarioFile(f, root));
    } catch (err) {
      broken.push({ file: f, error: (err as Error).message });
    }
  }
  return { loaded, broken };
}

// the title runs to the next quote of the kind that opened it (other quote kinds may appear inside)
const TITLE = /\b(?:test|it|describe)\s*\(\s*(['"`])\[([^\]]+)\]((?:(?!\1)[^\\\n]|\\.)*)\1/g;

/** Rule ids tagged in test titles under test/<rulesetId>/ (recursively). */
function taggedTests(root: string, rulesetId: string): { id: string; by: string }[] {
  const dir = join(root, 'test', rulesetId);
  const out: { id: string; by: string }[] = [];
  if (!existsSync(dir)) return out;
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.ts')) {
        const text = readFileSync(p, 'utf8');
        for (const m of text.matchAll(TITLE)) {
          const title = `[${m[2]}]${m[3]}`;
          for (const id of m[2]
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)) {
            out.push({ id, by: `test:${p.slice(root.length + 1)}#${title.trim()}` });
          }
        }
      }
    }
  };
  walk(dir);
  return out;
}

export function coverageOf<S, A extends Json>(
  entry: RulesetPackage<S, A>,
  root = process.cwd(),
  options: { run?: boolean } = {},
): RulesetCoverage {
  const rs = entry.ruleset;
  const rulesetId = rs.id;
  const { loaded, broken } = loadScenariosOf(entry.scenarios, root);
  const map = new Map<string, RuleCoverage>();
  for (const r of rs.catalog.rules) map.set(r.id, { id: r.id, kind: 'rule', summary: r.summary, by: [] });
  for (const u of rs.catalog.uItems) map.set(u.id, { id: u.id, kind: 'u-item', summary: u.question, by: [] });
  const uState = new Map(rs.catalog.uItems.map((u) => [u.id, u.state ?? 'open']));
  const unknownIds: { id: string; by: string }[] = [];
  for (const { scenario } of loaded) {
    if (scenario.ruleset !== rulesetId) continue;
    for (const id of scenario.covers) {
      const c = map.get(id);
      if (c) c.by.push(scenario.id);
      else unknownIds.push({ id, by: scenario.id });
    }
    for (const id of scenario.underdetermined) {
      const c = map.get(id);
      if (!c) unknownIds.push({ id, by: scenario.id });
      else if (
        c.kind === 'u-item' &&
        !c.by.includes(scenario.id) &&
        (scenario.provisional || SETTLED.has(uState.get(id) ?? 'open'))
      )
        c.by.push(scenario.id);
    }
  }
  const failedRuns: { scenario: string; failure: string }[] = [];
  if (options.run) {
    for (const l of loaded) {
      if (l.scenario.ruleset !== rulesetId) continue;
      const r = runScenario(l, rs);
      if (!r.ok) failedRuns.push({ scenario: l.scenario.id, failure: r.failure ?? 'failed' });
    }
  }
  for (const t of taggedTests(root, rulesetId)) {
    const c = map.get(t.id);
    // a U-item no scenario can reach (a prompt, not a rule: bnc's BNC-LINEUP-01) is covered by a
    // tagged test whose title says it is provisional, like a provisional scenario would
    if (c && (c.kind === 'rule' || (c.kind === 'u-item' && /provisional/i.test(t.by)))) c.by.push(t.by);
  }
  const rules = [...map.values()];
  return {
    ruleset: rulesetId,
    rules,
    uncovered: rules.filter((r) => r.by.length === 0).map((r) => r.id),
    broken,
    unknownIds,
    failedRuns,
  };
}

export type RegisterItem = UItem & {
  /** Days since it was raised, when it carries a raise date. */
  ageDays: number | null;
  scenarios: { id: string; provisional: boolean }[];
  /** 'ok', or why the named reproduction does not count: none named, file missing, or it does not list the item. */
  reproductionStatus: 'ok' | 'none' | 'missing' | 'does-not-list';
};

export type RulesetRegister = {
  ruleset: string;
  version: string;
  title: string;
  findings: Finding[];
  uItems: RegisterItem[];
  /** U-items without a reproduction that cites them: the debt (target zero). */
  debt: string[];
  /** Warnings, not failures: unsettled items older than 30 days, items without owner or raise date, provisional flags left on settled items. */
  warnings: string[];
  counts: Record<string, number>;
};

const DAY = 86_400_000;

export function registerOf<S, A extends Json>(
  entry: RulesetPackage<S, A>,
  root = process.cwd(),
  today: Date = new Date(),
): RulesetRegister {
  const rs = entry.ruleset;
  const { loaded } = loadScenariosOf(entry.scenarios, root);
  const byFile = new Map(
    loaded.map((l) => [l.file.startsWith(root) ? l.file.slice(root.length + 1) : l.file, l.scenario]),
  );
  const warnings: string[] = [];
  const counts: Record<string, number> = {};
  const uItems: RegisterItem[] = rs.catalog.uItems.map((u) => {
    const state = u.state ?? 'open';
    counts[state] = (counts[state] ?? 0) + 1;
    const raisedAt = u.raised ? Date.parse(u.raised) : NaN;
    const ageDays = Number.isNaN(raisedAt) ? null : Math.floor((today.getTime() - raisedAt) / DAY);
    if (!u.owner || !u.raised) warnings.push(`${u.id} has no ${!u.owner ? 'owner' : 'raise date'}`);
    if (ageDays !== null && ageDays > 30 && !SETTLED.has(state))
      warnings.push(
        `${u.id} is ${state} ${ageDays} days after it was raised (${u.raised}); owner ${u.owner ?? '?'} has not settled it`,
      );
    const scenarios = loaded
      .filter((l) => l.scenario.underdetermined.includes(u.id))
      .map((l) => ({ id: l.scenario.id, provisional: l.scenario.provisional }));
    let reproductionStatus: RegisterItem['reproductionStatus'] = 'ok';
    if (!u.reproduction) reproductionStatus = 'none';
    else if (!existsSync(join(root, u.reproduction))) reproductionStatus = 'missing';
    else if (u.reproduction.endsWith('.test.ts')) {
      // a test reproduces the item when one of its titles is tagged with the item's id
      const tagged = taggedTests(root, rs.id).some((t) => t.id === u.id && t.by.startsWith(`test:${u.reproduction}#`));
      if (!tagged) reproductionStatus = 'does-not-list';
    } else if (!(byFile.get(u.reproduction)?.underdetermined.includes(u.id) ?? false))
      reproductionStatus = 'does-not-list';
    return { ...u, ageDays, scenarios, reproductionStatus };
  });
  const settled = new Set(uItems.filter((u) => SETTLED.has(u.state ?? 'open')).map((u) => u.id));
  for (const l of loaded) {
    const sc = l.scenario;
    if (sc.provisional && sc.underdetermined.length > 0 && sc.underdetermined.every((id) => settled.has(id))) {
      warnings.push(`${sc.id} is still provisional, but every U-item it lists is settled: lift the flag`);
    }
  }
  const debt = uItems.filter((u) => u.reproductionStatus !== 'ok').map((u) => u.id);
  return {
    ruleset: rs.id,
    version: rs.version,
    title: rs.title,
    findings: rs.catalog.findings ?? [],
    uItems,
    debt,
    warnings,
    counts,
  };
}
