// canonicalInput builds the sorted-key form of an input whose keys are not sorted directly; it
// must equal the text round trip JSON.parse(canonicalJson(v)) it replaced, member order and odd keys
// included.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, SeededRandom, type Json } from '../../packages/engine/src/kernel/index.ts';
import { canonicalInput } from '../../packages/engine/src/engine/log.ts';

function randomJson(rnd: SeededRandom, depth: number): Json {
  const k = rnd.int(depth > 3 ? 5 : 7);
  if (k === 0) return [0, -0, 1.5, -7, 1e21, 10][rnd.int(6)];
  if (k === 1) return ['', 'x', 'é', '\ud800', '__proto__'][rnd.int(5)];
  if (k === 2) return rnd.int(2) === 0;
  if (k === 3) return null;
  if (k === 4) return [];
  if (k === 5) return Array.from({ length: rnd.int(4) }, () => randomJson(rnd, depth + 1));
  const keys = ['type', 'cell', 'b', 'a', '10', '9', '__proto__', 'constructor', 'Z', ''];
  const parts: string[] = [];
  for (let i = rnd.int(5); i > 0; i--)
    parts.push(`${JSON.stringify(keys[rnd.int(keys.length)])}:${JSON.stringify(randomJson(rnd, depth + 1))}`);
  return JSON.parse(`{${parts.join(',')}}`) as Json;
}

test('canonicalInput equals the canonical-JSON round trip (key order, -0, __proto__ members)', () => {
  const rnd = new SeededRandom(11);
  let copied = 0;
  for (let i = 0; i < 20000; i++) {
    const v = randomJson(rnd, 0);
    const got = canonicalInput(v);
    // an input whose keys are already sorted is handed back as it is (not this test's subject)
    if (got === v) continue;
    copied++;
    const want = JSON.parse(canonicalJson(v)) as Json;
    assert.deepStrictEqual(got, want);
    assert.equal(JSON.stringify(got), JSON.stringify(want), 'same member order');
    if (got !== null && typeof got === 'object' && !Array.isArray(got))
      assert.equal(Object.getPrototypeOf(got), Object.prototype, 'a plain object, not one whose prototype was set');
  }
  assert.ok(copied > 1000, `${copied} inputs took the copy`);
  assert.deepStrictEqual(canonicalInput({ type: 'mark', cell: 4 }), { cell: 4, type: 'mark' });
  assert.equal(Object.is((canonicalInput({ b: [-0], a: 1 }) as { b: number[] }).b[0], 0), true);
});
