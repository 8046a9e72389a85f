import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tictactoePackage as tictactoe } from '../../packages/engine/src/rulesets/tictactoe/index.ts';
import { SIM_WORKER } from '../../src/cli/paths.ts';
import { reportFingerprint, simulate } from '../../src/runners/sim.ts';
import { simulateParallel } from '../../src/runners/sim-parallel.ts';

const opts = { games: 2500, firstSeed: 5, config: {}, agents: 'random' };

test('sim: the report is the same on one thread and on a worker pool', async () => {
  const one = simulate(tictactoe, opts);
  const two = await simulateParallel(tictactoe, opts, { threads: 2, worker: SIM_WORKER });
  assert.equal(two.threads, 2);
  assert.equal(reportFingerprint(one), reportFingerprint(two));
});

test('sim: figures add up (every game ends; wins + no-winner games = games)', () => {
  const r = simulate(tictactoe, { ...opts, games: 500 });
  const reasons = Object.values(r.reasons).reduce((a, b) => a + b, 0);
  assert.equal(reasons, 500);
  assert.equal(r.reasons.unfinished, undefined);
  const wins = r.win_rate.reduce((a, b) => a + b, 0) * 500;
  assert.equal(Math.round(wins) + r.no_winner, 500);
  assert.ok(r.actions.min >= 5 && r.actions.max <= 9);
  // random tic-tac-toe: the first player wins far more often than the second
  assert.ok(r.win_rate[0] > r.win_rate[1]);
});
