// Streaming aggregates: merging shards equals folding everything at once, memory stays bounded,
// quantiles are exact while values are few and within the sketch's 2% past that.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addValue, mergeFigure, newFigure, quantile, summarizeFigure, wilson } from '../../src/runners/aggregate.ts';

test('[sim] a figure merged from any split of the values equals the figure of all of them (integers)', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -50, max: 400 }), { maxLength: 300 }), fc.nat(300), (values, cut) => {
      const whole = newFigure();
      for (const v of values) addValue(whole, v);
      const a = newFigure();
      const b = newFigure();
      values.forEach((v, i) => addValue(i < cut ? a : b, v));
      mergeFigure(a, b);
      assert.deepEqual(summarizeFigure(a), summarizeFigure(whole));
    }),
    { seed: 42, numRuns: 200 },
  );
});

test('[sim] exact quantiles while distinct values are few', () => {
  const f = newFigure();
  for (let v = 1; v <= 100; v++) addValue(f, v);
  assert.equal(quantile(f, 0.5), 50);
  assert.equal(quantile(f, 0.9), 90);
  assert.equal(quantile(f, 0.99), 99);
  assert.equal(f.hist.exact, true);
});

test('[sim] past 512 distinct values the histogram becomes a bounded sketch with 2% relative error', () => {
  const f = newFigure();
  const values: number[] = [];
  for (let i = 0; i < 100_000; i++) {
    const v = 1 + ((i * 7919) % 50_000) / 7;
    values.push(v);
    addValue(f, v);
  }
  assert.equal(f.hist.exact, false);
  assert.ok(Object.keys(f.hist.counts).length < 1000, 'the sketch stays small');
  values.sort((x, y) => x - y);
  for (const q of [0.5, 0.9, 0.99]) {
    const truth = values[Math.ceil(q * values.length) - 1];
    const got = quantile(f, q);
    assert.ok(Math.abs(got - truth) / truth <= 0.02, `q${q}: ${got} vs ${truth}`);
  }
});

test('[sim] Wilson intervals contain the rate and shrink with more games', () => {
  const [lo, hi] = wilson(50, 100);
  assert.ok(lo < 0.5 && hi > 0.5);
  const [lo2, hi2] = wilson(5000, 10000);
  assert.ok(hi2 - lo2 < hi - lo);
  assert.deepEqual(wilson(0, 0), [0, 1]);
});
