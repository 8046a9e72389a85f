// [SRV-FRAME-BUDGET] (issue 27 item 3, bounded work per request): a ruleset's config limits bound
// what the server sends. At each ruleset's largest allowed config, a seeded random game keeps every
// audience's view, every menu and every step's events under FRAME_BUDGET bytes of JSON, so a live
// frame (view + menu + events) stays under three budgets. A limit raised without thought, or a view
// that starts to grow with the length of the game, fails here with the ruleset and the size.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act, SeededRandom, type Json } from '../../packages/engine/src/kernel/index.ts';
import { PACKAGES } from '../../packages/engine/src/registry.ts';

/** Bytes of JSON one view, one menu or one step's events may take (docs/server.md, Limits). */
const FRAME_BUDGET = 256 * 1024;

/** Each shipped ruleset at the edge of its declared limits (rules.md "Limits" of each). */
const LARGEST: Record<string, Json> = {
  tictactoe: {},
  mines: { width: 64, height: 64, mines: 600 }, // 4096 cells, the board limit
  ground: { players: 6 },
  bnc: { contestants: 6, turns: 200 },
  duel: { turns: 500 },
};

/** One step past each edge: refused, so the configs above really are the largest (a raised limit fails here). */
const PAST: Record<string, Json[]> = {
  tictactoe: [],
  mines: [
    { width: 65, height: 64, mines: 600 },
    { width: 129, height: 3, mines: 1 },
  ],
  ground: [{ players: 7 }],
  bnc: [{ contestants: 7 }, { turns: 201 }],
  duel: [{ turns: 501 }],
};

test('[SRV-FRAME-BUDGET] every shipped ruleset is measured at its largest config, and one step past it is refused', () => {
  assert.deepEqual(Object.keys(LARGEST).sort(), PACKAGES.map((p) => p.ruleset.id).sort());
  for (const pkg of PACKAGES)
    for (const config of PAST[pkg.ruleset.id] ?? [])
      assert.throws(
        () => pkg.ruleset.setup(config, 1),
        (e: Error & { code?: string }) => e.code === 'bad_config',
        `${pkg.ruleset.id} accepted ${JSON.stringify(config)}: its limit moved, so LARGEST must move too`,
      );
});

for (const pkg of PACKAGES) {
  const rs = pkg.ruleset;
  test(`[SRV-FRAME-BUDGET] ${rs.id}: views, menus and events stay under ${FRAME_BUDGET} bytes at the largest config`, () => {
    const size = (x: unknown) => JSON.stringify(x).length;
    let state = rs.setup(LARGEST[rs.id] ?? {}, 1);
    const rnd = new SeededRandom(1);
    const largest = { view: 0, menu: 0, events: 0 };
    for (let step = 0; rs.outcome(state) === null && step < 3000; step++) {
      const seats = rs.seats(state);
      for (let s = -1; s < seats; s++) largest.view = Math.max(largest.view, size(rs.view(state, s < 0 ? null : s)));
      const pending = rs.pending(state);
      const p = pending[rnd.int(pending.length)];
      const menu = rs.legal(state, p.seat);
      largest.menu = Math.max(largest.menu, size(menu));
      const r = act(rs, state, p.seat, menu.actions[rnd.int(menu.actions.length)]);
      assert.ok(r.ok, r.ok ? '' : r.error.reason);
      largest.events = Math.max(largest.events, size(r.events));
      state = r.state;
    }
    for (const [what, bytes] of Object.entries(largest))
      assert.ok(bytes <= FRAME_BUDGET, `${rs.id}: a ${what} of ${bytes} bytes is over the ${FRAME_BUDGET}-byte budget`);
    assert.ok(largest.view > 0 && largest.menu > 0, 'the game was played');
  });
}
