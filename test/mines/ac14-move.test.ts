// Movement, phases and board lifecycle (AC-14, AC-16, AC-17).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  computeMovePath,
  createA2,
  installBoard,
  retireBoard,
  settleBatch,
} from '../../packages/engine/src/rulesets/mines/board/engine.ts';
import { fixture } from '../../packages/engine/src/rulesets/mines/fixtures.ts';
import { notifyRoundStart } from '../../packages/engine/src/rulesets/mines/orchestrator/orchestrator.ts';
import {
  Capture,
  act,
  cellsOf,
  dig,
  flagCells,
  mv,
  naiveR0,
  newWorld,
  place,
  pull,
  run,
  snapshot,
  start,
  stop,
  type Step,
} from './helpers.ts';

const PHASE = { accepted: false, outcome: 'rejected', reject_reason: 'phase', sub_reason: null };
const ALL_INTENTS: Step[] = [dig(1, 3), place(1, 3), pull(1, 3), mv(2, 3), stop];

test('[AC-14, R7, EC14, R12] move teleports along a deterministic BFS path through open cells, free and silent; concealed/unreachable targets are refused; a zero move is a no-op', () => {
  const { w, cap } = start('b_spawn');
  const p1 = computeMovePath(w, [2, 3]);
  const p2 = computeMovePath(w, [2, 3]);
  assert.deepEqual(p1, p2);
  assert.deepEqual(p1[0], [3, 3]);
  assert.deepEqual(p1[p1.length - 1], [2, 3]);
  for (let i = 0; i < p1.length; i++) {
    const [x, y] = p1[i];
    assert.equal(w.a2.cover[y * 7 + x], 'o', 'path only through open cells');
    if (i > 0) assert.equal(Math.max(Math.abs(x - p1[i - 1][0]), Math.abs(y - p1[i - 1][1])), 1, '8-neighbour steps');
  }
  // a longer path is a shortest one, the same every time
  const far = computeMovePath(w, [6, 0]);
  assert.equal(far.length, 4);
  assert.deepEqual(far, computeMovePath(w, [6, 0]));
  cap.reset();
  const ap0 = w.a3.ap;
  const ok = { accepted: true, outcome: 'executed', reject_reason: null, sub_reason: null };
  assert.deepEqual(act(w, cap, mv(2, 3)), ok);
  assert.equal(w.a2.pos, 3 * 7 + 2);
  assert.equal(w.a3.ap, ap0, 'moving is free');
  assert.equal(cap.events.length, 0, 'moving emits nothing');
  // 1: concealed target
  let before = snapshot(w);
  assert.deepEqual(act(w, cap, mv(0, 0)), {
    accepted: false,
    outcome: 'rejected',
    reject_reason: 'board_face',
    sub_reason: 'target_concealed',
  });
  assert.equal(snapshot(w), before);
  // 2: open but unreachable. Play always keeps the open set 8-connected (every opened cell touches
  // the figure or a chain), so the position is built directly: (0,0) open, cut off by concealed cells.
  const cut = start('b_spawn');
  cut.w.a2.cover = 'o' + cut.w.a2.cover.slice(1);
  before = snapshot(cut.w);
  assert.deepEqual(act(cut.w, cut.cap, mv(0, 0)), {
    accepted: false,
    outcome: 'rejected',
    reject_reason: 'board_face',
    sub_reason: 'no_path',
  });
  assert.deepEqual(computeMovePath(cut.w, [0, 0]), [], 'preview and execution agree');
  assert.equal(snapshot(cut.w), before);
  // 3: zero move
  before = snapshot(w);
  assert.deepEqual(act(w, cap, mv(2, 3)), ok);
  assert.equal(snapshot(w), before);
  assert.equal(cap.events.length, 0);
  // 4: an ordinary move still works, also onto a path the dig opened
  run(w, cap, [dig(1, 3), mv(1, 3), mv(6, 6)]);
  assert.equal(w.a2.pos, 6 * 7 + 6);
  // no chord: clicking an open digit means moving, the intent set has no quick-open
  assert.deepEqual(act(w, cap, mv(1, 3)), ok);
  assert.equal(w.a2.pos, 3 * 7 + 1);
});

test('[AC-16, EC12, EC16, R3] NoBoard and Frozen (Idle, Waiting) refuse every intent with phase; install and retire are refused while Active', () => {
  // NoBoard
  const w0 = newWorld();
  const cap = new Capture();
  for (const s of ALL_INTENTS) assert.deepEqual(act(w0, cap, s), PHASE);
  assert.deepEqual(w0.a2, createA2());
  // Installed, ledger Idle (before the first round start)
  const w1 = newWorld();
  installBoard(w1, fixture('b_spawn'), cap);
  cap.reset();
  let before = snapshot(w1);
  for (const s of ALL_INTENTS) assert.deepEqual(act(w1, cap, s), PHASE);
  assert.deepEqual(settleBatch(w1, [{ type: 'stop' }], cap), [PHASE]);
  assert.equal(snapshot(w1), before);
  assert.equal(cap.events.length, 0);
  // Installed, Waiting
  const t = start('b_spawn');
  run(t.w, t.cap, [stop]);
  t.cap.reset();
  before = snapshot(t.w);
  for (const s of ALL_INTENTS) assert.deepEqual(act(t.w, t.cap, s), PHASE);
  assert.equal(snapshot(t.w), before);
  assert.equal(t.cap.events.length, 0);
  // Active: install (outside refresh) and retire are refused
  const a = start('b_spawn');
  before = snapshot(a.w);
  a.cap.reset();
  assert.equal(installBoard(a.w, fixture('b_flag'), a.cap).accepted, false);
  assert.equal(retireBoard(a.w, a.cap).accepted, false);
  assert.equal(snapshot(a.w), before);
  assert.equal(a.cap.events.length, 0);
});

test('[AC-17, EC11, R3] after retire every intent is refused; a new install starts clean from the new board', () => {
  const { w, cap } = start('b_spawn');
  run(w, cap, [mv(2, 3), dig(1, 3), place(1, 2), stop]);
  assert.equal(retireBoard(w, cap).accepted, true);
  assert.equal(w.a2.board, null);
  assert.equal(w.a2.board_state, 'retired');
  assert.equal(retireBoard(w, cap).accepted, true, 'idempotent without a board');
  assert.equal(notifyRoundStart(w), false, 'no round without a board');
  for (const s of ALL_INTENTS) assert.deepEqual(act(w, cap, s), PHASE);
  cap.reset(); // a new event segment starts at install
  assert.equal(installBoard(w, fixture('b_flag'), cap).accepted, true);
  assert.deepEqual(cellsOf(cap.events), naiveR0(fixture('b_flag')));
  assert.deepEqual(flagCells(w), []);
  assert.equal(w.a2.pos, 3 * 7 + 3);
  assert.equal(w.a2.rem, 8);
  assert.equal(w.a2.cover[3 * 7 + 1], '.', 'the dug cell of the old board is concealed again');
});
