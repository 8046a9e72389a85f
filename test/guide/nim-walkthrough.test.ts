// The guide's walkthrough (docs/guide-write-a-ruleset.md, section 8) as a test: Nim, a ruleset
// that lives in a test fixture, is registered with `withPackages` (packages/engine/src/registry.ts is not edited)
// and gets the whole tool chain: the conformance suite, its scenarios and coverage, `explore` with
// an exact state count, the rules page, and matches with its own agent.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { withPackages } from '../../packages/engine/src/registry.ts';
import { badConfigs, determinism, fuzzInput, randomGames, sampling } from '../../src/runners/conformance.ts';
import { coverageOf, loadScenariosOf } from '../../src/runners/coverage.ts';
import { explore } from '../../src/runners/explore.ts';
import { runScenario } from '../../src/runners/scenario.ts';
import { simulate } from '../../src/runners/sim.ts';
import { nimPackage } from '../fixtures/nim/index.ts';

const registry = withPackages([nimPackage]);
const pkg = registry.get('nim');
const rs = pkg.ruleset;

test('nim: the conformance suite passes once registered', () => {
  assert.equal(pkg, nimPackage);
  assert.deepEqual(randomGames(rs, { games: 8 }), []);
  assert.deepEqual(determinism(rs), []);
  assert.deepEqual(sampling(rs), []);
  assert.deepEqual(badConfigs(rs), []);
  assert.deepEqual(fuzzInput(rs, { runs: 150 }), []);
});

test('nim: every scenario passes and every rule id and U-item is covered', () => {
  const { loaded, broken } = loadScenariosOf(pkg.scenarios, process.cwd());
  assert.deepEqual(broken, []);
  assert.equal(loaded.length, 5);
  for (const sc of loaded) {
    const r = runScenario(sc, rs);
    assert.ok(r.ok, `${sc.file}: ${r.failure}`);
  }
  const cov = coverageOf(pkg, process.cwd());
  assert.deepEqual(cov.uncovered, []);
  assert.deepEqual(cov.unknownIds, []);
});

/** The number of (piles, seat to move) positions reachable from `start`, counted without the engine. */
function reachable(start: number[]): number {
  const seen = new Set<string>();
  const todo: [number[], number][] = [[start, 0]];
  while (todo.length) {
    const [piles, turn] = todo.pop()!;
    const over = piles.every((n) => n === 0);
    // the state after the last stone records the winner (the seat that moved), not a seat to move
    const key = `${piles.join(',')}|${over ? `won by ${1 - turn}` : turn}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (over) continue;
    piles.forEach((n, i) => {
      for (let c = 1; c <= n; c++) todo.push([piles.map((m, j) => (j === i ? m - c : m)), 1 - turn]);
    });
  }
  return seen.size;
}

const GUIDE = readFileSync('docs/guide-write-a-ruleset.md', 'utf8');

/** A number the guide's walkthrough states, found by the words around it. */
function guideNumber(pattern: RegExp): number {
  const m = pattern.exec(GUIDE);
  assert.ok(m, `the guide no longer says ${pattern}`);
  const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
  return words.includes(m[1]) ? words.indexOf(m[1]) : Number(m[1]);
}

test('nim: the counts the guide states are the counts of the fixture', () => {
  assert.equal(
    guideNumber(/its (\w+) scenarios and coverage/),
    loadScenariosOf(pkg.scenarios, process.cwd()).loaded.length,
  );
  assert.equal(guideNumber(/exactly (\d+) states/), explore(rs, { config: { piles: [1, 3, 5] } }).states);
  assert.equal(guideNumber(/catalog\.ts`, `rules\.md`, `index\.ts` \| (\w+) rules/), rs.catalog.rules.length);
});

test('nim: explore visits exactly the reachable positions of [1, 3, 5] and finds no violation', () => {
  const report = explore(rs, { config: { piles: [1, 3, 5] } });
  assert.equal(report.complete, true);
  assert.equal(report.violations.length, 0);
  assert.equal(report.states, reachable([1, 3, 5]));
  assert.equal(report.states, 88);
  // breadth first: any position is one move per pile away, plus one when the other seat must be to move
  assert.equal(report.depth, 4);
});

test('nim: the rules page lists the game type, every rule and the U-item', () => {
  const page = pkg.rulesPage();
  assert.match(page, /Nim/);
  for (const id of ['NIM-1', 'NIM-2', 'NIM-3', 'NIM-4', 'NIM-U1']) assert.ok(page.includes(id), `${id} missing`);
  assert.match(page, /sequential/);
  assert.match(page, /perfect/);
});

test('nim: the perfect agent wins every game it starts from [1, 3, 5] against random play', () => {
  // as many games as the guide says
  const games = guideNumber(/- (\d+) seeded games of `perfect`/);
  const report = simulate(pkg, { games, firstSeed: 1, config: { piles: [1, 3, 5] }, agents: 'perfect,random' });
  assert.equal(report.games, games);
  assert.deepEqual(report.win_rate, [1, 0]);
});
