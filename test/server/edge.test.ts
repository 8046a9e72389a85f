// Issue 27: what an outside probe did to `arbiter serve`, each attack reproduced against a real server
// process on 127.0.0.1: malformed Authorization, deep JSON, a long Idempotency-Key header, prototype
// keys and throttling over WebSocket, rate budgets bought with made-up tokens, the budget of a socket
// that switches, drain with keep-alive connections and sockets open, and the operator's footguns.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { ErrorBody, ServerFrame } from '../../src/server/schemas.ts';
import {
  call,
  freePort,
  serveRefusal,
  startServer,
  tempDir,
  Watcher,
  type ServerProc,
  serverForSuite,
} from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ws = (srv: ServerProc, id: string, q = '') => `${srv.url.replace('http', 'ws')}/api/matches/${id}/ws?${q}`;
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('the edge', () => {
  const srv = serverForSuite('arbiter-edge-', ['--rate-limit', '100000']);

  test('[SRV-AUTH-MALFORMED] a malformed Authorization header is 401, never a silent spectator', async () => {
    const m = (await call(srv.api, 'POST', '/matches', { ruleset: 'tictactoe', seats: [{}, { agent: 'random' }] }))
      .body;
    for (const h of ['Bearer ' + 'x'.repeat(300), 'Bearer two words', 'Basic abc', 'Bearer', 'token'])
      for (const path of ['view', 'pending', 'log']) {
        const r = await call(srv.api, 'GET', `/matches/${m.id}/${path}`, undefined, undefined, { authorization: h });
        assert.equal(r.status, 401, `${path} with "${h.slice(0, 20)}": ${JSON.stringify(r.body)}`);
        ErrorBody.parse(r.body);
      }
    // without the header a public match is still watched
    assert.equal((await call(srv.api, 'GET', `/matches/${m.id}/view`)).status, 200);
    const w = new Watcher(ws(srv, m.id));
    await w.wait((f) => f.type === 'state');
    w.close();
  });

  test('[SRV-DEPTH] JSON nested thousands deep is a typed 400 in a body and an error frame on a socket', async () => {
    const m = (await call(srv.api, 'POST', '/matches', { ruleset: 'tictactoe', seats: [{}, { agent: 'random' }] }))
      .body;
    const x = (await call(srv.api, 'POST', `/matches/${m.id}/join`, { name: 'x' })).body;
    for (const depth of [65, 1600, 2000, 20_000]) {
      const bodies = [
        { path: '/matches', body: `{"ruleset":"tictactoe","config":{"a":${nested(depth)}}}`, token: undefined },
        { path: `/matches/${m.id}/actions`, body: `{"action":${nested(depth)}}`, token: x.token },
      ];
      for (const b of bodies) {
        const r = await call(srv.api, 'POST', b.path, b.body, b.token);
        assert.equal(r.status, 400, `${b.path} at depth ${depth}: ${JSON.stringify(r.body).slice(0, 200)}`);
        ErrorBody.parse(r.body);
        assert.equal(r.body.error.code, 'bad_request');
      }
    }
    const w = new Watcher(ws(srv, m.id, `token=${x.token}`));
    await w.wait((f) => f.type === 'state');
    w.ws.send(`{"type":"act","id":1,"action":${nested(5000)}}`);
    const e = await w.wait((f) => f.type === 'error' && f.id === 1);
    assert.equal(e.code, 'bad_request');
    assert.equal(w.closed, null);
    w.close();
    assert.equal((await call(srv.api, 'GET', `/matches/${m.id}`)).body.seq, 0, 'nothing was played');
    assert.equal((await call(srv.api, 'GET', '/health')).status, 200);
  });

  test('[SRV-IDEM-HEADER] an Idempotency-Key header over 128 characters is refused like the same key in a body', async () => {
    const m = (await call(srv.api, 'POST', '/matches', { ruleset: 'tictactoe', seats: [{}, { agent: 'random' }] }))
      .body;
    const x = (await call(srv.api, 'POST', `/matches/${m.id}/join`, { name: 'x' })).body;
    const long = 'k'.repeat(129);
    const action = { type: 'mark', cell: 4 };
    const inBody = await call(srv.api, 'POST', `/matches/${m.id}/actions`, { action, idempotencyKey: long }, x.token);
    const inHeader = await call(srv.api, 'POST', `/matches/${m.id}/actions`, { action }, x.token, {
      'idempotency-key': long,
    });
    assert.equal(inBody.status, 400);
    assert.equal(inHeader.status, 400, JSON.stringify(inHeader.body));
    assert.equal(inHeader.body.error.code, 'bad_request');
    assert.equal((await call(srv.api, 'GET', `/matches/${m.id}`)).body.seq, 0, 'nothing was played');
    // 128 characters are a key
    const ok = 'k'.repeat(128);
    const first = await call(srv.api, 'POST', `/matches/${m.id}/actions`, { action }, x.token, {
      'idempotency-key': ok,
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const again = await call(srv.api, 'POST', `/matches/${m.id}/actions`, { action }, x.token, {
      'idempotency-key': ok,
    });
    assert.equal(again.body.replayed, true);
  });

  test('[SRV-WS-PROTO] an act frame holding __proto__ is refused as over HTTP, and nothing is played', async () => {
    const m = (await call(srv.api, 'POST', '/matches', { ruleset: 'tictactoe', seats: [{}, { agent: 'random' }] }))
      .body;
    const x = (await call(srv.api, 'POST', `/matches/${m.id}/join`, { name: 'x' })).body;
    const text = '{"action":{"type":"mark","cell":4,"__proto__":{"polluted":1}}}';
    const http1 = await call(srv.api, 'POST', `/matches/${m.id}/actions`, text, x.token);
    assert.equal(http1.status, 400);
    const w = new Watcher(ws(srv, m.id, `token=${x.token}`));
    await w.wait((f) => f.type === 'state');
    w.ws.send('{"type":"act","id":1,"action":{"type":"mark","cell":4,"__proto__":{"polluted":1}}}');
    w.ws.send('{"type":"act","id":2,"__proto__":{"x":1},"action":{"type":"mark","cell":4}}');
    for (const id of [1, 2]) assert.equal((await w.wait((f) => f.type === 'error' && f.id === id)).code, 'bad_request');
    assert.equal((await call(srv.api, 'GET', `/matches/${m.id}`)).body.seq, 0, 'nothing was played');
    w.ws.send('{"type":"act","id":3,"action":{"type":"mark","cell":4}}');
    assert.equal((await w.wait((f) => f.type === 'ack' && f.id === 3)).seq, 1);
    w.close();
  });

  test('[SRV-WS-SWITCH-ID] the state frame that answers a switch carries the switch’s id', async () => {
    const a = (await call(srv.api, 'POST', '/matches', { ruleset: 'tictactoe', seats: [{}, { agent: 'random' }] }))
      .body;
    const b = (await call(srv.api, 'POST', '/matches', { ruleset: 'tictactoe', seats: [{}, { agent: 'random' }] }))
      .body;
    const tb = (await call(srv.api, 'POST', `/matches/${b.id}/join`, { name: 'b' })).body;
    const w = new Watcher(ws(srv, a.id));
    await w.wait((f) => f.type === 'state' && f.match === a.id);
    w.ws.send(JSON.stringify({ type: 'switch', id: 'sw-1', match: b.id, token: tb.token }));
    const answer = await w.wait((f) => f.type === 'state' && f.match === b.id);
    assert.equal(answer.id, 'sw-1');
    assert.equal(answer.seat, tb.seat);
    ServerFrame.parse(answer);
    w.close();
  });
});

describe('rate budgets', () => {
  let srv: ServerProc;
  let dir: string;
  before(async () => {
    dir = tempDir('arbiter-budget-');
    srv = await startServer(join(dir, 'db.sqlite'), ['--rate-limit', '8']);
  });
  after(async () => {
    await srv.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('[SRV-RATE-SWITCH] a kept socket spends the budget of the seat it follows, and a switch moves it', async () => {
    // four requests on the address's budget of 8
    const body = { ruleset: 'tictactoe', seats: [{}, { agent: 'random' }] };
    const a = (await call(srv.api, 'POST', '/matches', body)).body;
    const ta = (await call(srv.api, 'POST', `/matches/${a.id}/join`, { name: 'a' })).body;
    const b = (await call(srv.api, 'POST', '/matches', body)).body;
    const tb = (await call(srv.api, 'POST', `/matches/${b.id}/join`, { name: 'b' })).body;
    const w = new Watcher(ws(srv, a.id, `token=${ta.token}`));
    await w.wait((f) => f.type === 'state');
    for (let id = 1; id <= 7; id++) w.ws.send(JSON.stringify({ type: 'ping', id }));
    await w.wait((f) => f.type === 'pong' && f.id === 7);
    w.ws.send(JSON.stringify({ type: 'switch', id: 8, match: b.id, token: tb.token })); // a's 8th
    await w.wait((f) => f.type === 'state' && f.match === b.id);
    // b's budget is whole: 8 more messages are read
    for (let id = 9; id <= 16; id++) w.ws.send(JSON.stringify({ type: 'ping', id }));
    await w.wait((f) => (f.type === 'pong' || f.type === 'error') && f.id === 16);
    const refused = w.frames.filter((f) => f.type === 'error');
    assert.deepEqual(refused, [], 'no message refused');
    w.ws.send(JSON.stringify({ type: 'ping', id: 17 }));
    const over = await w.wait((f) => f.type === 'error' && f.id === 17);
    assert.equal(over.code, 'too_many_requests');
    w.close();
  });

  test('[SRV-RATE-TOKEN] a made-up bearer token per request buys no budget: it counts as its address', async () => {
    const seen: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await call(
        srv.api,
        'POST',
        '/matches',
        { ruleset: 'tictactoe' },
        `fresh-${i}-${Math.random().toString(36).slice(2)}`,
      );
      seen.push(r.status);
      if (r.status === 429) {
        ErrorBody.parse(r.body);
        assert.equal(r.body.error.code, 'too_many_requests');
      }
    }
    assert.ok(seen.includes(429), `refused past the address's budget: ${seen.join(' ')}`);
    // the same on a match's routes: a token that holds no seat there spends the address's budget
    const r = await call(srv.api, 'GET', '/matches/0000000000000000/view', undefined, 'made-up-token');
    assert.equal(r.status, 429);
  });
});

describe('drain', () => {
  test('[SRV-DRAIN] SIGTERM closes idle keep-alive connections at once and sockets with 1001', async () => {
    const dir = tempDir('arbiter-drain-');
    const srv = await startServer(join(dir, 'db.sqlite'));
    try {
      const m = (await call(srv.api, 'POST', '/matches', { ruleset: 'tictactoe', seats: [{}, { agent: 'random' }] }))
        .body;
      const w = new Watcher(ws(srv, m.id));
      await w.wait((f) => f.type === 'state');
      const closed = new Promise<number>((ok) => w.ws.on('close', (code) => ok(code)));
      // a kept-alive connection after its request, and a connection that never sent one
      const agent = new http.Agent({ keepAlive: true });
      await new Promise<void>((ok) =>
        http.get(`${srv.api}/health`, { agent }, (r) => {
          r.resume();
          r.on('end', ok);
        }),
      );
      const port = Number(new URL(srv.url).port);
      const bare = net.connect(port, '127.0.0.1');
      await new Promise((ok) => bare.on('connect', ok));
      bare.on('error', () => {});
      // fastify keeps an idle connection 72 s: an exit within 15 s means they were closed
      const t0 = Date.now();
      const code = await Promise.race([
        srv.stop(),
        new Promise<'late'>((ok) => setTimeout(() => ok('late'), 15_000).unref()),
      ]);
      assert.notEqual(code, 'late', 'the server exits without waiting out keep-alive');
      assert.equal(code, 0);
      assert.ok(Date.now() - t0 < 15_000);
      assert.equal(await closed, 1001, 'sockets close with 1001 (going away)');
      agent.destroy();
      bare.destroy();
    } finally {
      if (srv.proc.exitCode === null) await srv.kill9();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('[SRV-START-SIGNAL] SIGTERM to `npm start` stops the server; so does its parent dying', async () => {
    const dir = tempDir('arbiter-start-');
    try {
      for (const how of ['SIGTERM to npm', 'kill -9 of start.mjs'] as const) {
        const port = await freePort();
        const npm = spawn(
          'npm',
          ['start', '--', '--port', String(port), '--db', join(dir, `${port}.sqlite`), '--quiet'],
          {
            cwd: ROOT,
            stdio: ['ignore', 'pipe', 'pipe'],
            env: { ...process.env, ARBITER_NO_WEB_BUILD: '1' },
          },
        );
        let out = '';
        await new Promise<void>((ok, fail) => {
          const t = setTimeout(() => fail(new Error('npm start did not listen: ' + out)), 60_000);
          const grab = (b: Buffer) => {
            out += b.toString();
            if (/listening http/.test(out)) {
              clearTimeout(t);
              ok();
            }
          };
          npm.stdout!.on('data', grab);
          npm.stderr!.on('data', grab);
        });
        assert.equal((await call(`http://127.0.0.1:${port}/api`, 'GET', '/health')).status, 200);
        if (how === 'SIGTERM to npm') npm.kill('SIGTERM');
        else {
          const kids = readFileSync(`/proc/${npm.pid}/task/${npm.pid}/children`, 'utf8').trim().split(/\s+/);
          for (const k of kids) process.kill(Number(k), 'SIGKILL');
        }
        // the port is free again once the server is gone
        let free = false;
        for (let i = 0; i < 150 && !free; i++) {
          free = await new Promise<boolean>((ok) => {
            const s = net.connect(port, '127.0.0.1');
            s.on('connect', () => (s.destroy(), ok(false)));
            s.on('error', () => ok(true));
          });
          if (!free) await new Promise((r) => setTimeout(r, 100));
        }
        assert.ok(free, `${how}: the server let its port go`);
        if (npm.exitCode === null) npm.kill('SIGKILL');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('operating', () => {
  test('[SRV-FLAGS] bad flag values, a port in use and an unusable database: one line, exit 2', async () => {
    const dir = tempDir('arbiter-flags-');
    const db = join(dir, 'db.sqlite');
    try {
      for (const v of ['abc', '-5', '0', '1.5', '']) {
        const r = await serveRefusal(['--port', '0', '--db', join(dir, 'f.sqlite'), '--rate-limit', v]);
        assert.equal(r.listened, false, `--rate-limit "${v}" is refused: ${r.out}`);
        assert.equal(r.code, 2, r.out);
        assert.match(r.out, /rate-limit/);
      }
      const body = await serveRefusal(['--port', '0', '--db', join(dir, 'f.sqlite'), '--body-limit', 'lots']);
      assert.equal(body.code, 2, body.out);
      const srv = await startServer(db);
      try {
        const port = new URL(srv.url).port;
        const inUse = await serveRefusal(['--port', port, '--db', join(dir, 'other.sqlite')]);
        assert.equal(inUse.code, 2, inUse.out);
        assert.equal(inUse.out.trim().split('\n').length, 1, `one line: ${inUse.out}`);
        assert.match(inUse.out, /EADDRINUSE|in use/);
        // a second server on the same file is refused while the first holds it
        const twice = await serveRefusal(['--port', '0', '--db', db]);
        assert.equal(twice.listened, false, 'a second server on one SQLite file is refused');
        assert.equal(twice.code, 2, twice.out);
        assert.match(twice.out, /in use by another/);
      } finally {
        await srv.stop();
      }
      // and taken again once the first is gone
      const again = await startServer(db);
      await again.stop();
      const bad = await serveRefusal(['--port', '0', '--db', join(dir, 'no-such-folder', 'db.sqlite')]);
      assert.equal(bad.code, 2, bad.out);
      assert.equal(bad.out.trim().split('\n').length, 1, `one line: ${bad.out}`);
      assert.ok(!/\n\s+at /.test(bad.out), 'no stack trace');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('[SRV-QUIET] --quiet drops the per-request lines only: a match that does not replay is still reported', async () => {
    const dir = tempDir('arbiter-quiet-');
    const db = join(dir, 'db.sqlite');
    try {
      let srv = await startServer(db);
      const m = (await call(srv.api, 'POST', '/matches', { ruleset: 'tictactoe', seats: [{}, { agent: 'random' }] }))
        .body;
      const x = (await call(srv.api, 'POST', `/matches/${m.id}/join`, { name: 'x' })).body;
      await call(srv.api, 'POST', `/matches/${m.id}/actions`, { action: { type: 'mark', cell: 4 } }, x.token);
      await srv.stop();
      const d = new Database(db);
      // a running match's head is its last submission's (the store writes the row's own head only
      // when the status changes)
      d.prepare(
        "UPDATE submissions SET hash = 'tampered' WHERE match_id = ? AND seq = (SELECT max(seq) FROM submissions WHERE match_id = ?)",
      ).run(m.id, m.id);
      d.close();
      srv = await startServer(db); // the helper passes --quiet
      for (let i = 0; i < 3; i++) await call(srv.api, 'GET', '/rulesets');
      await srv.stop();
      const out = srv.output();
      assert.match(out, /match does not replay/, 'the warning is logged');
      assert.ok(!/incoming request|request completed/.test(out), 'no per-request lines');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('[SRV-LOG-LINE] without --quiet each request is one log line (method, path without its query, status, time, request id), the direct path included', async () => {
    const dir = tempDir('arbiter-log-line-');
    const srv = await startServer(join(dir, 'db.sqlite'), ['--rate-limit', '100000'], { requestLog: true });
    try {
      const asked: { method: string; url: string; status: number }[] = [];
      const ask = async (method: string, path: string, body?: unknown, token?: string) => {
        const r = await call(srv.api, method, path, body, token);
        asked.push({ method, url: '/api' + path.split('?')[0], status: r.status });
        return r;
      };
      // create and join take the direct path (src/server/direct.ts); the rest go through fastify
      const m = (await ask('POST', '/matches', { ruleset: 'tictactoe' })).body;
      const x = (await ask('POST', `/matches/${m.id}/join`, { name: 'x' })).body;
      const o = (await ask('POST', `/matches/${m.id}/join`, { name: 'o' })).body;
      await ask('POST', '/matches', { ruleset: 'no-such-ruleset' });
      await ask('POST', `/matches/${m.id}/actions`, { action: { type: 'mark', cell: 4 } }, x.token);
      await ask('GET', `/matches/${m.id}/view?token=${o.token}`);
      await ask('GET', '/rulesets');
      await ask('GET', '/no-such-route');
      // a seat socket: its upgrade is one line of its own, without the token of its query
      const w = new Watcher(ws(srv, m.id, `token=${x.token}`));
      await w.open;
      await w.wait((f) => f.type === 'state');
      w.close();
      assert.equal(await srv.stop(), 0);
      const out = srv.output();
      for (const secret of [x.token, o.token]) assert.ok(!out.includes(secret), 'no token in the log');
      assert.ok(!/incoming request/.test(out), 'no second line per request');
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .filter((l) => l.msg === 'request completed');
      assert.deepEqual(
        lines.map((l) => ({ method: l.req.method, url: l.req.url, status: l.res.statusCode })),
        asked,
      );
      for (const l of lines) {
        assert.equal(typeof l.responseTime, 'number');
        assert.ok(l.responseTime >= 0);
        assert.equal(l.req.remote, '127.0.0.1');
      }
      assert.equal(new Set(lines.map((l) => l.reqId)).size, asked.length, 'a request id each');
      const opened = out
        .split('\n')
        .filter((l) => l.includes('websocket opened'))
        .map((l) => JSON.parse(l));
      assert.deepEqual(
        opened.map((l) => [l.req.method, l.req.url, l.res.statusCode]),
        [['GET', `/api/matches/${m.id}/ws`, 101]],
      );
      assert.ok(!lines.some((l) => l.reqId === opened[0].reqId), 'its own request id');
    } finally {
      // a failed assertion before the stop leaves no server behind
      if (srv.proc.exitCode === null) await srv.kill9();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
