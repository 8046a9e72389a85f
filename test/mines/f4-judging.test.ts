// Two rules the seed names that no other test pinned down: F4's ban on the counter shortcut
// ("one safe cell left, so any dig clears" is false: a dug mine is not a safe cell), and the
// flag_judged enumeration in row-major order.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SEVEN_NON_CLEARING, batch, dig, judged, mv, nextRound, place, run, start, stop } from './helpers.ts';

test('[F4, R9] with one safe cell left a dig of a mine is not a clearing dig: [stop, dig mine] stops and voids the dig', () => {
  const { w, cap } = start('b_batch');
  run(w, cap, SEVEN_NON_CLEARING); // figure on (0,4); (0,5),(0,6) concealed; ap = 1
  run(w, cap, [stop]);
  nextRound(w, cap);
  run(w, cap, [dig(0, 5)]);
  assert.equal(w.a2.rem, 1, 'one safe cell left: (0,6)');
  const ap = w.a3.ap;
  const rap = w.a3.rap;
  const from = cap.log.length;
  // (1,4) is a concealed mine next to the figure; the shortcut would class it C_dig and run it first
  const out = batch(w, cap, [stop, dig(1, 4)]);
  assert.deepEqual(
    out.map((r) => r.outcome),
    ['executed', 'voided'],
  );
  const evs = cap.since(from);
  assert.ok(!evs.some((e) => e.type === 'cell_revealed'), 'the mine dig left no trace');
  assert.equal(w.a2.cover[4 * 7 + 1], '.', '(1,4) still concealed');
  assert.equal(w.a3.rap, rap + ap, 'the whole remaining AP is banked');
  assert.equal(w.a3.last_round_end?.path_tag, 'stopped');
});

test('[R8, R2] flags are judged in row-major order, whatever order they were placed in', () => {
  const { w, cap } = start('b_flag');
  // stand on (1,3): (0,2), (1,2), (0,3) are all in reach; place them column-first and out of order
  run(w, cap, [mv(2, 3), dig(1, 3), mv(1, 3), place(0, 3), place(1, 2), place(0, 2), stop]);
  assert.deepEqual(
    judged(cap.events).map((e) => (e.type === 'flag_judged' ? e.cell : null)),
    [
      [0, 2],
      [1, 2],
      [0, 3],
    ],
  );
});
