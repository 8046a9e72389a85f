import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act, canonicalJson } from '../../packages/engine/src/kernel/index.ts';
import { ground } from '../../packages/engine/src/rulesets/ground/index.ts';

test('[GR-A13] malformed or prototype-named input is refused as bad_request without throwing or changing the state', () => {
  const s = ground.setup({}, 3);
  const before = canonicalJson(s);
  const bad: unknown[] = [
    null,
    7,
    'select',
    [],
    {},
    { type: 'toString' },
    { type: '__proto__' },
    { type: 'constructor', action: 'GROUND' },
    { type: 'select', action: 'valueOf' },
    { type: 'select', action: 'ATTACK', target: -1 },
    { type: 'select', action: 'ATTACK', target: 1.5 },
    { type: 'select', action: 'ATTACK', target: 4 },
    { type: 'select', action: 'ATTACK', target: 99 },
    { type: 'select', action: 'SOLVE', target: 9 },
    { type: 'select', action: 'ATTACK', target: 1, freedom: 'yes' },
    { type: 'select', action: 'GROUND', target: 2 },
    { type: 'select', action: 'SUPPORT' },
    { type: 'select', action: 'ATTACK', target: 1, extra: true },
  ];
  for (const input of bad) {
    const r = act(ground, s, 0, input);
    assert.equal(r.ok, false, JSON.stringify(input));
    if (!r.ok) assert.equal(r.error.code, 'bad_request', `${JSON.stringify(input)} → ${r.error.code}`);
  }
  assert.equal(canonicalJson(s), before);
});

test('[GR-R02, GR-R05] a decision of the wrong kind is illegal with sub_reason wrong_decision', () => {
  const s = ground.setup({}, 3);
  for (const input of [
    { type: 'ground', mode: 'GR' },
    { type: 'bond', accept: true },
    { type: 'deny', problem: 0 },
    { type: 'darvo_attack', target: 1 },
    { type: 'rivalry', choice: 'flip' },
  ]) {
    const r = ground.validate!(s, 0, input);
    assert.equal(r.ok, false);
    if (!r.ok)
      assert.deepEqual(
        [r.error.code, (r.error.detail as { sub_reason: string }).sub_reason],
        ['illegal', 'wrong_decision'],
      );
  }
});

test('[GR-A13] omitted target and freedom default to null and false, and the menu element itself is applied', () => {
  const s = ground.setup({}, 3);
  const r = ground.validate!(s, 0, { type: 'select', action: 'GROUND' });
  assert.ok(r.ok);
  if (r.ok) assert.ok(ground.legal(s, 0).actions.includes(r.action));
});
