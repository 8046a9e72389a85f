// The per-minute rate budgets (src/server/budget.ts) on a clock the test moves: each key spends
// its own budget, a refusal spends nothing, and every budget is whole again at the next minute.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Budgets } from '../../src/server/budget.ts';

test('[SRV-BUDGET] each key has max per minute of its own; the next whole minute restores every budget', () => {
  let now = 120_000 + 59_000; // one second before a minute ends
  const b = new Budgets(3, () => now);
  assert.deepEqual(
    [1, 2, 3, 4].map(() => b.spend('t:a')),
    [true, true, true, false],
  );
  assert.equal(b.spend('a:127.0.0.1'), true, 'another key is not spent by the first');
  assert.equal(b.retryAfter(), 1);
  now += 999; // still the same minute
  assert.equal(b.spend('t:a'), false);
  now += 1; // the next minute: whole again, and a refused spend did not carry over
  assert.deepEqual(
    [1, 2, 3, 4].map(() => b.spend('t:a')),
    [true, true, true, false],
  );
  assert.equal(b.retryAfter(), 60);
  now += 60_000 * 5; // minutes with no request in between
  assert.equal(b.spend('t:a'), true);
});
