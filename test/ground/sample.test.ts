// GROUND determinization (issue 15): a sampled state redraws what the seat cannot see.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom } from '../../packages/engine/src/kernel/index.ts';
import { ground } from '../../packages/engine/src/rulesets/ground/index.ts';

test('[U22] a sampled state redraws other hands, deck order and unseen Problems: over 50 samples they differ from the real ones', () => {
  const s = ground.setup({ players: 4 }, 11);
  const seat = 0;
  const view = ground.view(s, seat);
  let handsDiffer = 0;
  let deckDiffers = 0;
  let problemsDiffer = 0;
  for (let k = 0; k < 50; k++) {
    const t = ground.sampleState!(view, seat, new SeededRandom(1000 + k));
    assert.deepEqual(ground.view(t, seat), view);
    assert.deepEqual(t.players[seat].hand, s.players[seat].hand, 'the seat keeps its own hand');
    if (JSON.stringify(t.players.slice(1).map((p) => p.hand)) !== JSON.stringify(s.players.slice(1).map((p) => p.hand)))
      handsDiffer++;
    if (JSON.stringify(t.deck) !== JSON.stringify(s.deck)) deckDiffers++;
    const unseen = (x: typeof s) =>
      x.problems
        .filter((p) => !p.known)
        .map((p) => p.id)
        .join();
    if (unseen(t) !== unseen(s)) problemsDiffer++;
  }
  // the real values are not copied: most samples differ (the odds of an exact repeat are small)
  assert.ok(handsDiffer >= 25, `other hands differed in ${handsDiffer}/50 samples`);
  assert.ok(deckDiffers >= 45, `deck order differed in ${deckDiffers}/50 samples`);
  assert.ok(problemsDiffer >= 1, `unseen Problems differed in ${problemsDiffer}/50 samples`);
});
