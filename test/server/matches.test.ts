// `arbiter serve` against a real server process on 127.0.0.1: whole matches over HTTP and WebSocket,
// hidden information checked against the ruleset's `secrets` on every frame, typed refusals, and a
// fast-check fuzz of the HTTP edge.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { act, SeededRandom, type GameEvent, type Json } from '../../packages/engine/src/kernel/index.ts';
import { getPackage } from '../../packages/engine/src/registry.ts';
import { parseLog } from '../../src/runners/logfile.ts';
import { replayLog } from '../../src/runners/replay.ts';
import { actionSchemas } from '../../src/runners/schema.ts';
import { leaks, leaksAny } from '../../packages/engine/src/engine/audience.ts';
import { ActResult, ErrorBody, MatchRecord, ServerFrame, Snapshot } from '../../src/server/schemas.ts';
import { call, startServer, tempDir, Watcher, type ServerProc } from './helpers.ts';

let srv: ServerProc;
const CODES = [
  'bad_request',
  'illegal',
  'out_of_turn',
  'game_over',
  'bad_config',
  'corrupt_log',
  'not_found',
  'too_large',
];

let web: string;
let dbDir: string;
before(async () => {
  web = tempDir('arbiter-web-');
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>lobby</title>');
  writeFileSync(join(web, 'assets', 'app.js'), 'console.log(1)');
  dbDir = tempDir('arbiter-srv-');
  srv = await startServer(join(dbDir, 'db.sqlite'), ['--rate-limit', '100000', '--web', web]);
});
after(async () => {
  const code = await srv.stop();
  for (const d of [web, dbDir]) rmSync(d, { recursive: true, force: true });
  assert.equal(code, 0, 'SIGTERM drains and exits 0');
});

const wsUrl = (id: string, q: string) => `${srv.url.replace('http', 'ws')}/api/matches/${id}/ws?${q}`;

async function create(body: object): Promise<any> {
  const r = await call(srv.api, 'POST', '/matches', body);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  MatchRecord.parse(r.body);
  return r.body;
}

async function join1(id: string, name: string, seat?: number): Promise<{ seat: number; token: string }> {
  const r = await call(srv.api, 'POST', `/matches/${id}/join`, seat === undefined ? { name } : { name, seat });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

async function verifyLog(id: string): Promise<string> {
  const r = await fetch(`${srv.api}/matches/${id}/log`);
  const text = await r.text();
  const log = parseLog(text);
  assert.ok(log.footer, 'a finished match log has its final line');
  const rep = replayLog(getPackage(log.header.ruleset).ruleset, log);
  assert.ok(rep.ok, JSON.stringify(rep.divergence));
  return text;
}

/**
 * Plays the remote seats by picking from each seat's menu until the match ends. The test knows the
 * seed and every accepted submission (from the acks and the log), so it rebuilds the omniscient
 * state at every seq and checks each frame and view against that audience's secrets.
 */
async function playRemote(
  id: string,
  rulesetId: string,
  seed: number,
  tokens: Map<number, string>,
  opts: { spectator?: Watcher; watchers: Map<number, Watcher>; maxSteps?: number },
) {
  const rs = getPackage(rulesetId).ruleset;
  const rnd = new SeededRandom(seed ^ 0x1234);
  const views: { seq: number; seat: number | null; body: unknown }[] = [];
  for (let step = 0; step < (opts.maxSteps ?? 5000); step++) {
    const rec = (await call(srv.api, 'GET', `/matches/${id}`)).body;
    if (rec.status === 'finished') break;
    const mine = rec.pending.filter((p: any) => tokens.has(p.seat));
    if (mine.length === 0) {
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    const p = mine[rnd.int(mine.length)];
    const token = tokens.get(p.seat)!;
    const v = await call(srv.api, 'GET', `/matches/${id}/view`, undefined, token);
    assert.equal(v.status, 200);
    Snapshot.parse(v.body);
    views.push({ seq: v.body.seq, seat: p.seat, body: v.body });
    if (!v.body.menu || v.body.menu.actions.length === 0) continue; // moved on meanwhile (an agent)
    const action = v.body.menu.actions[rnd.int(v.body.menu.actions.length)];
    const r = await call(srv.api, 'POST', `/matches/${id}/actions`, { action }, token);
    if (r.status === 200) ActResult.parse(r.body);
    else assert.ok([409].includes(r.status), JSON.stringify(r.body)); // a built-in agent moved first
  }
  // rebuild every state from the log and check everything anyone received
  const text = await verifyLog(id);
  const log = parseLog(text);
  let state = rs.setup(log.header.config, seed);
  const states: unknown[] = [state];
  for (const e of log.entries) {
    const res = act(rs, state, e.seat, e.input);
    assert.ok(res.ok);
    state = res.state;
    states.push(state);
  }
  let checked = 0;
  const check = (seq: number, seat: number | null, value: unknown, what: string) => {
    const secrets = (rs.secrets?.(states[seq], seat) ?? []) as Json[];
    if (leaksAny(value, secrets)) {
      const which = secrets.find((x) => leaks(value, x));
      assert.fail(`${what} for seat ${seat} at seq ${seq} contains a secret: ${JSON.stringify(which).slice(0, 120)}`);
    }
    checked++;
  };
  // `secrets` speaks about views (and the events we send with them); menus are the seat's own
  const seen = (f: any) => ({ view: f.view, events: f.events, pending: f.pending });
  for (const v of views) check(v.seq, v.seat, seen(v.body), 'an HTTP view');
  for (const [seat, w] of opts.watchers) {
    for (const f of w.frames) {
      ServerFrame.parse(f);
      if (f.type === 'state') check(f.seq, seat, seen(f), 'a WebSocket frame');
    }
  }
  for (const f of opts.spectator?.frames ?? []) if (f.type === 'state') check(f.seq, null, f, 'a spectator frame');
  return { log, checked, states };
}

describe('arbiter serve: whole matches', () => {
  test('[SRV-GROUND] four token holders play GROUND; no view or frame ever holds another seat’s secret', async () => {
    const seed = 11;
    const m = await create({ ruleset: 'ground', seed });
    assert.equal(m.status, 'waiting');
    assert.equal(m.seed, undefined, 'the seed stays hidden while the match runs');
    const tokens = new Map<number, string>();
    const watchers = new Map<number, Watcher>();
    for (let i = 0; i < 4; i++) {
      const j = await join1(m.id, `p${i}`);
      tokens.set(j.seat, j.token);
    }
    for (const [seat, token] of tokens) watchers.set(seat, new Watcher(wsUrl(m.id, `token=${token}`)));
    const spectator = new Watcher(wsUrl(m.id, ''));
    await Promise.all([...watchers.values(), spectator].map((w) => w.open));
    await Promise.all([...watchers.values(), spectator].map((w) => w.wait((f) => f.type === 'state')));
    const { log, checked } = await playRemote(m.id, 'ground', seed, tokens, { watchers, spectator });
    assert.ok(log.entries.length > 4);
    // every connection saw the final state
    for (const w of [...watchers.values(), spectator])
      await w.wait((f) => f.type === 'state' && f.status === 'finished');
    for (const w of [...watchers.values(), spectator]) w.close();
    assert.ok(checked > log.entries.length * 4, `checked ${checked} frames and views`);
    // a seat's own frames carry its menu while it is pending; a spectator's never do
    assert.ok(spectator.frames.every((f) => f.type !== 'state' || f.menu === null));
    // GR-R04: every seat and the spectator see each round's reveal as an event (the view drops the
    // choices again at the next Select), with all four choices, exactly as the log holds them
    const reveals = log.entries.flatMap((e) => e.events.filter((x) => x.type === 'revealed'));
    assert.ok(reveals.length > 0, 'the match revealed at least once');
    for (const [who, w] of [...watchers, ['spectator', spectator] as const]) {
      const got = w.frames.flatMap((f) => (f.type === 'state' ? f.events : [])).filter((x) => x.type === 'revealed');
      assert.deepEqual(got, reveals, `the reveals ${who} saw`);
      assert.ok(got.every((x) => Array.isArray(x.choices) && x.choices.length === 4));
    }
    const rec = (await call(srv.api, 'GET', `/matches/${m.id}`)).body;
    assert.equal(rec.seed, seed, 'published once the match is over');
  });

  test('[SRV-MINES] a mines match over HTTP to the end; the log verifies', async () => {
    const seed = 5;
    const m = await create({ ruleset: 'mines', seed, config: { width: 6, height: 6, mines: 4, max_rounds: 3 } });
    const j = await join1(m.id, 'solo');
    const w = new Watcher(wsUrl(m.id, `token=${j.token}`));
    await w.open;
    const { log } = await playRemote(m.id, 'mines', seed, new Map([[j.seat, j.token]]), {
      watchers: new Map([[j.seat, w]]),
    });
    assert.ok(log.footer?.outcome);
    await w.wait((f) => f.type === 'state' && f.status === 'finished');
    w.close();
  });

  test('[SRV-BNC] bnc with two remote seats and two built-in agents playing on the server', async () => {
    const seed = 21;
    const m = await create({
      ruleset: 'bnc',
      seed,
      seats: [{}, {}, { agent: 'greedy' }, { agent: 'random' }],
      config: { turns: 8 },
    });
    const a = await join1(m.id, 'alice', 0);
    const b = await join1(m.id, 'bob', 1);
    const tokens = new Map([
      [0, a.token],
      [1, b.token],
    ]);
    const watchers = new Map([
      [0, new Watcher(wsUrl(m.id, `token=${a.token}`))],
      [1, new Watcher(wsUrl(m.id, `token=${b.token}`))],
    ]);
    await Promise.all([...watchers.values()].map((w) => w.open));
    const { log } = await playRemote(m.id, 'bnc', seed, tokens, { watchers });
    const seats = new Set(log.entries.map((e) => e.seat));
    assert.deepEqual([...seats].sort(), [0, 1, 2, 3], 'all four seats submitted, two of them from the server');
    assert.deepEqual(log.header.agents, ['remote', 'remote', 'greedy', 'random']);
    for (const w of watchers.values()) w.close();
  });

  test('[SRV-LOG-AUDIENCE] a running bnc match’s log gives a seat only what it perceives, a spectator what the audience sees', async () => {
    const seed = 8;
    // its creator lets anyone watch live (bnc's spectators see every seat's secrets)
    const m = await create({ ruleset: 'bnc', seed, config: { turns: 30 }, spectatePublic: true });
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) tokens.push((await join1(m.id, `p${i}`, i)).token);
    const rnd = new SeededRandom(seed);
    for (let step = 0; step < 40; step++) {
      const rec = (await call(srv.api, 'GET', `/matches/${m.id}`)).body;
      if (rec.status !== 'running' || rec.pending.length === 0) break;
      const seat = rec.pending[rnd.int(rec.pending.length)].seat as number;
      const v = (await call(srv.api, 'GET', `/matches/${m.id}/view`, undefined, tokens[seat])).body;
      const action = v.menu.actions[rnd.int(v.menu.actions.length)];
      assert.equal((await call(srv.api, 'POST', `/matches/${m.id}/actions`, { action }, tokens[seat])).status, 200);
    }
    assert.equal((await call(srv.api, 'GET', `/matches/${m.id}`)).body.status, 'running');
    const lines = async (token?: string) => {
      const r = await fetch(
        `${srv.api}/matches/${m.id}/log`,
        token ? { headers: { authorization: `Bearer ${token}` } } : {},
      );
      assert.equal(r.status, 200);
      return (await r.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    };
    const audience = await lines();
    const rs = getPackage('bnc').ruleset;
    let differs = 0;
    for (let seat = 0; seat < 4; seat++) {
      const mine = await lines(tokens[seat]);
      assert.equal(mine.length, audience.length);
      assert.equal(mine[0].seed, undefined, 'no seed while the match runs');
      for (let i = 1; i < mine.length; i++) {
        const expected = audience[i].events.map((e: GameEvent) => rs.eventView!(e, seat)).filter((e: unknown) => e);
        assert.deepEqual(mine[i].events, expected, `entry ${i} as seat ${seat} perceives it`);
        if (mine[i].events.length !== audience[i].events.length) differs++;
      }
    }
    assert.ok(differs > 0, 'the audience saw events some seat did not: the check can tell them apart');
  });
});

describe('arbiter serve: the edge', () => {
  test('[SRV-API] rulesets, OpenAPI, 404 and 401', async () => {
    const list = await call(srv.api, 'GET', '/rulesets');
    assert.deepEqual(list.body.map((r: any) => r.id).sort(), ['bnc', 'duel', 'ground', 'mines', 'tictactoe']);
    const g = await call(srv.api, 'GET', '/rulesets/ground');
    assert.ok(g.body.configSchema && g.body.catalog.rules.length > 0 && g.body.gameType.seats);
    const api = await call(srv.api, 'GET', '/openapi.json');
    assert.equal(api.body.openapi, '3.1.0');
    assert.ok(api.body.paths['/api/matches/{id}/actions'].post.requestBody);
    // the rules page the web page shows is the package's own (what `arbiter rules` prints)
    const rules = await fetch(`${srv.api}/rulesets/ground/rules`);
    assert.equal(rules.status, 200);
    assert.match(rules.headers.get('content-type') ?? '', /text\/markdown/);
    assert.equal(await rules.text(), getPackage('ground').rulesPage());
    assert.equal((await call(srv.api, 'GET', '/rulesets/nope/rules')).status, 404);
    assert.equal((await call(srv.api, 'GET', '/matches/nope')).status, 404);
    assert.equal((await call(srv.api, 'GET', '/rulesets/nope')).status, 404);
    assert.equal((await call(srv.api, 'GET', '/nothing-here')).status, 404);
    const m = await create({ ruleset: 'tictactoe' });
    const bad = await call(
      srv.api,
      'POST',
      `/matches/${m.id}/actions`,
      { action: { type: 'mark', cell: 0 } },
      'forged-token',
    );
    assert.equal(bad.status, 401);
    ErrorBody.parse(bad.body);
    assert.equal(
      (await call(srv.api, 'POST', `/matches/${m.id}/actions`, { action: { type: 'mark', cell: 0 } })).status,
      401,
    );
  });

  test('[SRV-SCHEMA] action schemas are the declared ones, answered at once and the same for every caller', async () => {
    const r = await call(srv.api, 'GET', '/rulesets/mines/actions');
    assert.equal(r.status, 200);
    // the same schemas `arbiter schema mines` prints, read from the declaration (no random games)
    assert.deepEqual(r.body, JSON.parse(JSON.stringify(actionSchemas(getPackage('mines').ruleset))));
    assert.equal(r.body.derived_from, "the ruleset's declared schemas");
    assert.deepEqual((await call(srv.api, 'GET', '/rulesets/mines/actions')).body, r.body);
  });

  test('[SRV-REJECT] out of turn, illegal and malformed actions get the engine’s codes and change nothing', async () => {
    const m = await create({ ruleset: 'tictactoe', seed: 1 });
    const x = await join1(m.id, 'x');
    const o = await join1(m.id, 'o');
    const early = await call(
      srv.api,
      'POST',
      `/matches/${m.id}/actions`,
      { action: { type: 'mark', cell: 0 } },
      o.token,
    );
    assert.equal(early.status, 409);
    assert.equal(early.body.error.code, 'out_of_turn');
    const malformed = await call(srv.api, 'POST', `/matches/${m.id}/actions`, { action: { cell: 'x' } }, x.token);
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.code, 'bad_request');
    assert.equal(
      (await call(srv.api, 'POST', `/matches/${m.id}/actions`, { action: { type: 'mark', cell: 4 } }, x.token)).status,
      200,
    );
    const taken = await call(
      srv.api,
      'POST',
      `/matches/${m.id}/actions`,
      { action: { type: 'mark', cell: 4 } },
      o.token,
    );
    assert.equal(taken.status, 422);
    assert.equal(taken.body.error.code, 'illegal');
    const rec = (await call(srv.api, 'GET', `/matches/${m.id}`)).body;
    assert.equal(rec.seq, 1);
    assert.ok(!JSON.stringify([early.body, malformed.body, taken.body]).includes('    at '), 'no stack traces');
  });

  test('[SRV-IDEM] a retried POST with the same idempotency key applies once', async () => {
    const m = await create({ ruleset: 'tictactoe' });
    const x = await join1(m.id, 'x');
    await join1(m.id, 'o');
    const first = await call(
      srv.api,
      'POST',
      `/matches/${m.id}/actions`,
      { action: { type: 'mark', cell: 0 } },
      x.token,
      { 'idempotency-key': 'k-1' },
    );
    const again = await call(
      srv.api,
      'POST',
      `/matches/${m.id}/actions`,
      { action: { type: 'mark', cell: 0 } },
      x.token,
      { 'idempotency-key': 'k-1' },
    );
    assert.equal(first.body.seq, 1);
    assert.equal(again.status, 200);
    assert.equal(again.body.seq, 1);
    assert.equal(again.body.replayed, true);
    assert.equal((await call(srv.api, 'GET', `/matches/${m.id}`)).body.seq, 1);
  });

  test('[SRV-DEADLINE] a seat past its turn deadline gets the default action, logged as defaulted (timeout)', async () => {
    const m = await create({ ruleset: 'tictactoe', turnDeadlineMs: 150 });
    const x = await join1(m.id, 'x');
    await join1(m.id, 'o');
    const w = new Watcher(wsUrl(m.id, `token=${x.token}`));
    await w.wait((f) => f.type === 'state' && f.seq >= 1, 5000);
    w.close();
    const text = await (await fetch(`${srv.api}/matches/${m.id}/log`)).text();
    const first = JSON.parse(text.split('\n')[1]);
    assert.equal(first.result, 'defaulted');
    assert.equal(first.default.reason, 'timeout');
  });

  test('[SRV-PRIVATE] a private match needs its password to be watched', async () => {
    const m = await create({ ruleset: 'tictactoe', spectatePassword: 'open sesame' });
    assert.equal(m.private, true);
    assert.equal((await call(srv.api, 'GET', `/matches/${m.id}/view`)).status, 401);
    assert.equal((await call(srv.api, 'GET', `/matches/${m.id}/view?password=wrong`)).status, 401);
    assert.equal(
      (
        await call(srv.api, 'GET', `/matches/${m.id}/view`, undefined, undefined, {
          'x-spectate-password': 'open sesame',
        })
      ).status,
      200,
    );
    const w = new Watcher(wsUrl(m.id, 'password=nope'));
    const err = await w.wait((f) => f.type === 'error');
    assert.equal(err.code, 'bad_request');
    const ok = new Watcher(wsUrl(m.id, 'password=open%20sesame'));
    await ok.wait((f) => f.type === 'state');
    ok.close();
  });

  test('[SRV-WS] WebSocket: garbage gets an error frame and the socket stays open; acting by frame works', async () => {
    const m = await create({ ruleset: 'tictactoe' });
    const x = await join1(m.id, 'x');
    await join1(m.id, 'o');
    const w = new Watcher(wsUrl(m.id, `token=${x.token}`));
    await w.wait((f) => f.type === 'state');
    w.ws.send('this is not json');
    const e = await w.wait((f) => f.type === 'error');
    assert.equal(e.code, 'bad_request');
    w.ws.send(JSON.stringify({ type: 'act', id: 7, action: { cell: 99 } }));
    const refused = await w.wait((f) => f.type === 'error' && f.id === 7);
    assert.ok(['illegal', 'bad_request'].includes(refused.code));
    w.ws.send(JSON.stringify({ type: 'act', id: 8, action: { type: 'mark', cell: 2 } }));
    const ack = await w.wait((f) => f.type === 'ack' && f.id === 8);
    assert.equal(ack.seq, 1);
    await w.wait((f) => f.type === 'state' && f.seq === 1);
    assert.equal(w.closed, null);
    w.close();
  });

  test('[SRV-WS-SWITCH] one socket moves to the next match by a switch frame; a refused switch changes nothing', async () => {
    const a = await create({ ruleset: 'tictactoe' });
    const b = await create({ ruleset: 'tictactoe' });
    const xa = await join1(a.id, 'x');
    const oa = await join1(a.id, 'o');
    const xb = await join1(b.id, 'x');
    await join1(b.id, 'o');
    const w = new Watcher(wsUrl(a.id, `token=${xa.token}`));
    await w.wait((f) => f.type === 'state' && f.match === a.id);
    const send = (f: object) => w.ws.send(JSON.stringify(f));
    // refused switches: a token for another match, an unknown match, a malformed frame
    send({ type: 'switch', id: 1, match: b.id, token: xa.token });
    assert.equal((await w.wait((f) => f.type === 'error' && f.id === 1)).code, 'bad_request');
    send({ type: 'switch', id: 2, match: 'no-such-match', token: xb.token });
    assert.equal((await w.wait((f) => f.type === 'error' && f.id === 2)).code, 'not_found');
    send({ type: 'switch', id: 3, token: xb.token });
    assert.equal((await w.wait((f) => f.type === 'error' && f.id === 3)).code, 'bad_request');
    // still on match a as seat 0
    send({ type: 'act', id: 4, action: { type: 'mark', cell: 0 } });
    assert.equal((await w.wait((f) => f.type === 'ack' && f.id === 4)).seq, 1);
    await w.wait((f) => f.type === 'state' && f.match === a.id && f.seq === 1);
    // the switch and an action sent right behind it: the action is judged in match b
    send({ type: 'switch', id: 5, match: b.id, token: xb.token });
    send({ type: 'act', id: 6, action: { type: 'mark', cell: 8 } });
    const first = await w.wait((f) => f.type === 'state' && f.match === b.id);
    assert.equal(first.seat, 0);
    assert.equal(first.seq, 0);
    assert.equal((await w.wait((f) => f.type === 'ack' && f.id === 6)).seq, 1);
    assert.equal((await call(srv.api, 'GET', `/matches/${b.id}`)).body.seq, 1);
    assert.equal((await call(srv.api, 'GET', `/matches/${a.id}`)).body.seq, 1, 'match a did not get the action');
    // match a's changes no longer reach this socket; match b's do
    assert.equal(
      (await call(srv.api, 'POST', `/matches/${a.id}/actions`, { action: { type: 'mark', cell: 4 } }, oa.token)).status,
      200,
    );
    send({ type: 'ping', id: 7 });
    await w.wait((f) => f.type === 'pong' && f.id === 7);
    assert.ok(!w.frames.some((f) => f.type === 'state' && f.match === a.id && f.seq === 2), 'no frame from match a');
    // without a token the socket watches as a spectator
    send({ type: 'switch', id: 8, match: a.id });
    const watched = await w.wait((f) => f.type === 'state' && f.match === a.id && f.seq === 2);
    assert.equal(watched.seat, null);
    assert.equal(watched.menu, null);
    assert.equal(w.closed, null);
    w.close();
    // a switch sent on a connection whose own token was refused: the connection closes, the server lives
    const bad = new Watcher(wsUrl(a.id, 'token=not-a-token'));
    // sent at once on open, so it leaves before the refusal and the close frame are read
    bad.ws.once('open', () => bad.ws.send(JSON.stringify({ type: 'switch', id: 9, match: b.id })));
    await bad.open;
    assert.equal((await bad.wait((f) => f.type === 'error')).code, 'bad_request');
    for (let i = 0; i < 50 && bad.closed === null; i++) await new Promise((ok) => setTimeout(ok, 20));
    assert.equal(bad.closed?.code, 4401);
    await new Promise((ok) => setTimeout(ok, 100));
    assert.equal((await call(srv.api, 'GET', '/health')).status, 200, 'the server is alive');
  });

  test('[SRV-NUL] text holding U+0000 is refused at the edge (bodies and frames), typed, and changes nothing', async () => {
    const m = await create({ ruleset: 'tictactoe' });
    const nulName = await call(srv.api, 'POST', `/matches/${m.id}/join`, { name: 'a\u0000b' });
    assert.equal(nulName.status, 400);
    assert.equal(nulName.body.error.code, 'bad_request');
    assert.equal(nulName.body.error.detail.path, 'name');
    assert.deepEqual(
      (await call(srv.api, 'GET', `/matches/${m.id}`)).body.seats.map((s: any) => s.kind),
      ['open', 'open'],
      'the seat is still open',
    );
    const x = await join1(m.id, 'x');
    await join1(m.id, 'o');
    const key = await call(
      srv.api,
      'POST',
      `/matches/${m.id}/actions`,
      { action: { type: 'mark', cell: 0 }, idempotencyKey: 'k\u0000' },
      x.token,
    );
    assert.equal(key.status, 400);
    assert.equal(key.body.error.detail.path, 'idempotencyKey');
    const inKey = await call(
      srv.api,
      'POST',
      `/matches/${m.id}/actions`,
      { action: { type: 'mark', 'c\u0000': 1 } },
      x.token,
    );
    assert.equal(inKey.status, 400);
    assert.equal((await call(srv.api, 'GET', `/matches/${m.id}`)).body.seq, 0, 'nothing was played');
    const w = new Watcher(wsUrl(m.id, `token=${x.token}`));
    await w.wait((f) => f.type === 'state');
    w.ws.send(JSON.stringify({ type: 'act', id: 3, action: { type: 'mark', cell: 0 }, idempotencyKey: '\u0000' }));
    const e = await w.wait((f) => f.type === 'error' && f.id === 3);
    assert.equal(e.code, 'bad_request');
    assert.equal(w.closed, null);
    w.ws.send(JSON.stringify({ type: 'act', id: 4, action: { type: 'mark', cell: 0 } }));
    assert.equal((await w.wait((f) => f.type === 'ack' && f.id === 4)).seq, 1);
    w.close();
  });

  test('[SRV-WEB] the built page is served at / (files, deep links to index.html), never files outside it', async () => {
    const index = await fetch(srv.url + '/');
    assert.equal(index.status, 200);
    assert.match(await index.text(), /lobby/);
    assert.equal(await (await fetch(srv.url + '/assets/app.js')).text(), 'console.log(1)');
    assert.match(await (await fetch(srv.url + '/match/abc')).text(), /lobby/, 'a page route answers the app');
    assert.equal((await fetch(srv.url + '/assets/missing.js')).status, 404);
    assert.equal((await fetch(srv.url + '/api/nothing')).status, 404);
    for (const p of ['/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json']) {
      const r = await fetch(srv.url + p);
      assert.ok(!(await r.text()).includes('"dependencies"'), `${p} stays inside the web folder`);
    }
  });

  test('[SRV-LIMIT] bodies over 64 KiB are refused with a typed 413', async () => {
    const r = await call(srv.api, 'POST', '/matches', { ruleset: 'tictactoe', config: { pad: 'x'.repeat(70 * 1024) } });
    assert.equal(r.status, 413);
    assert.equal(r.body.error.code, 'too_large');
  });

  test('[SRV-FUZZ] random bodies, wrong types, huge numbers and prototype keys: typed 4xx, nothing changed, server alive', async () => {
    const m = await create({ ruleset: 'tictactoe', seed: 3 });
    const x = await join1(m.id, 'x');
    await join1(m.id, 'o');
    const before = (await call(srv.api, 'GET', '/matches?limit=500')).body.length;
    const weird = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom(
        '{"__proto__":{"a":1}}',
        '{"constructor":{"prototype":{}}}',
        '{"action":{"__proto__":{"cell":1}}}',
        '[',
        '1e999',
        '{"ruleset":"tictactoe","seed":1e400}',
        '',
      ),
      fc.record(
        {
          ruleset: fc.oneof(fc.string(), fc.integer(), fc.constant('tictactoe')),
          seed: fc.oneof(fc.double(), fc.bigInt().map(String), fc.integer()),
          config: fc.anything(),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          action: fc.oneof(
            fc.anything(),
            fc.record({ cell: fc.oneof(fc.double(), fc.integer({ min: -1e9, max: 1e9 }), fc.string()) }),
          ),
          idempotencyKey: fc.anything(),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        { name: fc.oneof(fc.string({ maxLength: 100 }), fc.integer()), seat: fc.anything() },
        { requiredKeys: [] },
      ),
    );
    const target = fc.constantFrom('/matches', `/matches/${m.id}/actions`, `/matches/${m.id}/join`);
    await fc.assert(
      fc.asyncProperty(target, weird, async (path, body) => {
        const text = typeof body === 'string' ? body : (JSON.stringify(body) ?? 'null');
        const r = await call(srv.api, 'POST', path, text, path.endsWith('/actions') ? x.token : undefined);
        if (r.status < 300) {
          // a valid create (or a legal move) is allowed to succeed: nothing else is
          assert.ok(
            path === '/matches' || (path.endsWith('/actions') && r.body.ok === true),
            `${path} ${text} → ${r.status}`,
          );
          return;
        }
        assert.ok(r.status >= 400 && r.status < 500, `${path} ${text} → ${r.status} ${JSON.stringify(r.body)}`);
        ErrorBody.parse(r.body);
        assert.ok(CODES.includes(r.body.error.code));
        assert.ok(!JSON.stringify(r.body).includes('    at '));
      }),
      { numRuns: 300, seed: 20261201 },
    );
    assert.equal((await call(srv.api, 'GET', '/health')).status, 200, 'alive');
    const rec = (await call(srv.api, 'GET', `/matches/${m.id}`)).body;
    assert.ok(rec.seq <= 1, 'at most the one legal move a fuzzed body may make');
    assert.ok((await call(srv.api, 'GET', '/matches?limit=500')).body.length >= before);
    assert.ok(
      ({} as Record<string, unknown>).a === undefined && ({} as Record<string, unknown>).cell === undefined,
      'no prototype was polluted in the test either',
    );
  });
});

describe('arbiter serve: the rate limit', () => {
  let limited: ServerProc;
  let dir: string;
  before(async () => {
    dir = tempDir('arbiter-rate-');
    limited = await startServer(join(dir, 'db.sqlite'), ['--rate-limit', '5']);
  });
  after(async () => {
    const code = await limited.stop();
    rmSync(dir, { recursive: true, force: true });
    assert.equal(code, 0);
  });

  test('[SRV-RATE] requests and WebSocket messages over the per-token budget are refused, typed, and change nothing', async () => {
    // three requests on the address's budget
    const m = (await call(limited.api, 'POST', '/matches', { ruleset: 'tictactoe' })).body;
    const x = (await call(limited.api, 'POST', `/matches/${m.id}/join`, { name: 'x' })).body;
    const o = (await call(limited.api, 'POST', `/matches/${m.id}/join`, { name: 'o' })).body;
    for (let i = 0; i < 5; i++)
      assert.equal((await call(limited.api, 'GET', `/matches/${m.id}/view`, undefined, x.token)).status, 200);
    const over = await call(
      limited.api,
      'POST',
      `/matches/${m.id}/actions`,
      { action: { type: 'mark', cell: 4 } },
      x.token,
    );
    assert.equal(over.status, 429);
    ErrorBody.parse(over.body);
    assert.equal(over.body.error.code, 'too_many_requests');
    assert.match(over.body.error.reason, /too many requests/);
    // another token has its own budget; the refused move was not made
    assert.equal((await call(limited.api, 'GET', `/matches/${m.id}/view`, undefined, o.token)).body.seq, 0);
    // the upgrade is o's second request; its messages have a budget of their own
    const w = new Watcher(`${limited.url.replace('http', 'ws')}/api/matches/${m.id}/ws?token=${o.token}`);
    await w.wait((f) => f.type === 'state');
    for (let id = 1; id <= 5; id++) w.ws.send(JSON.stringify({ type: 'ping', id }));
    await w.wait((f) => f.type === 'pong' && f.id === 5);
    w.ws.send(JSON.stringify({ type: 'act', id: 6, action: { type: 'mark', cell: 4 } }));
    const refused = await w.wait((f) => f.type === 'error' && f.id === 6);
    assert.equal(refused.code, 'too_many_requests');
    assert.match(refused.reason, /too many messages/);
    w.ws.send('not even JSON');
    await w.wait((f) => f.type === 'error' && /too many messages/.test(f.reason) && f.id === undefined);
    assert.equal(w.closed, null, 'the socket stays open');
    assert.equal((await call(limited.api, 'GET', `/matches/${m.id}`)).body.seq, 0, 'nothing was played');
    w.close();
    // a seat played over the agent protocol spends the same budget: o's is used up, so the agent
    // socket's first message is not read (its ping gets no pong) and is answered with why
    const agent = new Watcher(
      `${limited.url.replace('http', 'ws')}/api/matches/${m.id}/ws?token=${o.token}&protocol=arbiter-agent/1`,
    );
    await agent.wait((f) => f.type === 'match_start');
    agent.ws.send(JSON.stringify({ type: 'ping' }));
    const over2 = await agent.wait((f) => f.type === 'error');
    assert.equal(over2.code, 'too_many_requests');
    assert.match(over2.reason, /too many messages/);
    assert.ok(!agent.frames.some((f) => f.type === 'pong'), 'the ping was not read');
    assert.equal(agent.closed, null, 'the socket stays open');
    agent.close();
  });
});
