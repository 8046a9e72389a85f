// Issue 27, item 7: a bounded soak. Many tic-tac-toe matches at once on loopback, each seat playing
// through its own WebSocket, with two faults every 0.5 s (a seat's socket killed and reopened, a
// malformed frame on another); then every match's log is replayed and checked against every acknowledged
// action: nothing lost, nothing applied twice. CI runs a short default; ARBITER_SOAK_SECONDS=60
// (and ARBITER_SOAK_MATCHES) give the full run.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { canonicalJson } from '../../packages/engine/src/kernel/index.ts';
import { getPackage } from '../../packages/engine/src/registry.ts';
import { parseLog } from '../../src/runners/logfile.ts';
import { replayLog } from '../../src/runners/replay.ts';
import { call, serverForSuite } from './helpers.ts';

const SECONDS = Number(process.env.ARBITER_SOAK_SECONDS ?? 6);
const MATCHES = Number(process.env.ARBITER_SOAK_MATCHES ?? 200);

const srv = serverForSuite('arbiter-soak-', ['--rate-limit', '1000000']);

/** `owed`: malformed frames sent on this socket whose error answer has not come yet. */
type Seat = { token: string; ws: WebSocket | null; seat: number; owed: number; closeWhenAnswered: boolean };
type Game = { id: string; seats: Seat[]; acked: Map<number, string>; done: boolean };

test('[SRV-SOAK] concurrent matches under socket kills and malformed frames: every match verifies, no ack lost', async () => {
  const wsBase = srv.url.replace('http', 'ws');
  const games: Game[] = [];
  let stopping = false;
  let faults = 0;
  let errorsSeen = 0;

  const connect = (g: Game, s: Seat) => {
    const ws = new WebSocket(`${wsBase}/api/matches/${g.id}/ws?token=${s.token}`);
    s.ws = ws;
    ws.on('error', () => {});
    ws.on('message', (data) => {
      const f = JSON.parse(String(data));
      if (f.type === 'ack') {
        g.acked.set(f.seq, canonicalJson(f.events));
        return;
      }
      if (f.type === 'error') {
        errorsSeen++;
        s.owed = Math.max(0, s.owed - 1);
        if (s.owed === 0 && s.closeWhenAnswered) ws.close();
        return;
      }
      if (f.type !== 'state') return;
      if (f.status === 'finished') {
        if (!g.done) {
          g.done = true;
          // a socket still owed an error answer stays open until it comes (closing it first loses the answer)
          for (const x of g.seats) {
            if (x.owed > 0) x.closeWhenAnswered = true;
            else x.ws?.close();
          }
          if (!stopping) void open();
        }
        return;
      }
      if (f.menu && f.menu.actions.length > 0 && f.yours.length > 0) {
        const action = f.menu.actions[(f.seq * 7 + s.seat * 3) % f.menu.actions.length];
        // the key makes a move resent after a reconnect apply once
        ws.send(JSON.stringify({ type: 'act', id: f.seq, action, idempotencyKey: `${g.id}-${f.seq}-${s.seat}` }));
      }
    });
  };

  const open = async () => {
    const m = (await call(srv.api, 'POST', '/matches', { ruleset: 'tictactoe' })).body;
    const g: Game = { id: m.id, seats: [], acked: new Map(), done: false };
    games.push(g);
    for (let i = 0; i < 2; i++) {
      const j = (await call(srv.api, 'POST', `/matches/${m.id}/join`, { name: `p${i}`, seat: i })).body;
      g.seats.push({ token: j.token, ws: null, seat: i, owed: 0, closeWhenAnswered: false });
    }
    for (const s of g.seats) connect(g, s);
  };

  await Promise.all(Array.from({ length: MATCHES }, () => open()));
  const end = Date.now() + SECONDS * 1000;
  let n = 0;
  let kills = 0;
  let malformed = 0;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 500));
    const live = games.filter((g) => !g.done && g.seats.length === 2);
    if (live.length < 2) continue;
    // a killed socket: gone without a close handshake, reopened with the same token
    const g = live[(n * 31) % live.length];
    const s = g.seats[n % 2];
    s.ws?.terminate();
    // a malformed frame whose answer had not come yet died with the socket: not the server's to answer
    malformed -= s.owed;
    s.owed = 0;
    connect(g, s);
    kills++;
    // a malformed frame on another match's socket: answered with an error, the socket stays
    const h = live[(n * 31 + 1) % live.length].seats[(n + 1) % 2];
    if (h.ws?.readyState === WebSocket.OPEN) {
      h.ws.send('{"type":"act","action":');
      h.owed++;
      malformed++;
    }
    n++;
  }
  faults = kills + malformed;
  // no new matches; the ones being played finish
  stopping = true;
  for (let i = 0; i < 600 && games.some((g) => !g.done); i++) await new Promise((r) => setTimeout(r, 50));
  for (let i = 0; i < 200 && errorsSeen < malformed; i++) await new Promise((r) => setTimeout(r, 50));
  for (const g of games) for (const s of g.seats) s.ws?.close();

  assert.equal((await call(srv.api, 'GET', '/health')).status, 200);
  const rs = getPackage('tictactoe').ruleset;
  let acks = 0;
  let finished = 0;
  for (const g of games) {
    const text = await (await fetch(`${srv.api}/matches/${g.id}/log`)).text();
    const log = parseLog(text);
    assert.ok(log.footer, `${g.id} finished`);
    finished++;
    const rep = replayLog(rs, log);
    assert.ok(rep.ok, `${g.id}: ${JSON.stringify(rep.divergence)}`);
    const bySeq = new Map(log.entries.map((e) => [e.seq, canonicalJson(e.events)]));
    assert.deepEqual(
      log.entries.map((e) => e.seq),
      log.entries.map((_, i) => i + 1),
      `${g.id}: one history`,
    );
    for (const [seq, events] of g.acked) {
      acks++;
      assert.equal(bySeq.get(seq), events, `${g.id}: acknowledged seq ${seq} is in the log as acknowledged`);
    }
  }
  assert.ok(errorsSeen >= malformed, 'every malformed frame was answered');
  console.log(
    `soak: ${SECONDS} s, ${MATCHES} matches at once, ${games.length} played (${finished} finished), ${acks} acknowledged actions all in their logs, ${faults} faults (${kills} killed sockets, ${malformed} malformed frames)`,
  );
  assert.equal(finished, games.length);
});
