// Every acknowledged action is durable: a load of concurrent matches, kill -9 of the server at a
// random moment, restart on the same store — every acknowledged action is there, every match
// resumes and its log verifies. For SQLite and PostgreSQL; then two servers on one PostgreSQL.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import WebSocket from 'ws';
import { SeededRandom } from '../../packages/engine/src/kernel/index.ts';
import { getPackage } from '../../packages/engine/src/registry.ts';
import { parseLog } from '../../src/runners/logfile.ts';
import { replayLog } from '../../src/runners/replay.ts';
import { call, pgBin, startPg, startServer, tempDir, Watcher, type PgCluster, type ServerProc } from './helpers.ts';

type Ack = { id: string; seq: number; seat: number; input: unknown };
type Game = { id: string; ruleset: string; tokens: Map<number, string> };

async function setUp(api: string, rnd: SeededRandom): Promise<Game[]> {
  const games: Game[] = [];
  for (let i = 0; i < 6; i++) {
    const ruleset = i % 2 === 0 ? 'tictactoe' : 'ground';
    const m = (await call(api, 'POST', '/matches', { ruleset, seed: rnd.int(1e9) })).body;
    const tokens = new Map<number, string>();
    for (let s = 0; s < (ruleset === 'ground' ? 4 : 2); s++) {
      const j = (await call(api, 'POST', `/matches/${m.id}/join`, { name: `p${s}` })).body;
      tokens.set(j.seat, j.token);
    }
    games.push({ id: m.id, ruleset, tokens });
  }
  return games;
}

/** Play every pending seat of `g` from its menu until it ends or the server goes away. */
async function play(apis: string[], g: Game, rnd: SeededRandom, acks: Ack[]): Promise<void> {
  let pend: { seat: number }[] = [];
  for (let step = 0; step < 2000; step++) {
    const api = apis[step % apis.length];
    const seat = pend.length ? pend[rnd.int(pend.length)].seat : 0;
    const token = g.tokens.get(seat)!;
    const v = await call(api, 'GET', `/matches/${g.id}/view`, undefined, token);
    if (v.body.status === 'finished') return;
    pend = v.body.pending;
    if (!v.body.menu?.actions?.length) continue;
    const input = v.body.menu.actions[rnd.int(v.body.menu.actions.length)];
    const r = await call(api, 'POST', `/matches/${g.id}/actions`, { action: input }, token);
    if (r.status === 200) acks.push({ id: g.id, seq: r.body.seq, seat, input });
  }
}

async function fullLog(api: string, id: string) {
  const text = await (await fetch(`${api}/matches/${id}/log`)).text();
  const log = parseLog(text);
  assert.ok(log.footer, `match ${id} finished with a final line`);
  const rep = replayLog(getPackage(log.header.ruleset).ruleset, log);
  assert.ok(rep.ok, `match ${id} verifies: ${JSON.stringify(rep.divergence)}`);
  return log;
}

function checkAcks(acks: Ack[], logs: Map<string, ReturnType<typeof parseLog>>) {
  const seen = new Set<string>();
  for (const a of acks) {
    const key = `${a.id}:${a.seq}`;
    assert.ok(!seen.has(key), `seq ${key} acknowledged twice`);
    seen.add(key);
    const e = logs.get(a.id)!.entries[a.seq - 1];
    assert.ok(e, `acknowledged ${key} is in the log`);
    assert.equal(e.seat, a.seat);
    assert.deepEqual(e.input, a.input);
  }
}

async function crashAndResume(db: string, seed: number) {
  const rnd = new SeededRandom(seed);
  let srv: ServerProc = await startServer(db, ['--rate-limit', '100000']);
  const games = await setUp(srv.api, rnd);
  const acks: Ack[] = [];
  const load = Promise.all(
    games.map((g) => play([srv.api], g, new SeededRandom(rnd.int(1e9)), acks).catch(() => undefined)),
  );
  // kill -9 at a random moment once the load is under way
  const target = 10 + rnd.int(40);
  while (acks.length < target) await new Promise((r) => setTimeout(r, 2));
  await srv.kill9();
  await load;
  const before = acks.length;
  srv = await startServer(db, ['--rate-limit', '100000']);
  try {
    assert.ok(!/do not replay/.test(srv.output()), srv.output());
    // every acknowledged action survived the crash
    for (const a of acks) {
      const rec = (await call(srv.api, 'GET', `/matches/${a.id}`)).body;
      assert.ok(rec.seq >= a.seq, `match ${a.id} has seq ${rec.seq} after the crash, ${a.seq} was acknowledged`);
    }
    // every match resumes and plays to the end
    await Promise.all(games.map((g) => play([srv.api], g, new SeededRandom(rnd.int(1e9)), acks)));
    const logs = new Map<string, ReturnType<typeof parseLog>>();
    for (const g of games) logs.set(g.id, await fullLog(srv.api, g.id));
    checkAcks(acks, logs);
    return { beforeCrash: before, total: acks.length };
  } finally {
    assert.equal(await srv.stop(), 0);
  }
}

describe('durability', () => {
  test('[SRV-CRASH-SQLITE] kill -9 under load loses no acknowledged action; every match resumes and verifies', async () => {
    const r = await crashAndResume(join(tempDir('arbiter-crash-'), 'db.sqlite'), 4242);
    assert.ok(r.beforeCrash >= 10 && r.total > r.beforeCrash);
  });
});

describe('PostgreSQL', () => {
  const bin = pgBin();
  if (!bin) {
    console.log('skipped: PostgreSQL not installed');
    return;
  }
  let pg: PgCluster;
  before(async () => {
    pg = await startPg();
  });
  after(() => pg?.stop());

  test('[SRV-CRASH-PG] kill -9 under load loses no acknowledged action; every match resumes and verifies', async () => {
    const r = await crashAndResume(pg.url, 777);
    assert.ok(r.beforeCrash >= 10 && r.total > r.beforeCrash);
  });

  test('[SRV-PG-NUL] an agent answering with a raw NUL byte: its defaults are stored and the match ends', async () => {
    const srv = await startServer(pg.url, ['--rate-limit', '100000', '--agent-deadline-ms', '1500']);
    try {
      const m = (
        await call(srv.api, 'POST', '/matches', { ruleset: 'tictactoe', seed: 4, seats: [{}, { agent: 'random' }] })
      ).body;
      const j = (await call(srv.api, 'POST', `/matches/${m.id}/join`, { name: 'nul' })).body;
      const ws = new WebSocket(
        `${srv.url.replace('http', 'ws')}/api/matches/${m.id}/ws?token=${j.token}&protocol=arbiter-agent/1`,
      );
      // not JSON (a raw control character): the record of the default holds what was sent, NUL and all
      ws.on('message', (d) => {
        const f = JSON.parse(String(d));
        if (f.type === 'decision_request') ws.send(`{"type":"decision","request":${f.request},"action":"\u0000"`);
      });
      // bounded: without the fix the seat's writes fail and its socket is never closed
      await new Promise((ok) => {
        ws.on('close', ok);
        setTimeout(ok, 15_000);
      });
      ws.terminate();
      let rec: any;
      for (let i = 0; i < 200; i++) {
        rec = (await call(srv.api, 'GET', `/matches/${m.id}`)).body;
        if (rec.status === 'finished') break;
        await new Promise((r) => setTimeout(r, 25));
      }
      assert.equal(rec.status, 'finished', 'the seat defaulted and the match went on');
      const parsed = parseLog(await (await fetch(`${srv.api}/matches/${m.id}/log`)).text());
      const mine = parsed.entries.filter((e) => e.seat === 0);
      assert.ok(mine.length > 0 && mine.every((e) => e.result === 'defaulted'));
      assert.match(String(mine[0].default?.raw), /\uFFFD/, 'the NUL was stored as U+FFFD');
      assert.ok(replayLog(getPackage('tictactoe').ruleset, parsed).ok);
    } finally {
      await srv.stop();
    }
  });

  test('[SRV-PG-TWO] two servers on one database: alternating and racing submissions, one history, no duplicates', async () => {
    const a = await startServer(pg.url, ['--rate-limit', '100000']);
    const b = await startServer(pg.url, ['--rate-limit', '100000']);
    try {
      // a watcher on B sees what is played through A
      const rnd = new SeededRandom(99);
      const ttt = (await call(a.api, 'POST', '/matches', { ruleset: 'tictactoe', seed: 1 })).body;
      const x = (await call(a.api, 'POST', `/matches/${ttt.id}/join`, { name: 'x' })).body;
      const o = (await call(b.api, 'POST', `/matches/${ttt.id}/join`, { name: 'o' })).body;
      const w = new Watcher(`${b.url.replace('http', 'ws')}/api/matches/${ttt.id}/ws?token=${o.token}`);
      await w.wait((f) => f.type === 'state');
      assert.equal(
        (await call(a.api, 'POST', `/matches/${ttt.id}/actions`, { action: { type: 'mark', cell: 4 } }, x.token))
          .status,
        200,
      );
      const pushed = await w.wait((f) => f.type === 'state' && f.seq === 1);
      assert.deepEqual(pushed.events, [{ type: 'marked', seat: 0, cell: 4 }]);
      assert.ok(pushed.menu.actions.length > 0, 'B knows it is o’s turn');
      w.close();
      // alternating submissions through both servers, GROUND seats racing each other
      const acks: Ack[] = [];
      const games: Game[] = [
        {
          id: ttt.id,
          ruleset: 'tictactoe',
          tokens: new Map([
            [0, x.token],
            [1, o.token],
          ]),
        },
      ];
      for (let i = 0; i < 2; i++) {
        const m = (
          await call(i % 2 ? a.api : b.api, 'POST', '/matches', {
            ruleset: i % 2 ? 'tictactoe' : 'ground',
            seed: 10 + i,
          })
        ).body;
        const tokens = new Map<number, string>();
        for (let s = 0; s < (i % 2 ? 2 : 4); s++) {
          const j = (await call(s % 2 ? a.api : b.api, 'POST', `/matches/${m.id}/join`, { name: `p${s}` })).body;
          tokens.set(j.seat, j.token);
        }
        games.push({ id: m.id, ruleset: m.ruleset, tokens });
      }
      // two clients per match, one per server, play at once
      await Promise.all(
        games.flatMap((g) => [
          play([a.api, b.api], g, new SeededRandom(rnd.int(1e9)), acks),
          play([b.api, a.api], g, new SeededRandom(rnd.int(1e9)), acks),
        ]),
      );
      const logs = new Map<string, ReturnType<typeof parseLog>>();
      for (const g of games) {
        logs.set(g.id, await fullLog(a.api, g.id));
        assert.equal(
          await (await fetch(`${a.api}/matches/${g.id}/log`)).text(),
          await (await fetch(`${b.api}/matches/${g.id}/log`)).text(),
          'both servers hand out the same history',
        );
      }
      checkAcks(acks, logs);
    } finally {
      assert.equal(await a.stop(), 0);
      assert.equal(await b.stop(), 0);
    }
  });
});
