// Schemas: one zod definition per action, JSON Schema generated from it, code-point text limits.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act, codePointLength } from '../../packages/engine/src/kernel/index.ts';
import { bnc } from '../../packages/engine/src/rulesets/bnc/index.ts';
import { ACTION_TYPES, allJsonSchemas, jsonSchemaOf } from '../../packages/engine/src/rulesets/bnc/schema.ts';

const ASTRAL = '\u{1F9ED}'; // a compass: one code point, two UTF-16 units

test('[BNC-A07] every action family has a JSON Schema generated from its definition', () => {
  const all = allJsonSchemas();
  assert.deepEqual(Object.keys(all.actions).sort(), [...ACTION_TYPES].sort());
  assert.equal(ACTION_TYPES.length, 21);
  for (const t of ACTION_TYPES) {
    const s = jsonSchemaOf(t) as { properties: { type: { const: string } }; additionalProperties: boolean };
    assert.equal(s.properties.type.const, t);
    assert.equal(s.additionalProperties, false, `${t} must refuse unknown fields`);
  }
  // U26: the seed sets only a maximum
  const say = jsonSchemaOf('say') as { properties: { text: { maxLength: number; minLength?: number } } };
  assert.deepEqual([say.properties.text.minLength, say.properties.text.maxLength], [undefined, 240]);
  const offer = jsonSchemaOf('offer') as { properties: { give: { maxItems: number }; turns: { maximum: number } } };
  assert.equal(offer.properties.give.maxItems, 5);
  assert.equal(offer.properties.turns.maximum, 15);
});

test('[BNC-S01, BNC-S02, BNC-A07] text limits count code points: 240 astral characters pass, 241 fail', () => {
  const s = bnc.setup({}, 1);
  const ok = ASTRAL.repeat(240);
  assert.equal(ok.length, 480); // UTF-16 units: a length check in units would refuse it
  assert.equal(codePointLength(ok), 240);
  for (const action of [
    { type: 'say', text: ok },
    { type: 'whisper', to: 1, text: ok },
  ]) {
    const r = act(bnc, s, 0, action);
    assert.equal(r.ok, true, JSON.stringify(r.ok ? null : r.error));
  }
  for (const action of [
    { type: 'say', text: ok + ASTRAL },
    { type: 'whisper', to: 1, text: ok + 'x' },
  ]) {
    const r = act(bnc, s, 0, action);
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.error.code, 'bad_request');
      assert.deepEqual((r.error.detail as { path: string[] }).path, ['text']);
    }
  }
});

test('[BNC-A01, BNC-A07] a refused input leaves the state byte-identical', () => {
  const s = bnc.setup({}, 4);
  const before = JSON.stringify(s);
  for (const bad of [
    null,
    3,
    'wait',
    { type: 'move' },
    { type: 'move', to: 3 },
    { type: 'say', text: 7 },
    { type: 'attack', x: 1 },
  ]) {
    const r = act(bnc, s, 1, bad);
    assert.equal(r.ok, false);
    assert.ok(r.ok || ['bad_request', 'illegal'].includes(r.error.code));
  }
  assert.equal(JSON.stringify(s), before);
});
