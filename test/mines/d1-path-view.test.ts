// D1 ⑤ (contract item 12): the web board previews a move with the rules layer's path query run on
// the seat's view. This proves the view-side query answers exactly what A2's compute_move_path
// answers on the full state, for every cell of boards reached by play (dug mines included).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { minesPackage, type MinesAction, type MinesState } from '../../packages/engine/src/rulesets/mines/index.ts';
import { computeMovePath } from '../../packages/engine/src/rulesets/mines/board/engine.ts';
import { viewMovePath } from '../../packages/engine/src/rulesets/mines/board/path.ts';
import type { MinesView } from '../../packages/engine/src/rulesets/mines/view.ts';

test('[AC-14, D1-5] viewMovePath on the seat view equals compute_move_path on the state, cell by cell', () => {
  const r = minesPackage.ruleset;
  let compared = 0;
  let reachable = 0;
  let mineCells = 0;
  for (const seed of [3, 11, 29]) {
    let s = r.setup({ width: 9, height: 8, mines: 14, fog: 2, no_guess: false, max_rounds: 6 }, seed) as MinesState;
    for (let step = 0; step < 40 && r.outcome(s) === null; step++) {
      const v = r.view(s, 0) as MinesView;
      for (let y = 0; y < v.h; y++)
        for (let x = 0; x < v.w; x++) {
          const want = computeMovePath(s, [x, y]);
          assert.deepEqual(viewMovePath(v, [x, y]), want, `seed ${seed} step ${step} cell ${x},${y}`);
          compared++;
          if (want.length > 0) reachable++;
          if (v.rows[y][x] === '*' && want.length > 0) mineCells++;
        }
      // play on: the first dig of the menu (it may hit a mine), else a frontier move, else stop
      const menu = r.legal(s, 0).actions as MinesAction[];
      const a = menu.find((m) => m.type === 'dig') ?? menu.find((m) => m.type === 'move') ?? { type: 'stop' };
      const events: never[] = [];
      s = structuredClone(s);
      r.apply(s, 0, a, events);
    }
  }
  assert.ok(compared > 1000 && reachable > 100, `compared ${compared}, reachable ${reachable}`);
  assert.ok(mineCells > 0, 'some path ends on a dug (walkable) mine');
});
