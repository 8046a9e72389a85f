// Tournaments: line-ups with seat rotation, resumable results, ratings in a fixed order.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tictactoePackage } from '../../packages/engine/src/rulesets/tictactoe/index.ts';
import { lineupsOf, runTournament, type GameResult } from '../../src/runners/tournament.ts';

test('[tournament] line-ups: distinct agents in every seat order; with fewer agents than seats, everyone seated', () => {
  assert.deepEqual(lineupsOf(['a', 'b', 'c'], 2), [
    ['a', 'b'],
    ['a', 'c'],
    ['b', 'a'],
    ['b', 'c'],
    ['c', 'a'],
    ['c', 'b'],
  ]);
  const four = lineupsOf(['x', 'y'], 4);
  assert.equal(four.length, 14); // 2^4 minus the two one-agent line-ups
  assert.ok(four.every((l) => l.includes('x') && l.includes('y')));
});

test('[tournament] mcts rates above random and first at tic-tac-toe, with intervals that exclude parity', () => {
  const r = runTournament(tictactoePackage, {
    agents: ['random', 'mcts:300', 'first'],
    games: 20,
    firstSeed: 1,
    config: {},
  });
  assert.equal(r.games, 6 * 20);
  assert.equal(r.standings[0].agent, 'mcts:300');
  const m = r.standings[0];
  const rnd = r.standings.find((s) => s.agent === 'random')!;
  assert.ok(m.win_ci95[0] > rnd.win_ci95[1], `mcts ${m.win_ci95} vs random ${rnd.win_ci95}`);
});

test('[tournament] an interrupted tournament resumes: same report as one run straight through', () => {
  const opts = { agents: ['random', 'first'], games: 15, firstSeed: 3, config: {} };
  const all: GameResult[] = [];
  const whole = runTournament(tictactoePackage, { ...opts, onResult: (r) => all.push(r) });
  // keep the first 11 results, as if the process had died there
  const again: GameResult[] = [];
  const resumed = runTournament(tictactoePackage, { ...opts, done: all.slice(0, 11), onResult: (r) => again.push(r) });
  assert.equal(again.length, all.length - 11, 'only the missing games are played');
  assert.deepEqual(resumed, whole);
});

test('[tournament] bad agent names and duplicates are typed errors before any game', () => {
  assert.throws(
    () => runTournament(tictactoePackage, { agents: ['random', 'nobody'], games: 1, firstSeed: 1, config: {} }),
    /unknown agent/,
  );
  assert.throws(
    () => runTournament(tictactoePackage, { agents: ['random', 'random'], games: 1, firstSeed: 1, config: {} }),
    /named twice/,
  );
});
