// The seed's contracts as predicates, on hand-built records: each accepts the transition it
// describes, names the conjunct that fails otherwise, and its frame condition rejects an after-
// record that also changed something it does not list.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ActionComplete,
  ActionEffectsBegin5,
  ActionNestedReturn5,
  DiscardStep,
  DoCheckpoint,
  DoFatal,
  ObjectiveWinners,
  OutcomeOf,
  PhaseEndComplete,
  PhaseEndDirected,
  PhaseEndOrdinary,
  Points,
  TurnFormalBegin5,
  TurnFormalEnd5,
  TurnFrameValid5,
  TurnHandoff5,
  except,
  type ProcRecord,
} from '../../packages/engine/src/rulesets/duel/contracts/index.ts';
import type { ActionFrame, Frame } from '../../packages/engine/src/rulesets/duel/state.ts';

const frame = (over: Partial<Frame> = {}): Frame => ({
  owner: 1,
  phase: 'action',
  id: 5,
  formalBegun: false,
  formalEnded: false,
  begunCounts: [2, 1],
  ...over,
});
const act = (over: Partial<ActionFrame> = {}): ActionFrame => ({
  id: 30,
  owner: 1,
  kind: 'run',
  card: null,
  status: 'CostReactions',
  child: 0,
  fx: 0,
  ...over,
});
const beginEvent = (f: Frame) => [{ type: 'turn_begin', turn: f.id, seat: f.owner }];

test('[TurnFrameValid5] owner, phase from the owner’s sequence, positive id, Boolean flags, counts for both seats', () => {
  assert.equal(TurnFrameValid5(frame()), null);
  assert.equal(TurnFrameValid5(frame({ owner: 0, phase: 'draw' })), null);
  assert.equal(TurnFrameValid5(frame({ owner: 2 }))?.conjunct, 'owner \\in Players');
  assert.equal(TurnFrameValid5(frame({ phase: 'draw' }))?.conjunct, 'phase \\in PhaseSeq(owner)'); // the runner has no draw phase
  assert.equal(TurnFrameValid5(frame({ id: 0 }))?.conjunct, 'id > 0');
  assert.equal(TurnFrameValid5(frame({ formalBegun: 1 as unknown as boolean }))?.conjunct, 'formalBegun \\in BOOLEAN');
  assert.equal(TurnFrameValid5(frame({ begunCounts: [1] }))?.conjunct, 'begunCounts \\in [Players -> Nat]');
  assert.equal(TurnFrameValid5(frame({ begunCounts: [1, -1] }))?.conjunct, 'begunCounts \\in [Players -> Nat]');
  assert.equal(TurnFrameValid5({ ...frame(), extra: 1 } as Frame)?.conjunct, 'record has exactly the frame fields');
});

test('[TurnFormalBegin5] sets the begun flag and counts the owner’s begin, with exactly its event', () => {
  const b = frame();
  const a = frame({ formalBegun: true, begunCounts: [2, 2] });
  assert.equal(TurnFormalBegin5(b, a, true, beginEvent(b)), null);
  assert.equal(TurnFormalBegin5(b, a, false, beginEvent(b))?.conjunct, 'atActualFormalBeginStep');
  assert.equal(TurnFormalBegin5(frame({ formalBegun: true }), a, true, beginEvent(b))?.conjunct, '~before.formalBegun');
  assert.equal(TurnFormalBegin5(frame({ formalEnded: true }), a, true, beginEvent(b))?.conjunct, '~before.formalEnded');
  assert.equal(TurnFormalBegin5(b, a, true, [])?.conjunct, 'events = {TurnBeginEvent5(before)}');
  assert.equal(
    TurnFormalBegin5(b, a, true, [{ type: 'turn_begin', turn: 4, seat: 1 }])?.conjunct,
    'events = {TurnBeginEvent5(before)}',
  );
  assert.equal(
    TurnFormalBegin5(b, a, true, [...beginEvent(b), ...beginEvent(b)])?.conjunct,
    'events = {TurnBeginEvent5(before)}',
  );
  // frame condition: counting the wrong seat, or also changing the phase, fails the EXCEPT conjunct
  const wrongSeat = TurnFormalBegin5(b, frame({ formalBegun: true, begunCounts: [3, 1] }), true, beginEvent(b));
  assert.match(wrongSeat!.conjunct, /^after = \[before EXCEPT/);
  assert.match(wrongSeat!.detail!, /^begunCounts\.0/);
  const alsoPhase = TurnFormalBegin5(b, { ...a, phase: 'discard' }, true, beginEvent(b));
  assert.match(alsoPhase!.detail!, /^phase: expected "action", got "discard"/);
});

test('[TurnFormalEnd5] marks the formal end once, after the begin, with its event', () => {
  const b = frame({ formalBegun: true, phase: 'discard' });
  const ev = [{ type: 'turn_end', turn: 5, seat: 1 }];
  assert.equal(TurnFormalEnd5(b, { ...b, formalEnded: true }, true, ev), null);
  assert.equal(TurnFormalEnd5(frame(), { ...frame(), formalEnded: true }, true, ev)?.conjunct, 'before.formalBegun');
  assert.equal(TurnFormalEnd5(b, { ...b, formalEnded: true }, false, ev)?.conjunct, 'atActualFormalEndStep');
  assert.equal(
    TurnFormalEnd5(b, { ...b, formalEnded: true }, true, beginEvent(b))?.conjunct,
    'events = {TurnEndEvent5(before)}',
  );
  assert.match(
    TurnFormalEnd5(b, { ...b, formalEnded: true, id: 6 }, true, ev)!.conjunct,
    /^after = \[before EXCEPT !\.formalEnded = TRUE\]/,
  );
});

test('[TurnHandoff5] opens the other seat’s frame with a fresh id and clear flags, keeping begun counts', () => {
  const b = frame({ formalBegun: true, formalEnded: true, phase: 'discard' });
  const a = frame({ owner: 0, phase: 'draw', id: 9, begunCounts: [2, 1] });
  assert.equal(TurnHandoff5(b, a, true, 9), null);
  assert.equal(TurnHandoff5(b, a, false, 9)?.conjunct, 'oldProcedureComplete');
  assert.equal(TurnHandoff5({ ...b, formalEnded: false }, a, true, 9)?.conjunct, 'before.formalEnded');
  assert.equal(TurnHandoff5(b, a, true, 5)?.conjunct, 'freshId > before.id');
  const reset = TurnHandoff5(b, { ...a, begunCounts: [0, 0] }, true, 9);
  assert.match(reset!.conjunct, /begunCounts preserved/);
  assert.equal(TurnHandoff5(b, { ...a, phase: 'action' }, true, 9)?.detail, 'phase: expected "draw", got "action"');
});

test('[ActionEffectsBegin5] only a drained cost boundary moves CostReactions to Effects, changing nothing else', () => {
  const b = act();
  assert.equal(ActionEffectsBegin5(b, act({ status: 'Effects' }), true), null);
  assert.equal(
    ActionEffectsBegin5(b, act({ status: 'Effects' }), false)?.conjunct,
    'costCheckpointAndReactionsDrained',
  );
  assert.equal(
    ActionEffectsBegin5(act({ status: 'Nested' }), act({ status: 'Effects' }), true)?.conjunct,
    'before.status = "CostReactions"',
  );
  assert.equal(ActionEffectsBegin5(b, act({ status: 'Effects', fx: 1 }), true)?.detail, 'fx: expected 0, got 1');
});

test('[ActionNestedReturn5] the wait on child 31 is not satisfied by a receipt for child 32', () => {
  const b = act({ status: 'Nested', child: 31 });
  const a = act({ status: 'Effects', child: 0 });
  assert.equal(ActionNestedReturn5(b, a, 31), null);
  const v = ActionNestedReturn5(b, a, 32);
  assert.equal(v?.conjunct, 'completedId = before.child');
  assert.equal(v?.detail, 'receipt 32, waiting on 31');
  assert.equal(ActionNestedReturn5(act({ status: 'Effects', child: 31 }), a, 31)?.conjunct, 'before.status = "Nested"');
  assert.equal(
    ActionNestedReturn5(b, act({ status: 'Complete', child: 0 }), 31)?.detail,
    'status: expected "Effects", got "Complete"',
  );
});

test('[ActionComplete] complete only from Effects once the effects resolved', () => {
  assert.equal(ActionComplete(act({ status: 'Effects', fx: 1 }), act({ status: 'Complete', fx: 1 }), true), null);
  assert.equal(
    ActionComplete(act({ status: 'Nested' }), act({ status: 'Complete' }), true)?.conjunct,
    'before.status = "Effects"',
  );
  assert.equal(
    ActionComplete(act({ status: 'Effects' }), act({ status: 'Complete' }), false)?.conjunct,
    'all effects resolved',
  );
});

const proc = (over: Partial<ProcRecord> = {}): ProcRecord => ({
  phase: 'action',
  step: 'A2',
  directed: false,
  acting: false,
  windows: 0,
  cpDue: false,
  queued: 0,
  ...over,
});

test('[PhaseEndOrdinary] with no action opportunity left the phase ends and its checkpoint becomes due', () => {
  const b = proc();
  assert.equal(PhaseEndOrdinary(b, proc({ step: 'A5', cpDue: true, queued: 1 }), true, 1), null);
  assert.equal(
    PhaseEndOrdinary(b, proc({ step: 'A5', cpDue: true }), false, 0)?.conjunct,
    'noActionOpportunity (no clicks remain)',
  );
  assert.equal(
    PhaseEndOrdinary(proc({ directed: true }), proc({ step: 'A5', cpDue: true }), true, 0)?.conjunct,
    '~before.directed',
  );
  assert.equal(
    PhaseEndOrdinary(b, proc({ step: 'A5', cpDue: false }), true, 0)?.detail,
    'cpDue: expected true, got false',
  );
  assert.equal(
    PhaseEndOrdinary(b, proc({ step: 'A5', cpDue: true, queued: 0 }), true, 1)?.detail,
    'queued: expected 1, got 0',
  );
});

test('[PhaseEndDirected] a directed end closes windows and makes the checkpoint due; it is not the discard', () => {
  const b = proc({ step: 'A1', directed: true, windows: 1 });
  assert.equal(PhaseEndDirected(b, proc({ step: 'A5', cpDue: true }), 0), null);
  assert.equal(
    PhaseEndDirected(proc({ step: 'A1' }), proc({ step: 'A5', cpDue: true }), 0)?.conjunct,
    'before.directed',
  );
  assert.equal(
    PhaseEndDirected({ ...b, acting: true }, proc({ step: 'A5', cpDue: true }), 0)?.conjunct,
    '~before.acting (resolving work counts complete)',
  );
  assert.equal(
    PhaseEndDirected(b, proc({ step: 'A5', cpDue: true, phase: 'discard' }), 0)?.detail,
    'phase: expected "action", got "discard"',
  );
});

test('[PhaseEndComplete] discard is entered only after the ending checkpoint and reactions drained', () => {
  const f = frame({ formalBegun: true });
  const b = proc({ step: 'A5' });
  assert.equal(PhaseEndComplete(f, { ...f, phase: 'discard' }, b, proc({ step: 'D1', phase: 'discard' }), true), null);
  assert.equal(
    PhaseEndComplete(
      f,
      { ...f, phase: 'discard' },
      { ...b, queued: 1 },
      proc({ step: 'D1', phase: 'discard', queued: 1 }),
      false,
    )?.conjunct,
    'endingCheckpointDrained',
  );
  assert.equal(
    PhaseEndComplete(f, { ...f, phase: 'discard', formalEnded: true }, b, proc({ step: 'D1', phase: 'discard' }), true)
      ?.detail,
    'formalEnded: expected false, got true',
  );
});

test('[DiscardStep, U-SKIP, U-EMPTYDISCARD] skip, empty and ordinary branches are separate', () => {
  const rec = (hand: string[], skip = false, step = 'D1') => ({ hand, heap: [], skip, step });
  // skipped: only the flag and the step change, whatever the limit
  assert.equal(DiscardStep(rec(['a', 'b', 'c'], true), rec(['a', 'b', 'c'], false, 'D2'), -1, null, true, []), null);
  assert.match(
    DiscardStep(rec(['a', 'b'], true), { ...rec(['a'], false, 'D2') }, 1, null, true, [])!.conjunct,
    /^skip branch/,
  );
  // within the limit: nothing, and no event
  assert.equal(DiscardStep(rec(['a']), rec(['a'], false, 'D2'), 1, null, true, []), null);
  assert.equal(
    DiscardStep(rec(['a']), rec(['a'], false, 'D2'), 1, null, true, [{ type: 'discarded' }])?.conjunct,
    'no discard event for an empty batch',
  );
  // a negative limit is never a discard
  assert.equal(
    DiscardStep(rec(['a']), rec([], false, 'D2'), -1, ['a'], true, [{ type: 'discarded' }])?.conjunct,
    'effMax >= 0 (a negative limit is the DoFatal branch)',
  );
  // ordinary: exactly the excess, from the hand, to the heap with its arrival face
  const ok = {
    hand: ['b'],
    heap: [
      { card: 'a', up: false },
      { card: 'c', up: false },
    ],
    skip: false,
    step: 'D2',
  };
  assert.equal(DiscardStep(rec(['a', 'b', 'c']), ok, 1, ['a', 'c'], false, [{ type: 'discarded' }]), null);
  assert.equal(
    DiscardStep(rec(['a', 'b', 'c']), ok, 1, ['a'], false, [{ type: 'discarded' }])?.conjunct,
    'Len(batch) = need',
  );
  assert.equal(
    DiscardStep(rec(['a', 'b', 'c']), ok, 1, ['a', 'z'], false, [{ type: 'discarded' }])?.conjunct,
    'batch \\subseteq before.hand',
  );
  assert.equal(
    DiscardStep(
      rec(['a', 'b', 'c']),
      {
        ...ok,
        heap: [
          { card: 'a', up: true },
          { card: 'c', up: false },
        ],
      },
      1,
      ['a', 'c'],
      false,
      [{ type: 'discarded' }],
    )?.detail,
    'heap.0.up: expected false, got true',
  );
  assert.equal(
    DiscardStep(rec(['a', 'b', 'c']), ok, 1, null, false, [])?.conjunct,
    'a nonempty required batch is chosen',
  );
});

test('[ObjectiveWinners] seats with 7 or more points, summed over their score area', () => {
  assert.equal(
    Points([
      { card: 'ledger', pts: 2 },
      { card: 'start', pts: 5 },
    ]),
    7,
  );
  assert.deepEqual(ObjectiveWinners([6, 7]), [1]);
  assert.deepEqual(ObjectiveWinners([7, 9]), [0, 1]);
  assert.deepEqual(ObjectiveWinners([6, 6]), []);
  assert.deepEqual(OutcomeOf([0, 1]), { winners: [], reason: 'simultaneous win: draw' });
});

test('[DoCheckpoint, U-RETIRE, U-SIMUL] winners are tested before pending abilities retire into a window', () => {
  const queue = [{ src: 'ledger', who: 1 }];
  const b = { cpDue: true, result: null, queue, win: [] };
  const won = { cpDue: false, result: { winners: [1], reason: 'points' }, queue, win: [] };
  assert.equal(DoCheckpoint(b, won, true, [], [5, 7], 1), null);
  // draining first (the broken order) fails the winners branch
  const drained = {
    cpDue: false,
    result: null,
    queue: [],
    win: [{ kind: 'react' as const, prio: 1, passed: false, abilities: queue }],
  };
  assert.match(DoCheckpoint(b, drained, true, [], [5, 7], 1)!.conjunct, /^W # \{\} =>/);
  // no winner: retirement opens the reaction window, active seat first
  assert.equal(DoCheckpoint(b, drained, true, [], [5, 5], 1), null);
  // supplied simultaneous winners join the objective winners: two winners is a draw
  assert.equal(
    DoCheckpoint(b, { ...won, result: { winners: [], reason: 'simultaneous win: draw' } }, true, [0], [5, 7], 1),
    null,
  );
  assert.equal(DoCheckpoint({ ...b, cpDue: false }, won, true, [], [5, 7], 1)?.conjunct, 'before.cpDue');
  assert.equal(DoCheckpoint(b, won, false, [], [5, 7], 1)?.conjunct, 'ready');
});

test('[DoFatal] each fatal condition only at its own boundary, recording the other seat’s win', () => {
  const b = { result: null };
  assert.equal(DoFatal(b, { result: { winners: [0], reason: 'flatline' } }, true, 'damage', true, 1), null);
  assert.equal(DoFatal(b, { result: { winners: [1], reason: 'decked' } }, true, 'empty_draw', true, 0), null);
  assert.equal(
    DoFatal(b, { result: { winners: [0], reason: 'negative hand limit' } }, true, 'negative_limit', false, 1)?.conjunct,
    'condition negative_limit holds at its own boundary',
  );
  assert.equal(
    DoFatal(b, { result: { winners: [0], reason: 'flatline' } }, false, 'damage', true, 1)?.conjunct,
    'validProcedure',
  );
  assert.equal(
    DoFatal(b, { result: { winners: [1], reason: 'flatline' } }, true, 'damage', true, 1)?.detail?.startsWith(
      'result.winners.0',
    ),
    true,
  );
});

test('[TurnFormalBegin5] the EXCEPT helper copies the record and applies exactly the listed updates', () => {
  const b = frame();
  const a = except(b, [['formalBegun'], true], [['begunCounts', 1], (n: number) => n + 1]);
  assert.deepEqual(a, { ...b, formalBegun: true, begunCounts: [2, 2] });
  assert.deepEqual(b.begunCounts, [2, 1], 'before is untouched');
});
