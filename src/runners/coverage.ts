// Coverage of rule ids: which scenarios (and tagged tests) cover each rule and U-item of each
// registered ruleset. A rule is covered by a scenario listing it in `covers`, or by a test under
// test/<ruleset>/ whose title starts with "[ID, ...]". A U-item is covered by a provisional
// scenario naming it in `underdetermined`.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RulesetPackage } from '../kernel/index.ts';
import { findScenarioFiles, loadScenarioFile, type LoadedScenario } from './scenario-file.ts';

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
}

export function loadScenariosOf(dir: string, root: string): { loaded: LoadedScenario[]; broken: { file: string; error: string }[] } {
  const loaded: LoadedScenario[] = [];
  const broken: { file: string; error: string }[] = [];
  const abs = join(root, dir);
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
export function taggedTests(root: string, rulesetId: string): { id: string; by: string }[] {
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
          for (const id of m[2].split(',').map((s) => s.trim()).filter(Boolean)) {
            out.push({ id, by: `test:${p.slice(root.length + 1)}#${title.trim()}` });
          }
        }
      }
    }
  };
  walk(dir);
  return out;
}

export function coverageOf<S, A>(entry: RulesetPackage<S, A>, root = process.cwd()): RulesetCoverage {
  const rs = entry.ruleset;
  const rulesetId = rs.id;
  const { loaded, broken } = loadScenariosOf(entry.scenarios, root);
  const map = new Map<string, RuleCoverage>();
  for (const r of rs.catalog.rules) map.set(r.id, { id: r.id, kind: 'rule', summary: r.summary, by: [] });
  for (const u of rs.catalog.uItems) map.set(u.id, { id: u.id, kind: 'u-item', summary: u.question, by: [] });
  const unknownIds: { id: string; by: string }[] = [];
  for (const { scenario } of loaded) {
    if (scenario.ruleset !== rulesetId) continue;
    for (const id of scenario.covers) {
      const c = map.get(id);
      if (c) c.by.push(scenario.id);
      else unknownIds.push({ id, by: scenario.id });
    }
    if (scenario.provisional) {
      for (const id of scenario.underdetermined) {
        const c = map.get(id);
        if (c && c.kind === 'u-item' && !c.by.includes(scenario.id)) c.by.push(scenario.id);
        else if (!c) unknownIds.push({ id, by: scenario.id });
      }
    }
  }
  for (const t of taggedTests(root, rulesetId)) {
    const c = map.get(t.id);
    if (c && c.kind === 'rule') c.by.push(t.by);
  }
  const rules = [...map.values()];
  return { ruleset: rulesetId, rules, uncovered: rules.filter((r) => r.by.length === 0).map((r) => r.id), broken, unknownIds };
}
