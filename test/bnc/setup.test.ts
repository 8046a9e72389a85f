// Properties of the seeded map and of config handling, over many seeds.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArbiterError } from '../../packages/engine/src/kernel/index.ts';
import { bnc } from '../../packages/engine/src/rulesets/bnc/index.ts';
import { EXIT, INTAKE, ITEM_IDS } from '../../packages/engine/src/rulesets/bnc/constants.ts';

test('[BNC-M03] every seed draws 1 to 3 distinct shortcuts between zones two or more apart, never Intake Yard to Exit Vault', () => {
  const counts = [0, 0, 0, 0];
  for (let seed = 0; seed < 600; seed++) {
    const s = bnc.setup({}, seed);
    assert.ok(s.shortcuts.length >= 1 && s.shortcuts.length <= 3, `seed ${seed}`);
    counts[s.shortcuts.length]++;
    const keys = new Set<string>();
    for (const sc of s.shortcuts) {
      assert.ok(sc.b - sc.a >= 2, `seed ${seed}: ${sc.a}-${sc.b} are neighbours`);
      assert.ok(!(sc.a === INTAKE && sc.b === EXIT), `seed ${seed}: start-to-exit shortcut`);
      keys.add(`${sc.a}-${sc.b}`);
    }
    assert.equal(keys.size, s.shortcuts.length);
  }
  // all three counts occur, roughly a third each
  for (const n of [1, 2, 3]) assert.ok(counts[n] > 150, `count ${n} drawn ${counts[n]} times`);
});

test('[BNC-M05] the three fragments and the chart lie one per middle zone, none at the ends', () => {
  for (let seed = 0; seed < 300; seed++) {
    const s = bnc.setup({}, seed);
    assert.deepEqual(s.floor[0], []);
    assert.deepEqual(s.floor[5], []);
    const middle = s.floor.slice(1, 5);
    assert.ok(
      middle.every((f) => f.length === 1),
      `seed ${seed}`,
    );
    assert.deepEqual(middle.flat().sort(), [...ITEM_IDS].sort());
  }
});

test('[BNC-M01, BNC-W01] default config: four contestants, 10 health, Warden 20 at Exit Vault, 45 turns', () => {
  const s = bnc.setup(undefined, 9);
  assert.equal(bnc.seats(s), 4);
  assert.deepEqual(
    s.contestants.map((c) => [c.zone, c.health, c.status]),
    Array(4).fill([0, 10, 'active']),
  );
  assert.deepEqual(s.warden, { zone: 5, health: 20, down: false });
  assert.equal(s.config.turns, 45);
});

test('bad configs are bad_config errors naming the field', () => {
  for (const bad of [{ contestants: 7 }, { turns: 0 }, { colour: 'red' }, { health: 1.5 }]) {
    assert.throws(
      () => bnc.setup(bad, 1),
      (e: unknown) => e instanceof ArbiterError && e.code === 'bad_config',
    );
  }
});
