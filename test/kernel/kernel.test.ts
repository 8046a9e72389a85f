import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  canonicalJson,
  cloneJson,
  codePointLength,
  createRng,
  hashText,
  jsonEqual,
  type Json,
  secretsIn,
  nextInt,
  nextU32,
  shuffleInPlace,
  StreamHash,
  act,
  ArbiterError,
} from '../../packages/engine/src/kernel/index.ts';
import { tictactoe } from '../../packages/engine/src/rulesets/tictactoe/index.ts';

test('canonical JSON sorts keys at every depth and is insensitive to insertion order', () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 1 }], c: null } }),
    '{"a":{"c":null,"d":[1,{"y":1,"z":0}]},"b":1}',
  );
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
      const reversed = Object.fromEntries(Object.entries(obj).reverse());
      return canonicalJson(obj) === canonicalJson(reversed);
    }),
    { seed: 1, numRuns: 200 },
  );
});

test('canonical JSON refuses non-JSON numbers', () => {
  assert.throws(() => canonicalJson({ x: NaN }));
  assert.throws(() => canonicalJson({ x: Infinity }));
});

test('cloneJson gives an equal, independent copy', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (v) => {
      const c = cloneJson(v);
      return jsonEqual(v, c) && canonicalJson(v) === canonicalJson(c);
    }),
    { seed: 2, numRuns: 200 },
  );
  const o = { a: [1, 2] };
  const c = cloneJson(o);
  c.a.push(3);
  assert.deepEqual(o.a, [1, 2]);
});

test('hash: stable known values, order-sensitive, chunk-boundary-sensitive', () => {
  assert.equal(hashText(''), hashText(''));
  assert.equal(hashText('abc').length, 16);
  assert.notEqual(hashText('abc'), hashText('acb'));
  assert.notEqual(
    new StreamHash().update('ab').update('c').digest(),
    new StreamHash().update('a').update('bc').digest(),
  );
  // pinned: a change of the hash function would silently invalidate every recorded log
  assert.equal(hashText('arbiter'), 'f7efa67853d5f109');
});

test('RNG streams: same seed same numbers; streams independent; state is plain JSON and resumable', () => {
  const a = createRng(7);
  const b = createRng(7);
  const xs = Array.from({ length: 5 }, () => nextU32(a, 'deal'));
  const ys = Array.from({ length: 5 }, () => nextU32(b, 'deal'));
  assert.deepEqual(xs, ys);
  // drawing from another stream does not shift this one
  const c = createRng(7);
  nextU32(c, 'other');
  nextU32(c, 'other');
  assert.deepEqual(
    Array.from({ length: 5 }, () => nextU32(c, 'deal')),
    xs,
  );
  // save and resume mid-stream
  const d = createRng(9);
  nextU32(d, 's');
  const saved = JSON.parse(JSON.stringify(d));
  assert.equal(nextU32(d, 's'), nextU32(saved, 's'));
  // small consecutive seeds give unrelated first values
  const firsts = Array.from({ length: 12 }, (_, s) => nextU32(createRng(s), 'x'));
  assert.equal(new Set(firsts).size, 12);
  assert.ok(firsts.every((v) => v >= 0 && v <= 0xffffffff && Number.isInteger(v)));
});

test('RNG: nextInt is in range and roughly uniform; shuffle is a permutation', () => {
  const r = createRng(3);
  const counts = new Array(6).fill(0);
  for (let i = 0; i < 60000; i++) counts[nextInt(r, 'd', 6)]++;
  for (const c of counts) assert.ok(c > 9400 && c < 10600, `count ${c}`);
  const arr = Array.from({ length: 20 }, (_, i) => i);
  shuffleInPlace(r, 'sh', arr);
  assert.deepEqual(
    [...arr].sort((x, y) => x - y),
    Array.from({ length: 20 }, (_, i) => i),
  );
  assert.throws(() => createRng(-1), ArbiterError);
  assert.throws(() => createRng(1.5), ArbiterError);
});

test('code points, not UTF-16 units', () => {
  assert.equal(codePointLength('abc'), 3);
  assert.equal(codePointLength('😀😀'), 2);
  assert.equal('😀😀'.length, 4);
  assert.equal(codePointLength('e\u0301'), 2);
  assert.equal(codePointLength('\ud800'), 1); // a lone surrogate counts once
});

test('act never mutates its input and refuses with typed codes', () => {
  const s = tictactoe.setup({}, 1);
  const before = canonicalJson(s);
  const ok = act(tictactoe, s, 0, { type: 'mark', cell: 4 });
  assert.ok(ok.ok);
  assert.equal(canonicalJson(s), before);
  const codes = [
    act(tictactoe, s, 1, { type: 'mark', cell: 0 }),
    act(tictactoe, s, 5, { type: 'mark', cell: 0 }),
    act(tictactoe, s, '0', { type: 'mark', cell: 0 }),
    act(tictactoe, s, 0, 'cell 4'),
    act(tictactoe, s, 0, { type: 'mark', cell: 99 }),
  ].map((r) => (r.ok ? 'accepted' : r.error.code));
  assert.deepEqual(codes, ['out_of_turn', 'bad_request', 'bad_request', 'bad_request', 'bad_request']);
  assert.equal(canonicalJson(s), before);
});

test('[KERNEL-SECRETS] secretsIn finds whole subtrees at any depth, key order aside, and strings of six or more characters', () => {
  const view = {
    hand: [
      { id: 'c1', cost: 2 },
      { cost: 3, id: 'c2' },
    ],
    log: ['whispered: meet at dawn'],
    pair: [1, [2, 3]],
  };
  const secrets: Json[] = [
    { id: 'c2', cost: 3 }, // a part, its keys in another order
    { id: 'c2', cost: 4 }, // same size as two parts, equal to none
    { id: 'c2' }, // part of a part is not a whole subtree
    [2, 3],
    [3, 2],
    'meet at dawn',
    'dawn', // too short to judge
    7,
  ];
  assert.deepEqual(secretsIn(view, secrets), [{ id: 'c2', cost: 3 }, [2, 3], 'meet at dawn']);
  // property: a part of a random value is always found, alone or among other secrets
  fc.assert(
    fc.property(fc.jsonValue(), fc.array(fc.jsonValue(), { maxLength: 3 }), (v, others) => {
      const parts: unknown[] = [];
      const walk = (x: unknown): void => {
        if (x === null || typeof x !== 'object') return;
        parts.push(x);
        for (const y of Object.values(x)) walk(y);
      };
      walk(v);
      for (const p of parts) assert.ok(secretsIn(v, [...(others as never[]), p as never]).includes(p as never));
    }),
    { seed: 24, numRuns: 200 },
  );
});
