// parseDeclared answers a repeat of the last flat config a schema accepted without running the
// schema again (setup parses its config once per game; a schema library's parse was a third of a
// short GROUND game), and the answer is always what the schema itself would give.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ArbiterError, parseDeclared, type DeclaredSchema } from '../../packages/engine/src/kernel/index.ts';
import { ground } from '../../packages/engine/src/rulesets/ground/index.ts';

/** A strict two-field config schema that counts its runs and fills a default, like a declared one. */
function countingSchema(): { schema: DeclaredSchema; runs: () => number } {
  let runs = 0;
  const schema: DeclaredSchema = {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate(v) {
        runs++;
        if (v === null || typeof v !== 'object' || Array.isArray(v)) return { issues: [{ message: 'an object' }] };
        const o = v as Record<string, unknown>;
        for (const k of Object.keys(o))
          if (k !== 'players' && k !== 'mode') return { issues: [{ message: 'unknown key', path: [k] }] };
        const players = o.players ?? 4;
        if (typeof players !== 'number' || !Number.isInteger(players) || players < 2 || players > 6)
          return { issues: [{ message: 'players 2..6', path: ['players'] }] };
        const mode = o.mode ?? 'shared';
        if (typeof mode !== 'string') return { issues: [{ message: 'a mode name', path: ['mode'] }] };
        return { value: { players, mode } };
      },
    },
  };
  return { schema, runs: () => runs };
}

const parse = (schema: DeclaredSchema, v: unknown): unknown => parseDeclared(schema, v, 'bad_config', 'test config');

test('[SCHEMA-MEMO] a repeated flat config is parsed once, and each caller gets its own copy', () => {
  const { schema, runs } = countingSchema();
  const first = parse(schema, { players: 2 }) as Record<string, unknown>;
  assert.deepEqual(first, { players: 2, mode: 'shared' });
  assert.equal(runs(), 1);
  first.players = 99; // the caller owns what it was handed
  for (let i = 0; i < 5; i++) {
    const again = parse(schema, { players: 2 });
    assert.deepEqual(again, { players: 2, mode: 'shared' });
    assert.notEqual(again, first);
  }
  assert.equal(runs(), 1, 'the schema ran again for the same flat config');
  // the empty config is its own flat config: parsed once, then answered from the memo
  assert.deepEqual(parse(schema, {}), { players: 4, mode: 'shared' });
  assert.deepEqual(parse(schema, {}), { players: 4, mode: 'shared' });
  assert.equal(runs(), 2);
});

test('[SCHEMA-MEMO] any other input goes through the schema: other values, keys, order, nesting, refusals', () => {
  const { schema, runs } = countingSchema();
  parse(schema, { players: 2, mode: 'a' });
  const cases: [unknown, unknown][] = [
    [
      { players: 3, mode: 'a' },
      { players: 3, mode: 'a' },
    ],
    [{ players: 3 }, { players: 3, mode: 'shared' }],
    [
      { mode: 'a', players: 3 },
      { players: 3, mode: 'a' },
    ],
    [{ players: 3, mode: 'a', extra: 1 }, 'refused'],
    [
      { players: 3, mode: 'a' },
      { players: 3, mode: 'a' },
    ],
    [{ players: 3, mode: ['a'] }, 'refused'],
    [{ players: 7, mode: 'a' }, 'refused'],
    [{ players: 7, mode: 'a' }, 'refused'],
    [Object.assign(Object.create({ players: 3 }), { mode: 'a' }), { players: 3, mode: 'a' }],
  ];
  for (const [input, want] of cases) {
    const before = runs();
    if (want === 'refused')
      assert.throws(
        () => parse(schema, input),
        (e: unknown) => e instanceof ArbiterError && e.code === 'bad_config',
      );
    else assert.deepEqual(parse(schema, input), want);
    // none is the last accepted flat config (a refusal is never remembered, nor a non-plain object)
    assert.equal(runs(), before + 1, `the schema did not run for ${JSON.stringify(input)}`);
  }
});

test('[SCHEMA-MEMO] GROUND setup from a repeated config equals setup from a fresh config object', () => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 0, max: 0xffffffff }), (players, seed) => {
      const shared = { players };
      const a = ground.setup(shared, seed);
      const b = ground.setup(shared, seed);
      const c = ground.setup(JSON.parse(JSON.stringify(shared)), seed);
      assert.deepEqual(a, b);
      assert.deepEqual(a, c);
      assert.equal(a.n, players);
    }),
    { seed: 20261202, numRuns: 50 },
  );
});
