// `arbiter new ID --dir PATH` writes a ruleset package on the skeleton whose conformance suite,
// scenarios and coverage pass as soon as it is registered, and whose sources type-check.

import { test } from 'node:test';
import { register } from 'tsx/esm/api';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RulesetPackage } from '../../packages/engine/src/kernel/index.ts';
import { newRuleset, templateWords } from '../../src/cli/core/new.ts';
import { compileWithAjv } from '../support/ajv.ts';
import { cli } from '../support/cli.ts';
import { typeProblems } from '../support/typecheck.ts';

// The new folder imports the kernel's sources by path. The checks below must see the same kernel
// module (one ArbiterError class), so they load the sources through one tsx graph with it: the
// suite runs test files compiled (scripts/test-bundle.mjs), which would be a second copy.
const sources = register({ namespace: 'arbiter-new-ruleset-test' });
const load = (path: string) => sources.import(new URL(path, import.meta.url).href, import.meta.url);
const { withPackages }: typeof import('../../packages/engine/src/registry.ts') = await load(
  '../../packages/engine/src/registry.ts',
);
const {
  badConfigs,
  determinism,
  fuzzInput,
  randomGames,
  sampling,
  schemaConformance,
}: typeof import('../../src/runners/conformance.ts') = await load('../../src/runners/conformance.ts');
const { coverageOf, loadScenariosOf }: typeof import('../../src/runners/coverage.ts') = await load(
  '../../src/runners/coverage.ts',
);
const { runScenario }: typeof import('../../src/runners/scenario.ts') = await load('../../src/runners/scenario.ts');
const { explore }: typeof import('../../src/runners/explore.ts') = await load('../../src/runners/explore.ts');

const SKELETON = [
  'agents.ts',
  'catalog.ts',
  'checks.ts',
  'config.ts',
  'describe.ts',
  'index.ts',
  'menu.ts',
  'rules.md',
  'rules.ts',
  'sample.ts',
  'schema.ts',
  'setup.ts',
  'state.ts',
  'tools.ts',
  'view.ts',
];

test('arbiter new writes the skeleton; registered, it passes conformance, its scenarios and coverage', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'arbiter-new-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const r = await cli(['new', 'tile-race', '--dir', root]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /wrote 21 files/); // the skeleton, five scenarios and an ESM package.json
  assert.match(r.out, /import \{ tileRacePackage \} from '\.\/rulesets\/tile-race\/index\.ts'/);

  const folder = join(root, 'src/rulesets/tile-race');
  assert.deepEqual(readdirSync(folder).sort(), SKELETON);
  const scenarioFiles = readdirSync(join(root, 'scenarios/tile-race')).sort();
  assert.equal(scenarioFiles.length, 5);

  const mod: { tileRacePackage: RulesetPackage } = await sources.import(
    pathToFileURL(join(folder, 'index.ts')).href,
    import.meta.url,
  );
  const pkg = withPackages([mod.tileRacePackage]).get('tile-race');
  const rs = pkg.ruleset;
  assert.equal(rs.title, 'Tile Race');
  // the template follows the shipped rulesets: config.ts holds the presets, sample.ts the sampler,
  // and every contract member is a function of its own name ([CONTRACT-NAMES])
  assert.deepEqual(pkg.presets, { short: { target: 5 } });
  const misnamed = Object.entries(rs).filter(([k, v]) => typeof v === 'function' && v.name !== k);
  assert.deepEqual(misnamed, []);
  assert.deepEqual(
    rs.catalog.rules.map((x) => x.id),
    ['TILERACE-1', 'TILERACE-2', 'TILERACE-3', 'TILERACE-4'],
  );

  assert.deepEqual(randomGames(rs, { games: 6 }), []);
  assert.deepEqual(determinism(rs), []);
  assert.deepEqual(sampling(rs), []);
  assert.deepEqual(badConfigs(rs), []);
  assert.deepEqual(fuzzInput(rs, { runs: 100 }), []);
  // the conformance suite asks every registered ruleset for declared schemas that its menus fit
  assert.deepEqual(schemaConformance(rs, compileWithAjv, { configs: [{}], games: 6 }), []);

  const { loaded, broken } = loadScenariosOf(pkg.scenarios, process.cwd());
  assert.deepEqual(broken, []);
  assert.equal(loaded.length, rs.catalog.rules.length + rs.catalog.uItems.length, 'one scenario per rule id');
  for (const sc of loaded) assert.ok(runScenario(sc, rs).ok, `${sc.file}: ${runScenario(sc, rs).failure}`);
  const cov = coverageOf(pkg, process.cwd());
  assert.deepEqual(cov.uncovered, []);
  assert.deepEqual(cov.unknownIds, []);

  const report = explore(rs, { config: { target: 5 } });
  assert.equal(report.complete, true);
  assert.deepEqual(report.violations, []);
  assert.match(pkg.rulesPage(), /TILERACE-U1/);
});

test('the files arbiter new writes type-check under the project settings', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'arbiter-new-tsc-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const { folder } = newRuleset('dice-dash', root, []);
  // the project's settings that bear on a ruleset's files (tsconfig.json), the rest as a client's
  const problems = typeProblems(join(folder, 'index.ts'), {
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
  });
  assert.deepEqual(problems, []);
});

test('arbiter new refuses a taken id, a bad id and a folder that is not empty, writing nothing', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'arbiter-new-bad-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const taken = await cli(['new', 'tictactoe', '--dir', root]);
  assert.equal(taken.code, 2);
  assert.match(taken.err, /already registered/);
  assert.throws(() => newRuleset('Bad_Id', root, []), /lower-case/);
  assert.throws(() => newRuleset('9lives', root, []), /starting with a letter/);
  assert.equal(existsSync(join(root, 'src')), false);
  newRuleset('twice', root, []);
  assert.throws(() => newRuleset('twice', root, []), /not empty; nothing was written/);
});

test('template words: title, type, camel-case name and rule prefix from the id', () => {
  const w = templateWords('my-big-game', '../../kernel/index.ts', 'scenarios/my-big-game');
  assert.equal(w.Title, 'My Big Game');
  assert.equal(w.Type, 'MyBigGame');
  assert.equal(w.name, 'myBigGame');
  assert.equal(w.RULE, 'MYBIGGAME');
});

test('[NEW-DIR-MISSING] arbiter new --dir makes a folder that does not exist yet, and refuses a file with a typed error', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'arbiter-new-dir-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const deep = join(root, 'not', 'there');
  const r = await cli(['new', 'tile-race', '--dir', deep]);
  assert.equal(r.code, 0, r.err);
  assert.ok(existsSync(join(deep, 'src/rulesets/tile-race/index.ts')));
  assert.ok(existsSync(join(deep, 'package.json')));
  const file = join(root, 'a-file');
  writeFileSync(file, 'x');
  const bad = await cli(['new', 'tile-race', '--dir', file]);
  assert.equal(bad.code, 2, bad.err);
  assert.match(bad.err, /is a file, not a folder; nothing was written/);
  assert.doesNotMatch(bad.err, /internal error/);
});
