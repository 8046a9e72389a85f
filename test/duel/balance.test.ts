// Issue 10, F-1: heuristic play on the default profile is balanced. The same games as
// `arbiter sim duel --games 1200 --seed 1 --agents heuristic,heuristic` (seeds 1-1200); with the
// 0.2 break costs (wall 4, barb 3) the runner won 67.4% of them (interval 64.7-70.0%).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { duelPackage } from '../../src/rulesets/duel/index.ts';
import { simulate } from '../../src/runners/sim.ts';

test('[U-BREAK, DUEL-ICE] heuristic against heuristic, the runner wins 40-60% of 1200 fixed-seed games, interval included', () => {
  const r = simulate(duelPackage, { games: 1200, firstSeed: 1, config: {}, agents: 'heuristic,heuristic' });
  const [lo, hi] = r.win_ci95[1];
  assert.ok(lo >= 0.4 && hi <= 0.6, `runner win rate ${r.win_rate[1]} (95% ${lo}-${hi}) outside 40-60%`);
  // no game reaches the turn bound; the corp's mean points rose with its defence (0.79 in 0.2)
  assert.equal(r.no_winner, 0);
  assert.ok(r.mean_score![0] >= 1.5, `corp mean score ${r.mean_score![0]}`);
});
