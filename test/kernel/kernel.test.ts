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
  sortedKeys,
  StreamHash,
  findInJson,
  isPlainJson,
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

test('canonical JSON: sortedKeys gives the order of Object.keys(o).sort(), for keys in any order and integer-like ones', () => {
  assert.deepEqual(sortedKeys({ 10: 0, 2: 0, b: 0, a: 0 }), ['10', '2', 'a', 'b']);
  assert.deepEqual(sortedKeys({ a: 0, b: 0 }), ['a', 'b']);
  const key = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.nat().map(String),
    fc.constantFrom('a', 'b', 'B', 'é', '\u{1F600}'),
  );
  fc.assert(
    fc.property(fc.array(fc.tuple(key, fc.integer()), { maxLength: 12 }), (pairs) => {
      const o = Object.fromEntries(pairs);
      assert.deepEqual(sortedKeys(o), Object.keys(o).sort());
      assert.deepEqual(sortedKeys(Object.fromEntries(Object.entries(o).sort())), Object.keys(o).sort());
    }),
    { seed: 3, numRuns: 500 },
  );
});

test('isPlainJson takes JSON values only: finite numbers, plain objects and arrays, at most 200 deep', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (v) => isPlainJson(v)),
    { seed: 4, numRuns: 300 },
  );
  const bad = [NaN, Infinity, () => 0, new Date(0), new Map(), Symbol('s'), 1n, undefined];
  fc.assert(
    fc.property(fc.jsonValue(), fc.constantFrom(...bad), fc.nat(), (v, x, at) => {
      // the bad leaf put somewhere inside a JSON value makes the whole value not plain JSON
      const holder = [v, { k: [x] }];
      if (at % 2) holder.reverse();
      return !isPlainJson(holder);
    }),
    { seed: 5, numRuns: 300 },
  );
  // an undefined member is left out (as JSON.stringify leaves it out); an inherited one is not looked at
  assert.equal(isPlainJson({ a: undefined, b: 1 }), true);
  assert.equal(isPlainJson(Object.assign(Object.create(null), { a: [1] })), true);
  assert.equal(isPlainJson(new (class {})()), false);
  let deep: Json = 0;
  for (let i = 0; i < 201; i++) deep = [deep];
  assert.equal(isPlainJson(deep), false);
  assert.equal(isPlainJson((deep as Json[])[0]), true);
});

test('findInJson names the path of the first key or leaf picked ("a.b[2].c"), in key order', () => {
  // the path every member would have, written out in full: what the search must agree with
  const reference = (v: unknown, pick: (k: string | null, x: unknown) => boolean, path = ''): string | null => {
    if (v === null || typeof v !== 'object') return pick(null, v) ? path || '(the value)' : null;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const hit = reference(v[i], pick, `${path}[${i}]`);
        if (hit !== null) return hit;
      }
      return null;
    }
    for (const k of Object.keys(v)) {
      const p = path ? `${path}.${k}` : k;
      if (pick(k, undefined)) return p;
      const hit = reference((v as Record<string, unknown>)[k], pick, p);
      if (hit !== null) return hit;
    }
    return null;
  };
  assert.equal(findInJson({ a: { b: [0, 1, { c: 7 }] } }, { leaf: (x) => x === 7 }), 'a.b[2].c');
  assert.equal(findInJson(7, { leaf: (x) => x === 7 }), '(the value)');
  assert.equal(findInJson([[1], 2], { leaf: (x) => x === 2 }), '[1]');
  fc.assert(
    fc.property(fc.jsonValue(), fc.integer({ min: -3, max: 3 }), fc.string({ maxLength: 1 }), (v, n, c) => {
      const leaf = (x: unknown) => x === n;
      const key = (k: string) => k.startsWith(c) && c !== '';
      assert.equal(
        findInJson(v, { leaf }),
        reference(v, (k, x) => k === null && leaf(x)),
      );
      assert.equal(
        findInJson(v, { key }),
        reference(v, (k) => k !== null && key(k)),
      );
    }),
    { seed: 6, numRuns: 500 },
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
