// Every scenario file of every registered ruleset, run as a test, plus the coverage promise.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { REGISTRY } from '../packages/engine/src/registry.ts';
import { coverageOf, loadScenariosOf } from '../src/runners/coverage.ts';
import { runScenario } from '../src/runners/scenario.ts';

const root = process.cwd();

for (const [id, entry] of REGISTRY) {
  describe(`scenarios: ${id}`, () => {
    const { loaded, broken } = loadScenariosOf(entry.scenarios, root);
    test('every scenario file loads', () => {
      assert.deepEqual(broken, []);
    });
    for (const sc of loaded) {
      test(`${sc.scenario.id}${sc.scenario.provisional ? ' (provisional)' : ''}`, () => {
        const r = runScenario(sc, entry.ruleset);
        assert.ok(r.ok, `${sc.file}: ${r.failure}`);
      });
    }
    test('every rule id and U-item is covered', () => {
      const cov = coverageOf(entry, root);
      assert.deepEqual(cov.uncovered, [], `uncovered in ${id}`);
      assert.deepEqual(cov.unknownIds, [], `scenarios name ids the ${id} catalog does not know`);
    });
  });
}
