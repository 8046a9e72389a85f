// Digging, chains, fog and mines (AC-4, AC-5, AC-6, AC-15).
//
// b_chain cascade set C (registered |C| = 13): after (3,4) and (3,5) are open, digging (3,6)
// (digit 0: nothing mined below row 4) spreads along row 6 (all zeros) and opens row 5; row 5
// cells touch the wall so they do not spread. C = (3,6) + the 6 other row-6 cells + the 6 other
// row-5 cells = 13 cells = chain_size 12 + the dug cell. With a flag on (2,5) the flagged cell
// alone is held back ((1,5),(1,6) still open through (2,6)): 12 cells open, chain_size = 11.
// The seed registers chain_size = 12 for that branch (finding FD-M1): we keep the derivation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settleBatch, tryDig } from '../../packages/engine/src/rulesets/mines/board/engine.ts';
import type { CellRevealed } from '../../packages/engine/src/rulesets/mines/board/types.ts';
import {
  act,
  cellsOf,
  dig,
  flagCells,
  judged,
  mv,
  naiveChain,
  naiveDigit,
  openCells,
  place,
  roundEnds,
  run,
  snapshot,
  start,
  stop,
} from './helpers.ts';

test('[AC-4, R5, R9, EC3] a dig spends the dig price and emits one dig event; refusals carry their sub_reason; try_dig equals the one-intent batch', () => {
  const { w, cap, board } = start('b_spawn');
  run(w, cap, [mv(2, 3)]);
  cap.reset();
  const ap0 = w.a3.ap;
  const r = act(w, cap, dig(1, 3));
  assert.deepEqual(r, { accepted: true, outcome: 'executed', reject_reason: null, sub_reason: null });
  assert.equal(w.a3.ap, ap0 - w.a3.table.dig_ap_cost);
  assert.deepEqual(cap.events, [
    {
      type: 'cell_revealed',
      cell: [1, 3],
      kind: 'safe',
      digit: naiveDigit(board, 1, 3),
      variant_ids: [],
      channel: 'dig',
      reward_eligible: true,
    },
  ]);
  // refusals: nothing changes, no event
  run(w, cap, [place(1, 2)]);
  cap.reset();
  for (const [step, sub] of [
    [dig(0, 3), 'not_adjacent'],
    [dig(1, 3), 'target_revealed'],
    [dig(1, 2), 'flag_present'],
  ] as const) {
    const before = snapshot(w);
    const rr = act(w, cap, step);
    assert.deepEqual(rr, { accepted: false, outcome: 'rejected', reject_reason: 'board_face', sub_reason: sub });
    assert.equal(snapshot(w), before);
    assert.equal(cap.events.length, 0);
  }
  // equivalence: convenience form vs one-intent batch from the same constructed state
  const a = start('b_spawn');
  const b = start('b_spawn');
  run(a.w, a.cap, [mv(2, 3)]);
  run(b.w, b.cap, [mv(2, 3)]);
  a.cap.reset();
  b.cap.reset();
  const ra = tryDig(a.w, [1, 3], a.cap);
  const rb = settleBatch(b.w, [{ type: 'dig', cell: [1, 3] }], b.cap)[0];
  assert.deepEqual(ra, rb);
  assert.deepEqual(a.cap.log, b.cap.log);
  assert.deepEqual(a.cap.diags, b.cap.diags);
  assert.equal(snapshot(a.w), snapshot(b.w));
});

test('[AC-5, R6, F2, F1] b_chain: the third dig cascades over |C| = 13 cells in BFS order for 3 digs of AP and clears the board', () => {
  const { w, cap, board } = start('b_chain');
  run(w, cap, [mv(3, 3), dig(3, 4), mv(3, 4), dig(3, 5), mv(3, 5)]);
  assert.equal(naiveDigit(board, 3, 6), 0); // registered: (3,6) is a zero cell
  const expected = naiveChain(board, openCells(w), flagCells(w), [3, 6]);
  assert.equal(expected.length, 13); // registered |C|
  cap.reset();
  run(w, cap, [dig(3, 6)]);
  const rev = cap.events.filter((e): e is CellRevealed => e.type === 'cell_revealed');
  assert.deepEqual(
    rev.map((e) => e.cell),
    expected,
  );
  assert.equal(rev.length, 13); // = chain_size + 1
  for (const e of rev) {
    assert.equal(e.channel, 'chain');
    assert.equal(e.reward_eligible, true);
    assert.equal(e.kind, 'safe');
    assert.equal(e.digit, naiveDigit(board, e.cell[0], e.cell[1]));
  }
  // the chain spreads only through zeros: every non-dug cell of C is a neighbour of a zero cell of C
  for (const [x, y] of expected.slice(1)) {
    assert.ok(
      expected.some(
        ([zx, zy]) => naiveDigit(board, zx, zy) === 0 && Math.max(Math.abs(zx - x), Math.abs(zy - y)) === 1,
      ),
    );
  }
  assert.equal(w.a3.spent, 3 * w.a3.table.dig_ap_cost); // the cascade is free
  // every safe cell is now open: the chain counted toward clearing
  assert.deepEqual(roundEnds(cap.events), [{ type: 'round_end', path_tag: 'cleared', continuation_hint: 'new_board' }]);
  assert.equal(w.a2.rem, 0);
});

test('[AC-5, EC17, F2, R6, R8] b_chain branch 2: a flag on (2,5) holds back only itself (chain_size 11, seed says 12: FD-M1) and is judged at round end', () => {
  const { w, cap, board } = start('b_chain');
  run(w, cap, [mv(3, 3), dig(3, 4), mv(3, 4), dig(3, 5), mv(3, 5), place(2, 5)]);
  const expected = naiveChain(board, openCells(w), flagCells(w), [3, 6]);
  cap.reset();
  run(w, cap, [dig(3, 6)]);
  const cells = cellsOf(cap.events);
  assert.deepEqual(cells, expected);
  const chainSize = cells.length - 1;
  assert.equal(chainSize, 11); // derivation; the seed's registered 12 disagrees (FD-M1)
  assert.ok(!cells.some(([x, y]) => x === 2 && y === 5), 'the flagged cell does not open');
  assert.ok(
    cells.some(([x, y]) => x === 1 && y === 5) && cells.some(([x, y]) => x === 1 && y === 6),
    '(1,5),(1,6) open through (2,6)',
  );
  assert.equal(w.a2.cover[5 * 7 + 2], 'F');
  assert.equal(roundEnds(cap.events).length, 0, 'one safe cell (the flagged one) is left: no clear');
  assert.equal(w.a2.rem, 1);
  cap.reset();
  run(w, cap, [stop]);
  assert.deepEqual(judged(cap.events), [{ type: 'flag_judged', cell: [2, 5], hit: false }]);
});

test('[AC-6, EC4, R6, F2] b_fog: reachable fog opens by chain with true digits and the fog mark, free and reward-eligible; unreachable fog is dug at full price', () => {
  const chain = start('b_chain');
  const { w, cap, board } = start('b_fog');
  const prefix = [mv(3, 3), dig(3, 4), mv(3, 4), dig(3, 5), mv(3, 5)];
  run(w, cap, prefix);
  run(chain.w, chain.cap, prefix);
  const rem0 = w.a2.rem;
  const spent0 = w.a3.spent;
  cap.reset();
  chain.cap.reset();
  run(w, cap, [dig(3, 6)]);
  run(chain.w, chain.cap, [dig(3, 6)]);
  const rev = cap.events.filter((e): e is CellRevealed => e.type === 'cell_revealed');
  // same cascade set, cell by cell, as the fog-free b_chain geometry: fog cells are leaves
  assert.deepEqual(
    rev.map((e) => e.cell),
    cellsOf(chain.cap.events),
  );
  const fog = rev.filter((e) => e.variant_ids.length > 0); // emitted in BFS order, compared by x
  assert.deepEqual(
    fog
      .map((e) => [e.cell, e.variant_ids, e.kind === 'safe' ? e.digit : null, e.channel, e.reward_eligible])
      .sort((p, q) => (p[0] as number[])[0] - (q[0] as number[])[0]),
    [
      [[0, 5], ['fog'], naiveDigit(board, 0, 5), 'chain', true],
      [[1, 5], ['fog'], naiveDigit(board, 1, 5), 'chain', true],
    ],
  );
  assert.deepEqual([naiveDigit(board, 0, 5), naiveDigit(board, 1, 5)], [2, 3]); // registered fog digits
  assert.equal(w.a3.spent - spent0, w.a3.table.dig_ap_cost, 'no fog surcharge');
  assert.equal(w.a2.rem, rem0 - 13, 'fog cells count toward clearing');
  assert.equal(roundEnds(cap.events).length, 0); // (6,0), (6,2), (6,3) are still concealed
  // the chain-unreachable fog cell (6,0): full-price dig from (5,1)
  const f = start('b_fog');
  run(f.w, f.cap, [mv(5, 1)]);
  f.cap.reset();
  const ap0 = f.w.a3.ap;
  run(f.w, f.cap, [dig(6, 0)]);
  assert.equal(f.w.a3.ap, ap0 - f.w.a3.table.dig_ap_cost);
  assert.deepEqual(f.cap.events, [
    {
      type: 'cell_revealed',
      cell: [6, 0],
      kind: 'safe',
      digit: 2,
      variant_ids: ['fog'],
      channel: 'dig',
      reward_eligible: true,
    },
  ]);
  assert.equal(naiveDigit(f.board, 6, 0), 2);
});

test('[AC-15, R11, EC10] b_mine_walk: a dug mine is a fact, not the end of the round; the figure can stand on it and dig beyond', () => {
  const { w, cap, board } = start('b_mine_walk');
  assert.equal(naiveDigit(board, 3, 4), 1); // registered: (3,4) digit 1, member of R0
  assert.equal(w.a2.cover[4 * 7 + 3], 'o');
  run(w, cap, [mv(3, 4)]);
  cap.reset();
  const ap0 = w.a3.ap;
  const rem0 = w.a2.rem;
  run(w, cap, [dig(3, 5)]);
  assert.equal(w.a3.ap, ap0 - w.a3.table.dig_ap_cost);
  assert.deepEqual(cap.events, [
    { type: 'cell_revealed', cell: [3, 5], kind: 'mine', variant_ids: [], channel: 'dig', reward_eligible: false },
  ]);
  assert.ok(!('digit' in cap.events[0]));
  assert.equal(w.a2.rem, rem0, 'a mine is not a safe cell');
  assert.equal(w.a3.phase, 'Active', 'the round goes on');
  // mine cells cannot be dug or flagged again
  assert.equal(act(w, cap, dig(3, 5)).sub_reason, 'target_revealed');
  assert.equal(act(w, cap, place(3, 5)).sub_reason, 'target_revealed');
  run(w, cap, [mv(3, 5)]);
  assert.equal(w.a2.pos, 5 * 7 + 3);
  cap.reset();
  run(w, cap, [dig(3, 6)]);
  assert.equal(cellsOf(cap.events).length, 1);
  assert.deepEqual(roundEnds(cap.events), [{ type: 'round_end', path_tag: 'cleared', continuation_hint: 'new_board' }]);
});
