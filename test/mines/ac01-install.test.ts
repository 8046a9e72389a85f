// Install, invariants and the initial expansion (AC-1, AC-1b, AC-2, AC-3).
//
// Registered constants, derived by hand (7x7 boards, cells [x, y]):
//  b_spawn  mines x=1, y in 0..6 except y=3. Columns x>=3 have no mined neighbour (digit 0) and
//           x=2 touches the wall, so R0 = x in 2..6 (all y) = 5*7 = 35; |S| = 49-6 = 43;
//           concealed safe = column x=0 (7) + the gap (1,3) = 8; (1,3) sees (1,2),(1,4): digit 2.
//  b_chain  mines y=4 except (3,4); spawn (3,2). Rows 0..2 are zeros, row 3 touches the wall:
//           R0 = rows 0..3 = 28; |S| = 43; 14 safe cells below the wall.
//  b_fog    b_chain + mines (5,0),(6,1). (4,0),(4,1),(5,1),(5,2),(6,2) become non-zero, (6,0)
//           (fog, digit 2) and (6,2),(6,3) lose every zero neighbour: R0 = 15 (x 0..4, y 0..2)
//           + (5,1),(5,2) + row 3 x 0..5 (6) = 23; |S| = 49-8 = 41.
//  b_degenerate 8x8, one mine at (7,7): every safe cell is reachable through zeros, R0 = S = 63.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createA2, installBoard } from '../../packages/engine/src/rulesets/mines/board/engine.ts';
import { fixture } from '../../packages/engine/src/rulesets/mines/fixtures.ts';
import { notifyRoundStart } from '../../packages/engine/src/rulesets/mines/orchestrator/orchestrator.ts';
import {
  CLEAR_ALL,
  Capture,
  act,
  cellsOf,
  naiveDigit,
  naiveR0,
  naiveR0SquareFirst,
  naiveRing,
  newWorld,
  roundEnds,
  safeCells,
} from './helpers.ts';

test('[AC-1, R3, R4, F3, F1, R2] b_spawn install: free initial expansion equal to R0 in BFS order; the 8th dig clears', () => {
  const w = newWorld();
  const cap = new Capture();
  const b = fixture('b_spawn');
  const r = installBoard(w, b, cap);
  assert.equal(r.accepted, true);
  assert.equal(notifyRoundStart(w), true);
  const ev = cap.events;
  // only cell_revealed, and exactly R0 in canonical order (naive BFS, row-major neighbours)
  assert.ok(ev.every((e) => e.type === 'cell_revealed'));
  const r0 = naiveR0(b);
  assert.deepEqual(cellsOf(ev), r0);
  // the oracle can tell the readings apart: centre first (U-M2), not the 3x3 square row-major
  assert.deepEqual(r0[0], [3, 3]);
  assert.notDeepEqual(cellsOf(ev), naiveR0SquareFirst(b));
  assert.deepEqual(new Set(r0.map(String)), new Set(naiveR0SquareFirst(b).map(String)));
  assert.equal(ev.length, 35); // registered |R0|
  assert.equal(safeCells(b).length, 43); // registered |S|
  // free: the round starts with the table's full allowance and nothing was spent; no diagnostics
  assert.equal(w.a3.ap, w.a3.table.ap_per_round);
  assert.equal(w.a3.spent, 0);
  assert.equal(cap.diags.length, 0);
  for (const e of ev) {
    if (e.type !== 'cell_revealed') continue;
    assert.equal(e.channel, 'initial');
    assert.equal(e.reward_eligible, false);
    assert.equal(e.kind, 'safe');
    assert.deepEqual(e.variant_ids, []);
    assert.equal(e.digit, naiveDigit(b, e.cell[0], e.cell[1]));
  }
  assert.equal(naiveDigit(b, 1, 3), 2); // registered key digit
  assert.equal(w.a2.pos, 3 * 7 + 3); // figure on the spawn centre
  // counted toward clearing: 43 - 35 = 8 concealed safe cells remain, the 8th dig clears
  assert.equal(w.a2.rem, 8);
  let digs = 0;
  cap.reset();
  for (const s of CLEAR_ALL) {
    const before = cap.log.length;
    assert.equal(act(w, cap, s).outcome, 'executed');
    if (s[0] === 'dig') digs++;
    const ends = roundEnds(cap.since(before));
    if (digs < 8) assert.equal(ends.length, 0, `no round end before the 8th dig (dig ${digs})`);
  }
  assert.equal(digs, 8);
  const ends = roundEnds(cap.events);
  assert.equal(ends.length, 1);
  assert.deepEqual(ends[0], { type: 'round_end', path_tag: 'cleared', continuation_hint: 'new_board' });
});

test('[AC-1b, EC1, R3] b_degenerate (R0 = S) is refused with inv4_r0_equals_s; the next install is accepted', () => {
  const w = newWorld();
  const cap = new Capture();
  const deg = fixture('b_degenerate');
  assert.deepEqual(naiveR0(deg).length, safeCells(deg).length); // R0 = S, 63 cells
  const before = JSON.stringify(w);
  const r = installBoard(w, deg, cap);
  assert.equal(r.accepted, false);
  assert.equal(r.reject_reason, 'board_invalid');
  assert.deepEqual(
    cap.diags.map((d) => [d.level, d.category]),
    [['error', 'inv4_r0_equals_s']],
  );
  assert.equal(cap.events.length, 0);
  assert.equal(JSON.stringify(w), before, 'atomic: nothing changed');
  assert.deepEqual(w.a2, createA2());
  cap.reset();
  assert.equal(installBoard(w, fixture('b_spawn'), cap).accepted, true);
  assert.equal(cap.diags.length, 0);
});

test('[AC-2, EC2, R3] each b_invalid_* board is refused with exactly its invariant category', () => {
  const cases: Array<[string, string]> = [
    ['b_invalid_mine_spawn', 'inv1_mine_in_spawn'],
    ['b_invalid_fog_spawn', 'inv2a_variant_in_spawn'],
    ['b_invalid_fog_flood', 'inv2b_variant_in_r0'],
    ['b_invalid_digit', 'inv3_digit_invariant'],
  ];
  for (const [name, category] of cases) {
    const w = newWorld();
    const cap = new Capture(); // reset_diagnostics per case
    const before = JSON.stringify(w);
    const r = installBoard(w, fixture(name), cap);
    assert.equal(r.accepted, false, name);
    assert.equal(r.reject_reason, 'board_invalid', name);
    assert.equal(r.category, category, name);
    assert.deepEqual(
      cap.diags.map((d) => [d.level, d.category]),
      [['error', category]],
      name,
    );
    assert.equal(cap.events.length, 0, name);
    assert.equal(JSON.stringify(w), before, `${name}: state unchanged`);
  }
  // the fixtures break what they claim: (5,1) is an R0 member of b_fog, (1,3)'s true digit is 2
  assert.ok(naiveR0(fixture('b_fog')).some(([x, y]) => x === 5 && y === 1));
  const bad = fixture('b_invalid_digit');
  assert.notEqual(Number(bad.digits[3 * 7 + 1]), naiveDigit(bad, 1, 3));
});

test('[AC-3, F3, R4] b_chain and b_fog: initial domain equals R0 exactly and lies inside R0 plus one ring', () => {
  const expected: Record<string, { r0: number; s: number }> = { b_chain: { r0: 28, s: 43 }, b_fog: { r0: 23, s: 41 } };
  for (const name of ['b_chain', 'b_fog']) {
    const w = newWorld();
    const cap = new Capture();
    const b = fixture(name);
    assert.equal(installBoard(w, b, cap).accepted, true);
    const e = cellsOf(cap.events);
    const r0 = naiveR0(b);
    const ring = naiveRing(b, r0);
    for (const [x, y] of e) assert.ok(ring.has(`${x},${y}`), `${name}: arm 1, [${x},${y}] in X(B)`);
    assert.deepEqual(e, r0, `${name}: arm 2, E(B) = R0(B) cell by cell and in order`);
    assert.equal(r0.length, expected[name].r0);
    assert.equal(safeCells(b).length, expected[name].s);
    assert.equal(w.a2.rem, expected[name].s - expected[name].r0);
  }
  // b_chain's R0 is exactly rows 0..3; b_fog drops (5,0)/(6,1) (mines), (6,0) (fog), (6,2), (6,3)
  const chainR0 = naiveR0(fixture('b_chain'))
    .map(([x, y]) => `${x},${y}`)
    .sort();
  const rows03: string[] = [];
  for (let y = 0; y <= 3; y++) for (let x = 0; x < 7; x++) rows03.push(`${x},${y}`);
  assert.deepEqual(chainR0, rows03.sort());
  const fogR0 = new Set(naiveR0(fixture('b_fog')).map(([x, y]) => `${x},${y}`));
  for (const c of ['6,0', '6,2', '6,3', '4,3', '5,1']) assert.equal(fogR0.has(c), c === '4,3' || c === '5,1', c);
});
