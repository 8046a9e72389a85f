// [SRV-EXPIRY] abandoned matches expire: an unfinished match with no move for the server's
// expiry leaves the match list (the lobby) and, while it waits for players, takes no more joins.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../src/server/serve.ts';
import { expired } from '../../src/server/expiry.ts';
import { call, Watcher } from './helpers.ts';

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

test('[SRV-KEEP-FINISHED] finished matches leave memory past the bound unless watched, and read back the same from the store', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-keep-'));
  const srv = await startServer({
    host: '127.0.0.1',
    port: 0,
    db: join(dir, 'x.sqlite'),
    logger: false,
    webRoot: dir,
    keepFinished: 2,
  });
  const api = `${srv.url}/api`;
  const bots = [{ agent: 'first' }, { agent: 'first' }];
  const finished = async (id: string) => {
    for (let i = 0; i < 200; i++) {
      const r = (await call(api, 'GET', `/matches/${id}`)).body as { status: string };
      if (r.status === 'finished') return;
      await new Promise((ok) => setTimeout(ok, 20));
    }
    assert.fail(`match ${id} did not finish`);
  };
  let watcher: Watcher | null = null;
  try {
    // one watched while it plays (paced) and after it ends
    const watched = (await call(api, 'POST', '/matches', { ruleset: 'tictactoe', seats: bots, agentDelayMs: 50 })).body;
    watcher = new Watcher(`${srv.url.replace('http', 'ws')}/api/matches/${watched.id}/ws`);
    await watcher.open;
    await finished(watched.id);
    const ids: string[] = [watched.id];
    const logs = new Map<string, unknown>();
    logs.set(watched.id, (await call(api, 'GET', `/matches/${watched.id}/log`)).body);
    for (let i = 0; i < 5; i++) {
      const m = (await call(api, 'POST', '/matches', { ruleset: 'tictactoe', seats: bots, seed: i + 1 })).body;
      await finished(m.id);
      ids.push(m.id);
      logs.set(m.id, (await call(api, 'GET', `/matches/${m.id}/log`)).body);
    }
    const inMemory = ((await call(api, 'GET', '/health')).body as { matches: number }).matches;
    assert.equal(inMemory, 3, 'the two newest finished matches and the watched one');
    for (const id of ids) {
      const rec = (await call(api, 'GET', `/matches/${id}`)).body as { status: string };
      assert.equal(rec.status, 'finished', id);
      assert.equal((await call(api, 'GET', `/matches/${id}/log`)).body, logs.get(id), `${id}: the same log`);
    }
  } finally {
    watcher?.close();
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('[SRV-KEEP-FINISHED-TRIM] past a quarter over the bound, the finished matches in memory are trimmed back to it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-trim-'));
  const srv = await startServer({
    host: '127.0.0.1',
    port: 0,
    db: join(dir, 'x.sqlite'),
    logger: false,
    webRoot: dir,
    keepFinished: 4,
  });
  const api = `${srv.url}/api`;
  const bots = [{ agent: 'first' }, { agent: 'first' }];
  const inMemory = async () => ((await call(api, 'GET', '/health')).body as { matches: number }).matches;
  try {
    const held: number[] = [];
    for (let i = 0; i < 7; i++) {
      const m = (await call(api, 'POST', '/matches', { ruleset: 'tictactoe', seats: bots, seed: i + 1 })).body;
      for (let t = 0; t < 200; t++) {
        if (((await call(api, 'GET', `/matches/${m.id}`)).body as { status: string }).status === 'finished') break;
        await new Promise((ok) => setTimeout(ok, 20));
      }
      held.push(await inMemory());
    }
    // 4 + 4/4 = 5 may be held; the sixth finished match trims the set back to 4
    assert.deepEqual(held, [1, 2, 3, 4, 5, 4, 5]);
  } finally {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
