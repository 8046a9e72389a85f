// duel determinization (issue 15): a sampled state deals out again what the seat cannot see.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom } from '../../packages/engine/src/kernel/index.ts';
import { duel } from '../../packages/engine/src/rulesets/duel/index.ts';
import { CORP, RUNNER } from '../../packages/engine/src/rulesets/duel/state.ts';

test('[DUEL-VIEW] a sampled state redeals the other hand and both deck orders: over 50 samples they differ from the real ones', () => {
  const s = duel.setup({}, 5);
  for (const seat of [CORP, RUNNER]) {
    const other = 1 - seat;
    const view = duel.view(s, seat);
    let handDiffers = 0;
    let deckDiffers = 0;
    let ownDeckDiffers = 0;
    for (let k = 0; k < 50; k++) {
      const t = duel.sampleState!(view, seat, new SeededRandom(500 + k));
      assert.deepEqual(duel.view(t, seat), view);
      assert.deepEqual(t.p[seat].hand, s.p[seat].hand, 'the seat keeps its own hand');
      if (t.p[other].hand.join() !== s.p[other].hand.join()) handDiffers++;
      if (t.p[other].deck.join() !== s.p[other].deck.join()) deckDiffers++;
      if (t.p[seat].deck.join() !== s.p[seat].deck.join()) ownDeckDiffers++;
    }
    assert.ok(handDiffers >= 1, `seat ${seat}: the other hand differed in ${handDiffers}/50 samples`);
    assert.ok(deckDiffers >= 25, `seat ${seat}: the other deck differed in ${deckDiffers}/50 samples`);
    assert.ok(ownDeckDiffers >= 25, `seat ${seat}: its own deck order differed in ${ownDeckDiffers}/50 samples`);
  }
});
