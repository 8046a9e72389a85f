// [SRV-EXPIRY] abandoned matches expire: an unfinished match with no move for the server's
// expiry leaves the match list (the lobby) and, while it waits for players, takes no more joins.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../src/server/serve.ts';
import { expired } from '../../src/server/expiry.ts';
import { call } from './helpers.ts';

test('[SRV-EXPIRY] a waiting match nobody joins leaves the list after the expiry and refuses joins; finished ones stay', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-expiry-'));
  const srv = await startServer({
    host: '127.0.0.1',
    port: 0,
    db: join(dir, 'x.sqlite'),
    logger: false,
    webRoot: dir,
    expireAfterMs: 400,
  });
  try {
    const api = `${srv.url}/api`;
    const waiting = (await call(api, 'POST', '/matches', { ruleset: 'tictactoe', seats: [{}, {}] })).body;
    const done = (
      await call(api, 'POST', '/matches', { ruleset: 'tictactoe', seats: [{ agent: 'first' }, { agent: 'first' }] })
    ).body;
    const ids = async (q = '') => ((await call(api, 'GET', `/matches${q}`)).body as { id: string }[]).map((m) => m.id);
    assert.ok((await ids()).includes(waiting.id), 'listed while fresh');
    await new Promise((r) => setTimeout(r, 500));
    const now = await ids();
    assert.ok(!now.includes(waiting.id), 'an expired waiting match is not listed');
    assert.ok(now.includes(done.id), 'a finished match is listed whatever its age');
    assert.ok((await ids('?expired=include')).includes(waiting.id), 'listed when asked for');
    const j = await call(api, 'POST', `/matches/${waiting.id}/join`, { name: 'late' });
    assert.equal(j.status, 409);
    assert.match(j.body.error.reason, /expired/);
    assert.equal((await call(api, 'GET', `/matches/${waiting.id}`)).body.seats[0].kind, 'open', 'nothing changed');
  } finally {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('[SRV-EXPIRY] expiry 0 never expires; finished matches never expire', () => {
  assert.equal(expired({ status: 'waiting', updatedAt: 0 }, 1e12, 0), false);
  assert.equal(expired({ status: 'finished', updatedAt: 0 }, 1e12, 1), false);
  assert.equal(expired({ status: 'running', updatedAt: 0 }, 1e12, 1), true);
  assert.equal(expired({ status: 'running', updatedAt: 1e12 - 5 }, 1e12, 10), false);
});
