// bnc determinization (issue 15): a sampled state redraws what the contestant cannot see.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom } from '../../src/kernel/index.ts';
import { bnc } from '../../src/rulesets/bnc/index.ts';

test('[U19] a sampled state redraws undiscovered shortcuts, unseen item places and others\' positions: over 50 samples they differ from the real ones', () => {
  const s = bnc.setup({}, 3);
  // a few turns of everyone moving forward, so the others spread out of sight
  const rnd = new SeededRandom(9);
  for (let turn = 0; turn < 3; turn++) {
    for (const p of bnc.pending(s)) {
      const moves = bnc.legal(s, p.seat).actions.filter((a) => a.type === 'move');
      bnc.apply(s, p.seat, moves.length > 0 ? moves[rnd.int(moves.length)] : { type: 'wait' }, []);
    }
  }
  const seat = 0;
  const view = bnc.view(s, seat);
  const hiddenShortcuts = (x: typeof s) => JSON.stringify(x.shortcuts.filter((sc) => !s.contestants[seat].known.includes(sc.id)));
  const items = (x: typeof s) => JSON.stringify([x.floor, x.contestants.map((c) => c.items)]);
  const zones = (x: typeof s) => x.contestants.map((c) => c.zone).join();
  let shortcutsDiffer = 0;
  let itemsDiffer = 0;
  let zonesDiffer = 0;
  for (let k = 0; k < 50; k++) {
    const t = bnc.sampleState!(view, seat, new SeededRandom(300 + k));
    assert.deepEqual(bnc.view(t, seat), view);
    assert.deepEqual(bnc.legal(t, seat), bnc.legal(s, seat));
    if (hiddenShortcuts(t) !== hiddenShortcuts(s)) shortcutsDiffer++;
    if (items(t) !== items(s)) itemsDiffer++;
    if (zones(t) !== zones(s)) zonesDiffer++;
  }
  assert.ok(shortcutsDiffer >= 25, `undiscovered shortcuts differed in ${shortcutsDiffer}/50 samples`);
  assert.ok(itemsDiffer >= 25, `item places differed in ${itemsDiffer}/50 samples`);
  assert.ok(zonesDiffer >= 25, `the others' zones differed in ${zonesDiffer}/50 samples`);
});
