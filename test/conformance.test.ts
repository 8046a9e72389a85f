// One suite, every ruleset: each registered ruleset runs the same generic checks with no
// per-ruleset code. A failure names the ruleset and seed to replay it.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { REGISTRY } from '../packages/engine/src/registry.ts';
import { publishedSchema } from '../packages/engine/src/kernel/index.ts';
import {
  badConfigs,
  determinism,
  fuzzInput,
  randomGames,
  sampling,
  schemaConformance,
} from '../src/runners/conformance.ts';
import { compileWithAjv } from './support/ajv.ts';

for (const [id, entry] of REGISTRY) {
  const rs = entry.ruleset;
  describe(`conformance: ${id}`, () => {
    test('random games reach the end; menus are accepted; state stays plain JSON; views keep secrets', () => {
      assert.deepEqual(randomGames(rs, { games: 8 }), []);
    });
    test('same seed gives the same event-stream hash, also across a JSON save/resume', () => {
      assert.deepEqual(determinism(rs), []);
    });
    test("a state sampled from a seat's view shows that seat the same view and menu (determinization)", () => {
      assert.deepEqual(sampling(rs), []);
    });
    test('bad configs and seeds are refused with typed errors', () => {
      assert.deepEqual(badConfigs(rs), []);
    });
    test('fuzzed and off-menu input is refused with a typed code and changes nothing', () => {
      assert.deepEqual(fuzzInput(rs, { runs: 250 }), []);
    });
    test('every menu element fits its declared family (ajv, draft 2020-12), every declared family is offered, presets fit the config schema', () => {
      assert.ok(rs.schemas, `${id} declares its schemas`);
      assert.deepEqual(schemaConformance(rs, compileWithAjv, { configs: [{}], games: 30 }), []);
      const fits = compileWithAjv(publishedSchema(rs.schemas.config));
      for (const [name, cfg] of Object.entries(entry.presets)) assert.equal(fits(cfg), null, `preset ${name}`);
    });
    test('the catalog has unique rule ids and every U-item has a default', () => {
      const ids = [...rs.catalog.rules.map((r) => r.id), ...rs.catalog.uItems.map((u) => u.id)];
      assert.equal(new Set(ids).size, ids.length, 'duplicate ids in the catalog');
      for (const u of rs.catalog.uItems)
        assert.ok(u.default.length > 0 && u.why.length > 0, `${u.id} lacks a default or a reason`);
    });
  });
}
