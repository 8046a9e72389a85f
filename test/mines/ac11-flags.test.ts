// Flags: prices, refusals, round-end judgments, persistence; the three refusal sources
// (AC-11, AC-12, AC-13, AC-21). b_flag = b_spawn geometry: (1,2) and (1,4) are mines (hit
// targets), (0,3) is safe (miss target, reachable after digging (1,3)).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { installBoard, retireBoard, tryDig } from '../../packages/engine/src/rulesets/mines/board/engine.ts';
import { fixture } from '../../packages/engine/src/rulesets/mines/fixtures.ts';
import {
  SEVEN_NON_CLEARING,
  act,
  cellsOf,
  dig,
  flagCells,
  judged,
  mineAt,
  mv,
  naiveR0,
  nextRound,
  place,
  pull,
  roundEnds,
  run,
  snapshot,
  start,
  stop,
} from './helpers.ts';

test('[AC-11, R5, R8, EC3] flag place/pull/move-a-flag cost their prices with no event; a flagged cell cannot be dug; flag refusals carry sub_reasons', () => {
  const { w, cap } = start('b_flag');
  run(w, cap, [mv(2, 3)]);
  cap.reset();
  const ap0 = w.a3.ap;
  run(w, cap, [place(1, 4), place(1, 2), pull(1, 2)]);
  const t = w.a3.table;
  assert.equal(ap0 - w.a3.ap, 2 * t.flag_place_ap_cost + t.flag_pull_ap_cost);
  assert.deepEqual(flagCells(w), [[1, 4]]);
  assert.equal(cap.events.length, 0, 'placing and pulling emit nothing');
  const cases: Array<[ReturnType<typeof place>, string]> = [
    [dig(1, 4), 'flag_present'],
    [place(0, 0), 'not_adjacent'],
    [place(2, 2), 'target_revealed'],
    [place(1, 4), 'flag_present'],
    [pull(1, 3), 'flag_absent'],
    [pull(0, 3), 'not_adjacent'],
  ];
  for (const [s, sub] of cases) {
    const before = snapshot(w);
    assert.deepEqual(
      act(w, cap, s),
      { accepted: false, outcome: 'rejected', reject_reason: 'board_face', sub_reason: sub },
      JSON.stringify(s),
    );
    assert.equal(snapshot(w), before);
  }
  assert.equal(cap.events.length, 0);
});

test('[AC-12, R8, EC5] round-end judgments: hit on the mine flag, miss on the safe flag, pulled flags not judged, fog flags never hit, repeated every round', () => {
  // branch 1
  const { w, cap } = start('b_flag');
  run(w, cap, [mv(2, 3), place(1, 4), place(1, 2), pull(1, 2), dig(1, 3), mv(1, 3), place(0, 3)]);
  cap.reset();
  run(w, cap, [stop]);
  assert.deepEqual(judged(cap.events), [
    { type: 'flag_judged', cell: [0, 3], hit: mineAt(w.a2.board!, 0, 3) },
    { type: 'flag_judged', cell: [1, 4], hit: mineAt(w.a2.board!, 1, 4) },
  ]);
  assert.deepEqual(
    judged(cap.events).map((e) => e.hit),
    [false, true],
  );
  // branch 3: the flags stay; the next round's end reports the mine flag again (dedup is B1/B4's)
  nextRound(w, cap);
  cap.reset();
  run(w, cap, [stop]);
  assert.deepEqual(judged(cap.events), [
    { type: 'flag_judged', cell: [0, 3], hit: false },
    { type: 'flag_judged', cell: [1, 4], hit: true },
  ]);
  // branch 2: a flag on concealed fog (6,0) is legal, costs AP, and is judged hit=false
  const f = start('b_fog');
  run(f.w, f.cap, [mv(5, 1)]);
  const ap0 = f.w.a3.ap;
  run(f.w, f.cap, [place(6, 0)]);
  assert.equal(ap0 - f.w.a3.ap, f.w.a3.table.flag_place_ap_cost);
  f.cap.reset();
  run(f.w, f.cap, [stop]);
  assert.deepEqual(judged(f.cap.events), [{ type: 'flag_judged', cell: [6, 0], hit: false }]);
});

test('[AC-13, R8, EC11, R4] flags persist into the next round without replaying the initial expansion; a new board starts with no flags', () => {
  const { w, cap } = start('b_flag');
  run(w, cap, [mv(2, 3), place(1, 4), place(1, 2), stop]);
  const flags = flagCells(w);
  cap.reset();
  nextRound(w, cap);
  assert.deepEqual(flagCells(w), flags);
  assert.equal(cellsOf(cap.events).length, 0, 'no initial expansion on a continued round');
  run(w, cap, [stop]);
  cap.reset();
  assert.equal(retireBoard(w, cap).accepted, true);
  assert.equal(installBoard(w, fixture('b_fog'), cap).accepted, true);
  assert.deepEqual(flagCells(w), []);
  assert.deepEqual(cellsOf(cap.events), naiveR0(fixture('b_fog')));
});

test('[AC-21, R5, EC9, EC12] three distinct refusal sources (resource_face with a price override, board_face not_adjacent/flag_present, phase); off-board input is out_of_catalog with one debug diagnostic', () => {
  // debug override of the table: flag_place costs 2 (the default table cannot short AP)
  const { w, cap } = start('b_flag', { flag_place_ap_cost: 2 });
  run(w, cap, [mv(2, 3), place(1, 4), stop]);
  nextRound(w, cap);
  run(w, cap, SEVEN_NON_CLEARING);
  assert.equal(w.a3.ap, 1);
  cap.reset();
  let before = snapshot(w);
  assert.deepEqual(act(w, cap, place(0, 5)), {
    accepted: false,
    outcome: 'rejected',
    reject_reason: 'resource_face',
    sub_reason: null,
  });
  assert.equal(snapshot(w), before);
  assert.deepEqual(act(w, cap, dig(0, 6)), {
    accepted: false,
    outcome: 'rejected',
    reject_reason: 'board_face',
    sub_reason: 'not_adjacent',
  });
  assert.deepEqual(act(w, cap, dig(1, 4)), {
    accepted: false,
    outcome: 'rejected',
    reject_reason: 'board_face',
    sub_reason: 'flag_present',
  });
  assert.equal(snapshot(w), before);
  run(w, cap, [dig(0, 5)]); // the last AP: ap_exhausted, Waiting
  assert.equal(w.a3.phase, 'Waiting');
  before = snapshot(w);
  assert.deepEqual(act(w, cap, dig(0, 6)), {
    accepted: false,
    outcome: 'rejected',
    reject_reason: 'phase',
    sub_reason: null,
  });
  assert.equal(snapshot(w), before);
  // off the board, in an Active round
  nextRound(w, cap);
  cap.reset();
  before = snapshot(w);
  assert.deepEqual(tryDig(w, [-1, -1], cap), {
    accepted: false,
    outcome: 'rejected',
    reject_reason: 'board_face',
    sub_reason: 'out_of_catalog',
  });
  assert.equal(snapshot(w), before);
  assert.deepEqual(
    cap.diags.map((d) => [d.level, d.category]),
    [['debug', 'out_of_catalog']],
  );
  assert.equal(roundEnds(cap.events).length + cap.events.length, 0);
});
