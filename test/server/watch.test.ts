// Issue 27, F2: who may watch. bnc's spectators see every seat's moves and whispers, so a running
// bnc match with contestants is not watchable live unless its creator says so: a password, a delay
// (turns or seconds), or public watching. A contestant who drops its token learns nothing.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { act, SeededRandom } from '../../packages/engine/src/kernel/index.ts';
import { getPackage } from '../../packages/engine/src/registry.ts';
import { MatchRecord, Snapshot } from '../../src/server/schemas.ts';
import { call, startServer, tempDir, Watcher, type ServerProc } from './helpers.ts';

let srv: ServerProc;
let dir: string;
before(async () => {
  dir = tempDir('arbiter-watch-');
  srv = await startServer(join(dir, 'db.sqlite'), ['--rate-limit', '100000']);
});
after(async () => {
  await srv.stop();
  rmSync(dir, { recursive: true, force: true });
});

const wsUrl = (id: string, q = '') => `${srv.url.replace('http', 'ws')}/api/matches/${id}/ws?${q}`;

/** A bnc match of four token holders, `steps` submissions played from their menus. */
async function bnc(extra: object, steps: number, seed = 5) {
  const m = (await call(srv.api, 'POST', '/matches', { ruleset: 'bnc', seed, config: { turns: 30 }, ...extra })).body;
  MatchRecord.parse(m);
  const tokens: string[] = [];
  for (let i = 0; i < 4; i++)
    tokens.push((await call(srv.api, 'POST', `/matches/${m.id}/join`, { name: `p${i}`, seat: i })).body.token);
  await play(m.id, tokens, steps, seed);
  return { id: m.id as string, tokens };
}

async function play(id: string, tokens: string[], steps: number, seed: number) {
  const rnd = new SeededRandom(seed);
  for (let step = 0; step < steps; step++) {
    const rec = (await call(srv.api, 'GET', `/matches/${id}`)).body;
    const seat = rec.pending[rnd.int(rec.pending.length)].seat as number;
    const v = (await call(srv.api, 'GET', `/matches/${id}/view`, undefined, tokens[seat])).body;
    const action = v.menu.actions[rnd.int(v.menu.actions.length)];
    assert.equal((await call(srv.api, 'POST', `/matches/${id}/actions`, { action }, tokens[seat])).status, 200);
  }
}

/** The spectator's view after the first `seq` stored submissions, rebuilt from the store's rows by the test. */
function spectatorViewAt(id: string, seed: number, seq: number): unknown {
  const rs = getPackage('bnc').ruleset;
  const db = new Database(join(dir, 'db.sqlite'), { readonly: true });
  const rows = db
    .prepare('SELECT seat, input FROM submissions WHERE match_id = ? AND seq <= ? ORDER BY seq')
    .all(id, seq) as { seat: number; input: string }[];
  const config = JSON.parse(
    (db.prepare('SELECT config FROM matches WHERE id = ?').get(id) as { config: string }).config,
  );
  db.close();
  let state = rs.setup(config, seed);
  for (const r of rows) {
    const res = act(rs, state, r.seat, JSON.parse(r.input));
    assert.ok(res.ok);
    state = res.state;
  }
  return rs.view(state, null);
}

describe('who may watch', () => {
  test('[SRV-WATCH-CLOSED] a running bnc match with contestants: no spectator by default, token dropped or not', async () => {
    const { id, tokens } = await bnc({}, 6);
    const rec = (await call(srv.api, 'GET', `/matches/${id}`)).body;
    assert.equal(rec.watch, 'after_end');
    for (const path of ['view', 'pending', 'log']) {
      const r = await call(srv.api, 'GET', `/matches/${id}/${path}`);
      assert.equal(r.status, 401, `${path}: ${JSON.stringify(r.body).slice(0, 200)}`);
    }
    const w = new Watcher(wsUrl(id));
    await w.wait((f) => f.type === 'error');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(w.closed?.code, 4401);
    assert.ok(!w.frames.some((f) => f.type === 'state'), 'no state frame reached the would-be spectator');
    // the seats still see their own views
    assert.equal((await call(srv.api, 'GET', `/matches/${id}/view`, undefined, tokens[2])).status, 200);
    // a match of built-in agents only has no contestant to cheat for: watched live as before
    const agents = (
      await call(srv.api, 'POST', '/matches', {
        ruleset: 'bnc',
        seed: 2,
        seats: [{ agent: 'random' }, { agent: 'random' }, { agent: 'random' }, { agent: 'random' }],
        agentDelayMs: 1000,
      })
    ).body;
    assert.equal(agents.watch, 'live');
    assert.equal((await call(srv.api, 'GET', `/matches/${agents.id}/view`)).status, 200);
  });

  test('[SRV-WATCH-PUBLIC] the creator may open it to everyone, or give a password; one choice only', async () => {
    const open = await bnc({ spectatePublic: true }, 3);
    const v = await call(srv.api, 'GET', `/matches/${open.id}/view`);
    assert.equal(v.status, 200);
    assert.equal(v.body.seq, 3, 'live');
    const locked = await bnc({ spectatePassword: 'pw' }, 2);
    assert.equal((await call(srv.api, 'GET', `/matches/${locked.id}/view`)).status, 401);
    assert.equal((await call(srv.api, 'GET', `/matches/${locked.id}/view?password=pw`)).body.seq, 2);
    const both = await call(srv.api, 'POST', '/matches', {
      ruleset: 'bnc',
      spectatePublic: true,
      spectatePassword: 'x',
    });
    assert.equal(both.status, 400);
    const bad = await call(srv.api, 'POST', '/matches', { ruleset: 'bnc', spectateDelay: { turns: 0 } });
    assert.equal(bad.status, 400);
  });

  test('[SRV-WATCH-DELAY-TURNS] with a delay of 3 turns a spectator sees the match 3 submissions late, live frames included', async () => {
    const seed = 7;
    const { id, tokens } = await bnc({ spectateDelay: { turns: 3 } }, 2, seed);
    const early = await call(srv.api, 'GET', `/matches/${id}/view`);
    assert.equal(early.status, 200);
    assert.equal(early.body.seq, 0, 'two submissions in, a 3-turn delay shows the start');
    const w = new Watcher(wsUrl(id));
    await w.wait((f) => f.type === 'state');
    await play(id, tokens, 8, seed + 1);
    const live = (await call(srv.api, 'GET', `/matches/${id}`)).body.seq as number;
    assert.equal(live, 10);
    const v = await call(srv.api, 'GET', `/matches/${id}/view`);
    Snapshot.parse(v.body);
    assert.equal(v.body.seq, live - 3);
    assert.deepEqual(v.body.delayed, { turns: 3 });
    await w.wait((f) => f.type === 'state' && f.seq === live - 3);
    assert.ok(
      w.frames.every((f) => f.type !== 'state' || f.seq <= live - 3),
      'no frame ahead of the delay',
    );
    // what it sees is exactly the spectator's view of the match at that seq
    assert.deepEqual(v.body.view, spectatorViewAt(id, seed, live - 3));
    // the log a delayed spectator may read stops at the delayed seq
    const log = (await (await fetch(`${srv.api}/matches/${id}/log`)).text()).trim().split('\n');
    assert.equal(log.length, 1 + live - 3);
    w.close();
  });

  test('[SRV-WATCH-DELAY-SECONDS] with a delay of 1 second a move shows to spectators a second later', async () => {
    const seed = 9;
    const { id, tokens } = await bnc({ spectateDelay: { seconds: 1 } }, 0, seed);
    await new Promise((r) => setTimeout(r, 1100));
    const w = new Watcher(wsUrl(id));
    await w.wait((f) => f.type === 'state' && f.seq === 0);
    await play(id, tokens, 1, seed);
    const now = await call(srv.api, 'GET', `/matches/${id}/view`);
    assert.equal(now.body.seq, 0, 'not yet');
    const frame = await w.wait((f) => f.type === 'state' && f.seq === 1, 5000);
    assert.ok(frame.events.length > 0, 'with the events of the move');
    assert.equal((await call(srv.api, 'GET', `/matches/${id}/view`)).body.seq, 1);
    w.close();
  });
});
