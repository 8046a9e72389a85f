// Batch settlement with the semantic order (AC-10 a–f). Every case builds a fresh round on a
// fresh b_batch board. Constructions:
//  "clear-ready": 4 digs + stop, next round 3 digs; one concealed safe cell (0,6) is left, the
//     figure on (0,5), ap = table - 3 (>= 2).
//  "exhaust-ready": a flag on (1,4) and stop in round 1, then 7 non-clearing digs (the 7th digs
//     mine (1,2)) in a fresh round; ap = 1 and (0,5),(0,6) concealed, figure on (0,4).
//  f: the seed's one-round preparation takes 8 AP (finding FD-M2), so it spans two stopped rounds:
//     mine (1,2) opens the way to (0,0..2), mine (1,5) to (0,4..6); the third round starts with
//     exactly {(0,3),(1,3)} concealed and a full allowance.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ActionOutcome } from '../../packages/engine/src/rulesets/mines/board/types.ts';
import {
  CLEAR_ALL,
  SEVEN_NON_CLEARING,
  batch,
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
  type Step,
} from './helpers.ts';

const EXEC: ActionOutcome = { accepted: true, outcome: 'executed', reject_reason: null, sub_reason: null };
const VOID: ActionOutcome = { accepted: false, outcome: 'voided', reject_reason: null, sub_reason: null };

function clearReady() {
  const t = start('b_batch');
  run(t.w, t.cap, [...CLEAR_ALL.slice(0, 6), stop]);
  nextRound(t.w, t.cap);
  run(t.w, t.cap, [...CLEAR_ALL.slice(6, -1)]);
  assert.equal(t.w.a2.rem, 1);
  assert.ok(t.w.a3.ap >= 2);
  t.cap.reset();
  return t;
}

function exhaustReady() {
  const t = start('b_batch');
  run(t.w, t.cap, [mv(2, 3), place(1, 4), stop]);
  nextRound(t.w, t.cap);
  run(t.w, t.cap, SEVEN_NON_CLEARING);
  assert.equal(t.w.a3.ap, 1);
  assert.equal(t.w.a2.rem, 2);
  t.cap.reset();
  return t;
}

function outcomeOf(t: ReturnType<typeof start>, steps: Step[]) {
  const rap0 = t.w.a3.rap;
  const out = batch(t.w, t.cap, steps);
  const ends = roundEnds(t.cap.events);
  return { out, ends, rapDelta: t.w.a3.rap - rap0, events: t.cap.events.length };
}

test('[AC-10, F4, R9, EC6] a/b: clearing dig vs stop — cleared wins in either arrival order, stop voided, RAP unchanged', () => {
  const a = clearReady();
  const ra = outcomeOf(a, [dig(0, 6), stop]);
  assert.deepEqual(ra.out, [EXEC, VOID]);
  assert.deepEqual(ra.ends, [{ type: 'round_end', path_tag: 'cleared', continuation_hint: 'new_board' }]);
  assert.equal(ra.rapDelta, 0);
  const b = clearReady();
  const rb = outcomeOf(b, [stop, dig(0, 6)]);
  assert.deepEqual(rb.out, [VOID, EXEC]);
  assert.deepEqual(rb.ends, ra.ends);
  assert.equal(rb.rapDelta, ra.rapDelta);
  assert.equal(rb.events, ra.events);
  assert.equal(snapshot(a.w), snapshot(b.w));
});

test('[AC-10, F4, R9, EC6, EC13, R2] c/d: stop vs exhausting dig — stop wins in either order (RAP +1), the dig is voided and its cell stays concealed; flags judged before round_end', () => {
  for (const steps of [
    [dig(0, 5), stop],
    [stop, dig(0, 5)],
  ] as Step[][]) {
    const t = exhaustReady();
    const r = outcomeOf(t, steps);
    assert.deepEqual(r.out, steps[0][0] === 'stop' ? [EXEC, VOID] : [VOID, EXEC]);
    // arrival order alone would give (ap_exhausted, +0); the semantic order gives (stopped, +1)
    assert.deepEqual(r.ends, [{ type: 'round_end', path_tag: 'stopped', continuation_hint: 'same_board' }]);
    assert.equal(r.rapDelta, 1);
    assert.equal(t.w.a2.cover[5 * 7 + 0], '.', 'the voided dig left (0,5) concealed');
    assert.deepEqual(
      t.cap.events.map((e) => e.type),
      ['flag_judged', 'round_end'],
    );
    assert.deepEqual(judged(t.cap.events), [{ type: 'flag_judged', cell: [1, 4], hit: true }]);
    // still concealed in the next round on the same board
    nextRound(t.w, t.cap);
    assert.equal(t.w.a2.cover[5 * 7 + 0], '.');
  }
});

test('[AC-10, EC15, F4] e: two clearing digs in one batch — the first in arrival order wins, the second is voided with no effect', () => {
  const t = clearReady();
  const r = outcomeOf(t, [dig(0, 6), dig(0, 6)]);
  assert.deepEqual(r.out, [EXEC, VOID]);
  assert.equal(r.ends.length, 1);
  assert.equal(t.cap.events.filter((e) => e.type === 'cell_revealed').length, 1);
  // voided intents leave nothing: a flag intent that loses is not judged either
  const u = clearReady();
  const ru = outcomeOf(u, [place(0, 6), dig(0, 6)]);
  assert.deepEqual(ru.out, [VOID, EXEC]);
  assert.equal(judged(u.cap.events).length, 0);
});

test('[AC-10, F4, F1] f: two individually non-clearing digs that clear together — both execute, the second clears, RAP unchanged', () => {
  const t = start('b_batch');
  run(t.w, t.cap, [mv(2, 2), dig(1, 2), mv(1, 2), dig(0, 1), dig(0, 2), mv(0, 1), dig(0, 0), stop]);
  nextRound(t.w, t.cap);
  run(t.w, t.cap, [mv(2, 5), dig(1, 5), mv(1, 5), dig(0, 4), dig(0, 5), dig(0, 6), stop]);
  nextRound(t.w, t.cap);
  const concealed: string[] = [];
  for (let i = 0; i < 49; i++)
    if (t.w.a2.cover[i] !== 'o' && t.w.a2.board?.mines[i] === '0') concealed.push(`${i % 7},${Math.floor(i / 7)}`);
  assert.deepEqual(concealed, ['0,3', '1,3']);
  assert.equal(t.w.a3.ap, t.w.a3.table.ap_per_round);
  run(t.w, t.cap, [mv(0, 2)]);
  t.cap.reset();
  const rap0 = t.w.a3.rap;
  const out = batch(t.w, t.cap, [dig(0, 3), dig(1, 3)]);
  assert.deepEqual(out, [EXEC, EXEC]);
  assert.deepEqual(roundEnds(t.cap.events), [
    { type: 'round_end', path_tag: 'cleared', continuation_hint: 'new_board' },
  ]);
  assert.equal(t.w.a3.rap, rap0);
  assert.equal(t.w.a2.rem, 0);
});
