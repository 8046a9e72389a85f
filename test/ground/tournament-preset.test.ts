// GROUND's `competitive` preset (PERSONAL EDGE, four seats) is the config a tournament separates
// agents in; the default SHARED GROUND is co-operative, so every agent there gets the same win rate.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groundPackage } from '../../packages/engine/src/rulesets/ground/index.ts';
import { runTournament } from '../../src/runners/tournament.ts';

const rate = (r: ReturnType<typeof runTournament>, agent: string) => r.standings.find((s) => s.agent === agent)!;

test('[GR-E03] a tournament on the competitive preset separates the heuristic from random play; on the default co-operative mode it cannot', () => {
  const agents = ['heuristic', 'random'];
  const competitive = runTournament(groundPackage, {
    agents,
    games: 4,
    firstSeed: 1,
    config: { ...groundPackage.presets.competitive },
  });
  assert.deepEqual(groundPackage.presets.competitive, { players: 4, mode: 'personal-edge' });
  const h = rate(competitive, 'heuristic');
  const r = rate(competitive, 'random');
  // seats are ranked apart (in SHARED GROUND every seat of a table shares place 1)
  assert.ok((h.mean_place ?? 0) + 0.5 < (r.mean_place ?? 0), `places ${h.mean_place} vs ${r.mean_place}`);
  assert.ok(
    h.win_ci95[0] > r.win_ci95[1],
    `heuristic ${h.win_rate} ${JSON.stringify(h.win_ci95)} vs random ${r.win_rate} ${JSON.stringify(r.win_ci95)}`,
  );
  // the same line-ups and seeds in SHARED GROUND: every seat of a game wins or loses together, so
  // an agent's win rate is that of the tables it sat at, whoever played well
  const tables: number[][] = [];
  runTournament(groundPackage, {
    agents,
    games: 4,
    firstSeed: 1,
    config: {},
    onResult: (g) => tables.push(g.outcome?.places ?? []),
  });
  assert.equal(tables.length, 14 * 4);
  for (const places of tables) assert.equal(new Set(places).size, 1, `one place for the whole table: ${places}`);
});
