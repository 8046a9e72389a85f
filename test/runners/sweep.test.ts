// Sweeps: the grid's cells, one simulated row each, and typed errors for bad files.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tictactoePackage } from '../../packages/engine/src/rulesets/tictactoe/index.ts';
import { groundPackage } from '../../packages/engine/src/rulesets/ground/index.ts';
import { simulate } from '../../src/runners/sim.ts';
import { cellsOf, headlineText, parseSweep, runSweep } from '../../src/runners/sweep.ts';

test('[sweep] the grid is the cartesian product of the swept fields and the line-ups', () => {
  const spec = parseSweep(
    {
      ruleset: 'ground',
      games: 10,
      grid: { players: [2, 3], mode: ['shared-ground', 'personal-edge'] },
      agents: ['random', 'heuristic'],
    },
    'inline',
  );
  const cells = cellsOf(spec);
  assert.equal(cells.length, 8);
  assert.deepEqual(cells[0], { config: { players: 2, mode: 'shared-ground' }, agents: 'random' });
});

test('[sweep] each cell is simulated on the same seeds; a cell equals a plain sim of its config', async () => {
  const spec = parseSweep(
    { ruleset: 'ground', games: 30, seed: 4, grid: { players: [2, 4] }, agents: ['random'] },
    'inline',
  );
  const rows = await runSweep(groundPackage, spec, async (p, o) => simulate(p, o));
  assert.equal(rows.length, 2);
  const alone = simulate(groundPackage, { games: 30, firstSeed: 4, config: { players: 4 }, agents: 'random' });
  assert.deepEqual({ ...rows[1].report, wall_ms: 0, games_per_s: 0 }, { ...alone, wall_ms: 0, games_per_s: 0 });
});

test('[sweep] bad sweep files are typed bad_config errors', async () => {
  assert.throws(() => parseSweep({ ruleset: 'ground', grid: { players: 3 } }, 'f.yaml'), /f\.yaml: grid\.players/);
  assert.throws(() => parseSweep({ ruleset: 'ground', extra: 1 }, 'f.yaml'), /bad_config|Unrecognized/);
  assert.throws(
    () => parseSweep(JSON.parse('{"ruleset":"ground","base":{"__proto__":{"x":1}}}'), 'f.yaml'),
    /not allowed/,
  );
  // a config cell the ruleset refuses is refused before anything is simulated
  const spec = parseSweep({ ruleset: 'tictactoe', grid: { size: [3] } }, 'f.yaml');
  await assert.rejects(
    runSweep(tictactoePackage, spec, async (p, o) => simulate(p, o)),
    /config/,
  );
});

test("[SIM-SWEEP-HEADLINE] a sweep over GROUND's modes and player counts gives group success for each, named first", async () => {
  const spec = parseSweep(
    {
      ruleset: 'ground',
      games: 40,
      seed: 2,
      grid: { players: [2, 5], mode: ['shared-ground', 'personal-edge'] },
      agents: ['random'],
    },
    'inline',
  );
  const rows = await runSweep(groundPackage, spec, async (p, o) => simulate(p, o));
  assert.equal(rows.length, 4);
  for (const r of rows) {
    const share = r.report.metrics.group_success.mean;
    assert.deepEqual(r.report.headline?.[0].by, { mode: r.config.mode, players: r.config.players });
    assert.equal(headlineText(r.report), `group success ${(share * 100).toFixed(1)}%`);
    // only SHARED GROUND has every seat win or lose together (GR-E02)
    assert.equal(r.report.cooperative, r.config.mode === 'shared-ground');
  }
  // a ruleset that declares nothing has no headline
  assert.equal(headlineText(simulate(tictactoePackage, { games: 5, firstSeed: 1, config: {}, agents: 'random' })), '');
});
