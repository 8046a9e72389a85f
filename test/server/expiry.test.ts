// [SRV-EXPIRY] abandoned matches expire: an unfinished match with no move for the server's
// expiry leaves the match list (the lobby) and, while it waits for players, takes no more joins.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../src/server/serve.ts';
import { MatchService } from '../../src/server/service.ts';
import { SqliteStore } from '../../src/server/store-sqlite.ts';
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

/** A server keeping `keep` finished matches in memory, two-bot tic-tac-toe, and its clean-up. */
async function keepingServer(keep: number) {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-keep-'));
  const srv = await startServer({
    host: '127.0.0.1',
    port: 0,
    db: join(dir, 'x.sqlite'),
    logger: false,
    webRoot: dir,
    keepFinished: keep,
  });
  const api = `${srv.url}/api`;
  return {
    srv,
    api,
    /** Creates a match of two built-in bots (paced by `agentDelayMs`, if given). */
    botMatch: async (extra: Record<string, unknown> = {}) =>
      (
        await call(api, 'POST', '/matches', {
          ruleset: 'tictactoe',
          seats: [{ agent: 'first' }, { agent: 'first' }],
          ...extra,
        })
      ).body as { id: string },
    finished: async (id: string) => {
      for (let i = 0; i < 200; i++) {
        const r = (await call(api, 'GET', `/matches/${id}`)).body as { status: string };
        if (r.status === 'finished') return;
        await new Promise((ok) => setTimeout(ok, 20));
      }
      assert.fail(`match ${id} did not finish`);
    },
    inMemory: async () => ((await call(api, 'GET', '/health')).body as { matches: number }).matches,
    stop: async () => {
      await srv.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('[SRV-KEEP-FINISHED] finished matches leave memory past the bound unless watched, and read back the same from the store', async () => {
  const k = await keepingServer(2);
  let watcher: Watcher | null = null;
  try {
    // one watched while it plays (paced) and after it ends
    const watched = await k.botMatch({ agentDelayMs: 50 });
    watcher = new Watcher(`${k.srv.url.replace('http', 'ws')}/api/matches/${watched.id}/ws`);
    await watcher.open;
    await k.finished(watched.id);
    const ids: string[] = [watched.id];
    const logs = new Map<string, unknown>();
    logs.set(watched.id, (await call(k.api, 'GET', `/matches/${watched.id}/log`)).body);
    for (let i = 0; i < 5; i++) {
      const m = await k.botMatch({ seed: i + 1 });
      await k.finished(m.id);
      ids.push(m.id);
      logs.set(m.id, (await call(k.api, 'GET', `/matches/${m.id}/log`)).body);
    }
    assert.equal(await k.inMemory(), 3, 'the two newest finished matches and the watched one');
    for (const id of ids) {
      const rec = (await call(k.api, 'GET', `/matches/${id}`)).body as { status: string };
      assert.equal(rec.status, 'finished', id);
      assert.equal((await call(k.api, 'GET', `/matches/${id}/log`)).body, logs.get(id), `${id}: the same log`);
    }
  } finally {
    watcher?.close();
    await k.stop();
  }
});

test('[SRV-KEEP-FINISHED-TRIM] past a quarter over the bound, the finished matches in memory are trimmed back to it', async () => {
  const k = await keepingServer(4);
  try {
    const held: number[] = [];
    for (let i = 0; i < 7; i++) {
      await k.finished((await k.botMatch({ seed: i + 1 })).id);
      held.push(await k.inMemory());
    }
    // 4 + 4/4 = 5 may be held; the sixth finished match trims the set back to 4
    assert.deepEqual(held, [1, 2, 3, 4, 5, 4, 5]);
  } finally {
    await k.stop();
  }
});

test('[SRV-KEEP-FINISHED-WATCHED] watched finished matches are set aside, not walked again; one whose watchers leave ages like a new one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-watched-'));
  const svc = new MatchService({ store: new SqliteStore(join(dir, 'x.sqlite')), keepFinished: 4 });
  await svc.start();
  const inner = svc as unknown as { finishedLive: Set<string>; finishedWatched: Set<string> };
  /** A tic-tac-toe match played to x's win (five moves), watched or not. */
  const finishOne = async (watch: boolean) => {
    const m = await svc.create({ ruleset: 'tictactoe', seed: 1 });
    await svc.join(m, 0, 'x');
    await svc.join(m, 1, 'o');
    const off = watch ? svc.subscribe(m, { seat: null, send: () => {} }) : null;
    for (const [i, cell] of [0, 3, 1, 4, 2].entries()) await svc.submit(m, i % 2, { type: 'mark', cell }, null);
    assert.equal(m.status, 'finished');
    return { m, off };
  };
  try {
    const watched = [];
    for (let i = 0; i < 20; i++) watched.push(await finishOne(true));
    // every one of them is kept, but the trims set them aside: the set they walk stays bounded
    assert.equal(svc.liveCount(), 20);
    assert.ok(inner.finishedLive.size <= 5, `finishedLive holds ${inner.finishedLive.size}`);
    assert.equal(inner.finishedWatched.size + inner.finishedLive.size, 20);
    for (let i = 0; i < 5; i++) await finishOne(false);
    // the bound (4) and its slack (a trim runs past 5): the five unwatched ones are all still held
    assert.equal(svc.liveCount(), 20 + 5, 'the watched ones and the newest unwatched');
    // the first one's watcher leaves: it comes back as the newest, and four newer ones push it out
    const first = watched[0];
    first.off?.();
    assert.ok(inner.finishedLive.has(first.m.id) && !inner.finishedWatched.has(first.m.id));
    for (let i = 0; i < 3; i++) await finishOne(false);
    assert.ok(inner.finishedLive.has(first.m.id), 'kept while fewer than four newer ones finished');
    await finishOne(false);
    assert.ok(!inner.finishedLive.has(first.m.id), 'pushed out by newer ones');
    assert.equal(svc.liveCount(), 19 + 4);
    assert.equal((await svc.get(first.m.id))?.status, 'finished', 'read back from the store');
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
