// Remote agents over the server's WebSocket (issue 12): a program elsewhere holds a seat token and
// plays the seat through the agent protocol (?protocol=arbiter-agent/1), under the same failure
// policy as cmd:/http:/llm: agents. The client is examples/remote-agent.mjs, run as its own process.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { getPackage } from '../../packages/engine/src/registry.ts';
import { parseLog } from '../../src/runners/logfile.ts';
import { replayLog } from '../../src/runners/replay.ts';
import {
  decisionRequestSchema,
  decisionResultSchema,
  matchStartSchema,
} from '../../packages/engine/src/agents/protocol.ts';
import { call, startServer, tempDir, type ServerProc } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CLIENT = join(ROOT, 'examples/remote-agent.mjs');
let srv: ServerProc;

before(async () => {
  // protocol seats of matches without a turnDeadlineMs answer within the server's agent deadline;
  // such matches arm no turn timer, so a seat joined but not yet connected is never defaulted
  srv = await startServer(join(tempDir('arbiter-remote-'), 'db.sqlite'), [
    '--rate-limit',
    '100000',
    '--agent-deadline-ms',
    '1500',
  ]);
});
after(async () => {
  assert.equal(await srv.stop(), 0);
});

type ClientReport = { close: number; seen: Record<string, number>; attempts: Record<string, number> };

/** Runs the example client against one match until its socket closes. */
function client(match: string, mode: string, extra: string[] = []): Promise<ClientReport> {
  const p = spawn(process.execPath, [CLIENT, '--server', srv.url, '--match', match, '--mode', mode, ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  p.stdout.on('data', (b: Buffer) => (out += b.toString()));
  p.stderr.on('data', (b: Buffer) => (err += b.toString()));
  return new Promise((ok, fail) => {
    const t = setTimeout(() => {
      p.kill('SIGKILL');
      fail(new Error(`client ${mode} did not finish: ${err}`));
    }, 60_000);
    p.on('exit', () => {
      clearTimeout(t);
      try {
        ok(JSON.parse(out.trim().split('\n').pop() ?? ''));
      } catch {
        fail(new Error(`client ${mode} printed no report: ${out} ${err}`));
      }
    });
  });
}

async function create(body: object): Promise<string> {
  const r = await call(srv.api, 'POST', '/matches', body);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.id;
}

async function log(id: string): Promise<ReturnType<typeof parseLog>> {
  // a failed seat's socket closes before the match ends: the other seats and its defaults play on
  for (let i = 0; i < 200; i++) {
    if ((await call(srv.api, 'GET', `/matches/${id}`)).body.status === 'finished') break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const text = await (await fetch(`${srv.api}/matches/${id}/log`)).text();
  const parsed = parseLog(text);
  assert.ok(parsed.footer, 'the match finished');
  const rep = replayLog(getPackage(parsed.header.ruleset).ruleset, parsed);
  assert.ok(rep.ok, JSON.stringify(rep.divergence));
  return parsed;
}

const seat0 = (l: ReturnType<typeof parseLog>) => l.entries.filter((e) => e.seat === 0);

test('[AG-REMOTE-01] a remote agent plays its seat over the WebSocket: whole match, every answer accepted', async () => {
  const id = await create({ ruleset: 'tictactoe', seed: 7, seats: [{}, { agent: 'random' }] });
  const report = await client(id, 'first');
  assert.equal(report.close, 1000, 'the server closes normally after match_end');
  assert.equal(report.seen.match_start, 1);
  assert.equal(report.seen.match_end, 1);
  const mine = seat0(await log(id));
  assert.ok(mine.length >= 3);
  assert.ok(
    mine.every((e) => e.result === 'accepted'),
    JSON.stringify(mine),
  );
  assert.equal(report.seen.decision_request, mine.length, 'one request per decision, no retries');
  assert.equal(report.seen.decision_result, mine.length, 'each accepted answer is confirmed');
});

test('[AG-REMOTE-02] the protocol messages on the socket are the schema-checked arbiter-agent/1 messages', async () => {
  const id = await create({ ruleset: 'tictactoe', seed: 3, seats: [{}, { agent: 'first' }] });
  const j = await call(srv.api, 'POST', `/matches/${id}/join`, { name: 'raw' });
  const ws = new WebSocket(
    `${srv.url.replace('http', 'ws')}/api/matches/${id}/ws?token=${j.body.token}&protocol=arbiter-agent/1`,
  );
  const frames: any[] = [];
  const closed = new Promise<number>((ok) => ws.on('close', (code) => ok(code)));
  ws.on('message', (d) => {
    const f = JSON.parse(String(d));
    frames.push(f);
    if (f.type === 'decision_request')
      ws.send(JSON.stringify({ type: 'decision', request: f.request, action: f.menu.actions[0] }));
  });
  assert.equal(await closed, 1000);
  assert.equal(frames[0].type, 'match_start');
  matchStartSchema.parse(frames[0]);
  assert.equal(frames[0].seat, 0);
  assert.match(frames[0].rules, /tic-tac-toe/i);
  assert.ok(!frames.some((f) => f.type === 'state'), 'a protocol socket carries only protocol messages');
  const requests = frames.filter((f) => f.type === 'decision_request');
  for (const r of requests) decisionRequestSchema.parse(r);
  for (const r of frames.filter((f) => f.type === 'decision_result')) decisionResultSchema.parse(r);
  assert.equal(new Set(requests.map((r) => r.request)).size, requests.length, 'request ids are unique');
  assert.ok(requests.every((r) => r.attempt === 1 && typeof r.view_text === 'string' && r.deadline_ms > 0));
  // tic-tac-toe is perfect information: the second request lists the opponent's reply it saw
  assert.ok(requests[1].events.length > 0, JSON.stringify(requests[1]));
  assert.equal(frames.at(-1).type, 'match_end');
});

test('[AG-REMOTE-03] a hung agent costs its deadline K times, then the seat is failed and defaults at once', async () => {
  const others = { agent: 'random' };
  const id = await create({ ruleset: 'bnc', seed: 11, seats: [{}, others, others, others] });
  const report = await client(id, 'hang');
  assert.equal(report.close, 4408, 'the failed seat is told by close code 4408');
  const mine = seat0(await log(id));
  assert.ok(mine.length >= 4, `enough decisions to see the seat fail (${mine.length})`);
  assert.deepEqual(
    mine.map((e) => e.default?.reason),
    mine.map((_, i) => (i < 3 ? 'timeout' : 'seat_failed')),
  );
  assert.ok(mine.every((e) => e.result === 'defaulted'));
  assert.equal(report.seen.decision_request, 3, 'a failed seat is not asked any more');
});

test('[AG-REMOTE-04] an answer that is not JSON gets one retry with the reason fed back', async () => {
  const id = await create({ ruleset: 'tictactoe', seed: 5, seats: [{}, { agent: 'random' }] });
  const once = await client(id, 'garbage-once');
  const mine = seat0(await log(id));
  assert.ok(mine.every((e) => e.result === 'accepted'));
  assert.equal(once.attempts['2'], mine.length, 'every decision took its retry');

  const id2 = await create({ ruleset: 'tictactoe', seed: 5, seats: [{}, { agent: 'random' }] });
  const always = await client(id2, 'garbage');
  assert.equal(always.close, 4408);
  const mine2 = seat0(await log(id2));
  assert.deepEqual(
    mine2.slice(0, 3).map((e) => [e.default?.reason, e.default?.raw]),
    [0, 1, 2].map(() => ['invalid_json', 'this is not JSON']),
  );
  assert.ok(mine2.slice(3).every((e) => e.default?.reason === 'seat_failed'));
});

test('[AG-REMOTE-05] answers carrying an older request id are dropped and the default says stale', async () => {
  const id = await create({ ruleset: 'tictactoe', seed: 9, seats: [{}, { agent: 'random' }] });
  await client(id, 'stale');
  const mine = seat0(await log(id));
  const first = mine[0].default;
  assert.equal(first?.reason, 'stale', JSON.stringify(mine[0]));
  assert.match(String(first?.raw), /never-asked/, 'the dropped answer is kept in the record');
  assert.equal(mine[1].default?.reason, 'stale');
  assert.match(String(mine[1].default?.raw), new RegExp(String(first?.request)), 'it answered the previous request');
});

test('[AG-REMOTE-06] bnc: the four remote seats are asked together; a second protocol socket for a seat is refused', async () => {
  // the match's own deadline (5 s) overrides the server's for its protocol seats
  const id = await create({ ruleset: 'bnc', seed: 4, turnDeadlineMs: 5000 });
  const tokens: string[] = [];
  for (let seat = 0; seat < 4; seat++)
    tokens.push((await call(srv.api, 'POST', `/matches/${id}/join`, { name: `s${seat}`, seat })).body.token);
  const url = (t: string) =>
    `${srv.url.replace('http', 'ws')}/api/matches/${id}/ws?token=${t}&protocol=arbiter-agent/1`;
  // each agent holds its answer until all four seats have been asked for the same turn: a server
  // that asked seat by seat would wait for seat 0 forever and every decision would time out
  const waiting = new Map<number, { ws: WebSocket; msg: any }>();
  const closes: Promise<number>[] = [];
  const sockets: WebSocket[] = [];
  let releases = 0;
  for (let seat = 0; seat < 4; seat++) {
    const ws = new WebSocket(url(tokens[seat]));
    sockets.push(ws);
    closes.push(new Promise((ok) => ws.on('close', (code) => ok(code))));
    ws.on('message', (d) => {
      const msg = JSON.parse(String(d));
      if (msg.type !== 'decision_request') return;
      waiting.set(seat, { ws, msg });
      if (waiting.size < 4) return;
      const turns = new Set([...waiting.values()].map((w) => w.msg.view.turn));
      assert.equal(turns.size, 1, 'the four requests are for the same turn');
      releases++;
      for (const w of waiting.values())
        w.ws.send(JSON.stringify({ type: 'decision', request: w.msg.request, action: w.msg.menu.actions[0] }));
      waiting.clear();
    });
  }
  await new Promise((ok) => sockets[0].once('open', ok));
  const second = new WebSocket(url(tokens[0]));
  const refused = await new Promise<{ code: number; frame: any }>((ok) => {
    let frame: any = null;
    second.on('message', (d) => (frame = JSON.parse(String(d))));
    second.on('close', (code) => ok({ code, frame }));
  });
  assert.equal(refused.code, 4409);
  assert.equal(refused.frame.code, 'illegal');
  assert.deepEqual(await Promise.all(closes), [1000, 1000, 1000, 1000]);
  const l = await log(id);
  assert.ok(
    l.entries.every((e) => e.result === 'accepted'),
    'no decision timed out',
  );
  assert.equal(releases * 4, l.entries.length);
});
