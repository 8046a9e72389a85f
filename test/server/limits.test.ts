// Bounded work per request (issue 27 F4) and the declared action schemas (issue 28) at the server:
// a config over a ruleset's limits is a typed 400 that names the limit, answered at once and with
// nothing created; `/api/rulesets/:id/actions` publishes every declared family.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, serverForSuite } from './helpers.ts';

const srv = serverForSuite('arbiter-limits-', ['--rate-limit', '100000']);

test('[SRV-LIMITS] a 2000x2000 mines board is refused at once with a 400 naming the board limit; the server stays responsive', async () => {
  const before = (await call(srv.api, 'GET', '/matches')).body;
  const t0 = performance.now();
  const r = await call(srv.api, 'POST', '/matches', {
    ruleset: 'mines',
    seed: 1,
    config: { width: 2000, height: 2000, mines: 10 },
  });
  const ms = performance.now() - t0;
  assert.equal(r.status, 400, JSON.stringify(r.body));
  assert.equal(r.body.error.code, 'bad_config');
  assert.match(r.body.error.reason, /width: width must be at most 128 \(the mines board limit\)/);
  // a board under each side limit but over the cell limit is named by the cell limit
  const cells = await call(srv.api, 'POST', '/matches', {
    ruleset: 'mines',
    seed: 1,
    config: { width: 128, height: 128, mines: 10 },
  });
  assert.equal(cells.status, 400);
  assert.match(cells.body.error.reason, /at most 4096 cells \(the mines board limit\)/);
  // and so is a board object handed in whole
  const side = 130;
  const board = {
    id: 'huge',
    w: side,
    h: side,
    spawn: [1, 1],
    mines: '0'.repeat(side * side),
    digits: '0'.repeat(side * side),
    variants: [],
  };
  const whole = await call(srv.api, 'POST', '/matches', { ruleset: 'mines', seed: 1, config: { board } });
  assert.equal(whole.status, 400);
  assert.match(whole.body.error.reason, /the mines board limit/);
  // nothing was created, and the refusal cost a request's time, not a board's (20 s before)
  assert.deepEqual((await call(srv.api, 'GET', '/matches')).body, before);
  assert.ok(ms < 5000, `the refusal took ${ms.toFixed(0)} ms`);
  assert.equal((await call(srv.api, 'GET', '/health')).status, 200);
});

test('[SRV-SCHEMA-DECLARED] /actions lists every declared family, duel score and pass among them', async () => {
  const r = await call(srv.api, 'GET', '/rulesets/duel/actions');
  assert.equal(r.status, 200);
  for (const fam of ['score', 'pass', 'discard', 'resolve', 'install', 'play'])
    assert.ok(r.body.actions[fam], `duel family ${fam} is published`);
  assert.deepEqual(r.body.actions.score.properties.type, { type: 'string', const: 'score' });
});
