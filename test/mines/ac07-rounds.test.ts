// Round ends on the board path and the stop path (AC-7, AC-8, AC-9).
// b_batch = b_spawn geometry: 8 concealed safe cells (column x=0 and the gap (1,3)); AP per round
// comes from the ledger table (8 by default), so the constructions below read it, not a literal.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lastRoundEnd } from '../../packages/engine/src/rulesets/mines/ledger/ledger.ts';
import {
  CLEAR_ALL,
  SEVEN_NON_CLEARING,
  act,
  dig,
  judged,
  mv,
  nextRound,
  place,
  roundEnds,
  run,
  snapshot,
  start,
  stop,
  pull,
} from './helpers.ts';

test('[AC-7, EC7, R10, F1] last AP on the last safe cell: one cleared round_end copied from last_round_end, leftover AP not banked', () => {
  // case 1: ap = 1 and one concealed safe cell: cleared and exhaustion coincide, cleared wins
  const { w, cap } = start('b_batch');
  run(w, cap, CLEAR_ALL.slice(0, -1));
  assert.equal(w.a2.rem, 1);
  assert.equal(w.a3.ap, w.a3.table.ap_per_round - 7 * w.a3.table.dig_ap_cost);
  assert.equal(w.a3.ap, 1);
  const rap0 = w.a3.rap;
  cap.reset();
  run(w, cap, CLEAR_ALL.slice(-1));
  const a2Ends = roundEnds(cap.face('a2'));
  assert.equal(a2Ends.length, 1);
  assert.equal(roundEnds(cap.face('a3')).length, 0);
  const rec = lastRoundEnd(w.a3);
  assert.ok(rec);
  assert.deepEqual(a2Ends[0], { type: 'round_end', path_tag: rec.path_tag, continuation_hint: rec.continuation_hint });
  assert.equal(rec.path_tag, 'cleared');
  assert.equal(w.a3.rap, rap0);
  // same payload shape as the stopped path (A3's emitter)
  const s = start('b_batch');
  run(s.w, s.cap, [stop]);
  const stopped = roundEnds(s.cap.face('a3'))[0];
  assert.deepEqual(Object.keys(stopped).sort(), Object.keys(a2Ends[0]).sort());
  for (const k of Object.keys(stopped)) assert.equal(typeof (stopped as never)[k], typeof (a2Ends[0] as never)[k]);

  // case 2: k >= 2 AP left when the last cell opens: still cleared, the k-1 leftover is dropped
  const c2 = start('b_batch');
  run(c2.w, c2.cap, [...CLEAR_ALL.slice(0, 6), stop]); // 4 digs, then stop banks the rest
  const rapAfterStop = c2.w.a3.rap;
  assert.equal(rapAfterStop, c2.w.a3.table.ap_per_round - 4 * c2.w.a3.table.dig_ap_cost);
  nextRound(c2.w, c2.cap);
  run(c2.w, c2.cap, CLEAR_ALL.slice(6, -1));
  const k = c2.w.a3.ap;
  assert.ok(k >= 2);
  c2.cap.reset();
  run(c2.w, c2.cap, CLEAR_ALL.slice(-1));
  assert.deepEqual(roundEnds(c2.cap.events), [
    { type: 'round_end', path_tag: 'cleared', continuation_hint: 'new_board' },
  ]);
  assert.equal(c2.w.a3.rap, rapAfterStop, 'the k-1 AP left are not banked');
  assert.equal(c2.w.a3.ap, 0);
});

test('[AC-8, R10, EC12] a dig spending the last AP without clearing ends the round ap_exhausted; everything after is refused (phase)', () => {
  const { w, cap } = start('b_batch');
  run(w, cap, SEVEN_NON_CLEARING);
  assert.equal(w.a3.ap, 1);
  assert.equal(w.a2.rem, 2);
  cap.reset();
  run(w, cap, [dig(0, 5)]);
  assert.deepEqual(roundEnds(cap.events), [
    { type: 'round_end', path_tag: 'ap_exhausted', continuation_hint: 'same_board' },
  ]);
  assert.equal(w.a3.ap, 0);
  assert.equal(w.a3.phase, 'Waiting');
  cap.reset();
  const before = snapshot(w);
  for (const s of [dig(0, 6), place(0, 6), pull(0, 6), mv(0, 3), stop]) {
    assert.deepEqual(act(w, cap, s), {
      accepted: false,
      outcome: 'rejected',
      reject_reason: 'phase',
      sub_reason: null,
    });
  }
  assert.equal(cap.events.length, 0);
  assert.equal(snapshot(w), before);
});

test('[AC-9, R9, R2, F4] stop banks the remaining AP 1:1; A3 emits the stopped round_end, A2 none; flags are judged first', () => {
  const { w, cap } = start('b_batch');
  run(w, cap, [mv(2, 3), place(1, 2)]);
  const k = w.a3.ap;
  const rap0 = w.a3.rap;
  assert.ok(k >= 1);
  cap.reset();
  run(w, cap, [stop]);
  assert.deepEqual(roundEnds(cap.face('a3')), [
    { type: 'round_end', path_tag: 'stopped', continuation_hint: 'same_board' },
  ]);
  assert.equal(roundEnds(cap.face('a2')).length, 0);
  assert.equal(w.a3.rap, rap0 + k);
  const types = cap.events.map((e) => e.type);
  assert.deepEqual(types, ['flag_judged', 'round_end']);
  assert.deepEqual(judged(cap.events), [{ type: 'flag_judged', cell: [1, 2], hit: true }]);
});
