// What a finished (or cut-off) playout is worth to each seat, in [0, 1], read only from the
// outcome, so search works the same for every ruleset whatever its outcome ranks.

import type { Outcome } from '../../kernel/index.ts';

/**
 * Winners get 1 and the rest 0; with no winners, places rank seats (1st → 1, last → 0); with
 * neither, everyone gets 0.5 (a draw, or a playout cut off before the end).
 */
export function outcomeRewards(outcome: Outcome | null, seats: number): number[] {
  const out = new Array<number>(seats).fill(0.5);
  if (outcome === null) return out;
  if (outcome.winners.length > 0) {
    out.fill(0);
    for (const w of outcome.winners) if (w >= 0 && w < seats) out[w] = 1;
    return out;
  }
  const places = outcome.places;
  if (places && places.length === seats && seats > 1) {
    let worst = 1;
    for (const p of places) if (p > worst) worst = p;
    if (worst > 1) for (let i = 0; i < seats; i++) out[i] = (worst - places[i]) / (worst - 1);
  }
  return out;
}
