// `node --import tsx bench/server.ts`: arbiter serve against boardgame.io 0.50.2's own server, side
// by side in one run, on loopback. N concurrent tic-tac-toe matches are played for a fixed time
// (each finished match is replaced by a new one); every arbiter action is durable (committed before
// its answer), boardgame.io keeps its in-memory store. Reports acknowledged actions per wall second
// and per server CPU second, p50/p99 latency from sending an action to its answer, and the server's
// memory per idle open match. Median and range of --runs runs.
//
//   --matches 50,200   concurrent matches   --seconds 4   per measurement   --runs 3
//   --idle 1000        idle matches for the memory figure   --pg URL   also PostgreSQL (default: none)

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { SeededRandom } from '../src/kernel/index.ts';
import { bgioGame } from './peers/boardgameio.ts';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf('--' + name);
  return i >= 0 ? args[i + 1] : dflt;
};
const MATCHES = opt('matches', '50,200').split(',').map(Number);
const SECONDS = Number(opt('seconds', '4'));
const RUNS = Number(opt('runs', '3'));
const IDLE = Number(opt('idle', '1000'));
const PG = opt('pg', '');
// `--profile DIR`: the arbiter server runs under `node --cpu-prof` writing into DIR (for finding hot paths)
const PROFILE = opt('profile', '');

type Proc = { proc: ChildProcess; port: number; stop(): Promise<void> };

async function spawnServer(cmd: string[], re: RegExp): Promise<Proc> {
  const proc = spawn(process.execPath, cmd, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const port = await new Promise<number>((ok, fail) => {
    const t = setTimeout(() => fail(new Error('no start: ' + out)), 60_000);
    proc.stdout!.on('data', (b: Buffer) => {
      out += b;
      const m = re.exec(out);
      if (m) {
        clearTimeout(t);
        ok(Number(m[1]));
      }
    });
    proc.stderr!.on('data', (b: Buffer) => (out += b));
    proc.on('exit', (c) => fail(new Error(`exited ${c}: ${out}`)));
  });
  return {
    proc,
    port,
    stop: () =>
      new Promise((done) => {
        proc.once('exit', () => done());
        proc.kill('SIGTERM');
      }),
  };
}

/** utime + stime of a process in milliseconds (Linux /proc, 100 ticks per second). */
function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}
function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

type Sample = { actions: number; wallS: number; cpuS: number; lat: number[] };

async function post(base: string, path: string, body: unknown, token?: string): Promise<any> {
  const h: Record<string, string> = { 'content-type': 'application/json' };
  if (token) h.authorization = `Bearer ${token}`;
  const r = await fetch(base + path, { method: 'POST', headers: h, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(j)}`);
  return j;
}

/** One arbiter match slot: create, join both seats, play random free cells; repeat until `until`. */
async function arbiterSlot(
  base: string,
  mode: 'http' | 'ws',
  until: number,
  rnd: SeededRandom,
  s: Sample,
): Promise<void> {
  while (Date.now() < until) {
    const m = await post(base, '/api/matches', { ruleset: 'tictactoe', seed: rnd.int(1e9) });
    const t0 = (await post(base, `/api/matches/${m.id}/join`, { name: 'x' })).token as string;
    const t1 = (await post(base, `/api/matches/${m.id}/join`, { name: 'o' })).token as string;
    const tokens = [t0, t1];
    const free = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    let sockets: WebSocket[] = [];
    const waiting = new Map<number, (f: any) => void>();
    if (mode === 'ws') {
      const wsBase = base.replace('http', 'ws');
      sockets = tokens.map((t) => new WebSocket(`${wsBase}/api/matches/${m.id}/ws?token=${t}`));
      await Promise.all(sockets.map((w) => new Promise((ok, fail) => (w.once('open', ok), w.once('error', fail)))));
      for (const w of sockets)
        w.on('message', (d) => {
          const f = JSON.parse(String(d));
          if ((f.type === 'ack' || f.type === 'error') && waiting.has(f.id)) {
            waiting.get(f.id)!(f);
            waiting.delete(f.id);
          }
        });
    }
    let over = false;
    for (let turn = 0; !over && free.length > 0; turn++) {
      const cell = free.splice(rnd.int(free.length), 1)[0];
      const start = performance.now();
      let outcome: unknown;
      if (mode === 'http') {
        outcome = (
          await post(base, `/api/matches/${m.id}/actions`, { action: { type: 'mark', cell } }, tokens[turn % 2])
        ).outcome;
      } else {
        const id = turn + 1;
        const f = await new Promise<any>((ok) => {
          waiting.set(id, ok);
          sockets[turn % 2].send(JSON.stringify({ type: 'act', id, action: { type: 'mark', cell } }));
        });
        if (f.type !== 'ack') throw new Error(JSON.stringify(f));
        outcome = f.outcome;
      }
      s.lat.push(performance.now() - start);
      s.actions++;
      over = outcome !== null;
    }
    for (const w of sockets) w.close();
  }
}

type BgioClient = {
  start(): void;
  stop(): void;
  subscribe(fn: (state: any) => void): () => void;
  moves: { mark(cell: number): void };
  getState(): any;
};

function bgioModules() {
  process.env.NODE_ENV = 'production';
  const require = createRequire(import.meta.url);
  const { Client } = require('boardgame.io/client') as { Client: (o: unknown) => BgioClient };
  const { SocketIO } = require('boardgame.io/multiplayer') as { SocketIO: (o: unknown) => unknown };
  return { Client, SocketIO };
}

/** One boardgame.io match slot through its official client and socket.io transport. */
async function bgioSlot(port: number, until: number, rnd: SeededRandom, s: Sample, slot: number): Promise<void> {
  const { Client, SocketIO } = bgioModules();
  let n = 0;
  while (Date.now() < until) {
    const matchID = `m${slot}-${n++}-${rnd.int(1e9)}`;
    const clients = ['0', '1'].map((playerID) =>
      Client({
        game: bgioGame,
        numPlayers: 2,
        matchID,
        playerID,
        debug: false,
        multiplayer: SocketIO({ server: `http://127.0.0.1:${port}` }),
      }),
    );
    const states: any[] = [null, null];
    const waiters: (((st: any) => void) | null)[] = [null, null];
    clients.forEach((c, i) =>
      c.subscribe((st) => {
        if (!st) return;
        states[i] = st;
        const w = waiters[i];
        if (w) w(st);
      }),
    );
    for (const c of clients) c.start();
    const synced = (i: number, pred: (st: any) => boolean) =>
      new Promise<any>((ok) => {
        if (states[i] && pred(states[i])) return ok(states[i]);
        waiters[i] = (st) => {
          if (pred(st)) {
            waiters[i] = null;
            ok(st);
          }
        };
      });
    await Promise.all([
      synced(0, (st) => st.isConnected !== false && st._stateID >= 0),
      synced(1, (st) => st._stateID >= 0),
    ]);
    const free = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    for (;;) {
      const st = states[0];
      if (st.ctx.gameover || free.length === 0) break;
      const p = Number(st.ctx.currentPlayer);
      const cell = free.splice(rnd.int(free.length), 1)[0];
      const before = states[p]._stateID;
      const start = performance.now();
      // done when the turn has passed (boardgame.io sends the move, then the turn's end)
      const done = (x: any) =>
        x._stateID > before && (x.ctx.gameover !== undefined || x.ctx.currentPlayer !== String(p));
      const next = synced(p, done);
      clients[p].moves.mark(cell);
      await next;
      s.lat.push(performance.now() - start);
      s.actions++;
      // the other seat must see it too before it plays
      await synced(1 - p, done);
    }
    for (const c of clients) c.stop();
  }
}

async function measure(
  name: string,
  pid: number,
  concurrency: number,
  slot: (until: number, rnd: SeededRandom, s: Sample, i: number) => Promise<void>,
): Promise<Sample> {
  const s: Sample = { actions: 0, wallS: 0, cpuS: 0, lat: [] };
  // a short warm-up, not counted
  const warm: Sample = { actions: 0, wallS: 0, cpuS: 0, lat: [] };
  await Promise.all(
    Array.from({ length: Math.min(concurrency, 10) }, (_, i) =>
      slot(Date.now() + 500, new SeededRandom(1000 + i), warm, i),
    ),
  );
  const c0 = cpuMs(pid);
  const t0 = performance.now();
  const until = Date.now() + SECONDS * 1000;
  const all = Promise.all(
    Array.from({ length: concurrency }, (_, i) =>
      slot(until, new SeededRandom(i + 1), s, i).catch((err) => console.error(`${name}: ${String(err).slice(0, 200)}`)),
    ),
  );
  // a slot stuck on a lost message must not hang the run: count what was answered
  await Promise.race([all, new Promise((r) => setTimeout(r, SECONDS * 1000 + 20_000).unref())]);
  // a copy: slots still finishing their last match must not add to a closed measurement
  return {
    actions: s.actions,
    lat: s.lat.slice(),
    wallS: (performance.now() - t0) / 1000,
    cpuS: (cpuMs(pid) - c0) / 1000,
  };
}

async function idleMemory(base: string, pid: number): Promise<number> {
  await new Promise((r) => setTimeout(r, 500));
  const before = rssKb(pid);
  for (let i = 0; i < IDLE; i += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, IDLE - i) }, () => post(base, '/api/matches', { ruleset: 'tictactoe' })),
    );
  await new Promise((r) => setTimeout(r, 1000));
  return ((rssKb(pid) - before) * 1024) / IDLE;
}

type Row = { target: string; matches: number; runs: Sample[] };
const rows: Row[] = [];
const memory: Record<string, number[]> = {};

async function arbiterTarget(label: string, db: string, mode: 'http' | 'ws') {
  for (let run = 0; run < RUNS; run++) {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-bench-'));
    const srv = await spawnServer(
      [
        ...(PROFILE ? ['--cpu-prof', '--cpu-prof-dir', resolve(PROFILE)] : []),
        join(ROOT, 'bin/arbiter.js'),
        'serve',
        '--port',
        '0',
        '--db',
        db || join(dir, 'bench.sqlite'),
        '--quiet',
        '--rate-limit',
        '100000000',
      ],
      /listening http:\/\/127\.0\.0\.1:(\d+)/,
    );
    const base = `http://127.0.0.1:${srv.port}`;
    try {
      for (const n of MATCHES) {
        console.error(`  ${label}: run ${run + 1}, ${n} matches`);
        const s = await measure(label, srv.proc.pid!, n, (until, rnd, sm) => arbiterSlot(base, mode, until, rnd, sm));
        let row = rows.find((r) => r.target === label && r.matches === n);
        if (!row) rows.push((row = { target: label, matches: n, runs: [] }));
        row.runs.push(s);
      }
      if (mode === 'http') (memory[label] ??= []).push(await idleMemory(base, srv.proc.pid!));
    } finally {
      await srv.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

async function bgioTarget() {
  try {
    bgioModules();
  } catch {
    console.log('skipped: boardgame.io not installed (it is a devDependency)');
    return;
  }
  for (let run = 0; run < RUNS; run++) {
    const srv = await spawnServer(['--import', 'tsx', join(ROOT, 'bench/server-bgio.ts'), '0'], /listening (\d+)/);
    try {
      for (const n of MATCHES) {
        console.error(`  boardgame.io: run ${run + 1}, ${n} matches`);
        const s = await measure('boardgame.io', srv.proc.pid!, n, (until, rnd, sm, i) =>
          bgioSlot(srv.port, until, rnd, sm, i),
        );
        let row = rows.find((r) => r.target === 'boardgame.io memory socket.io' && r.matches === n);
        if (!row) rows.push((row = { target: 'boardgame.io memory socket.io', matches: n, runs: [] }));
        row.runs.push(s);
      }
    } finally {
      await srv.stop();
    }
  }
}

const med = (xs: number[]) => pct(xs, 50);
const fmt = (xs: number[], d = 0) =>
  `${med(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;

console.log(
  `server bench: tic-tac-toe, ${MATCHES.join('/')} concurrent matches, ${SECONDS} s each, ${RUNS} runs; clients in this process; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
const TARGETS = opt('targets', 'sqlite-http,sqlite-ws,pg-ws,bgio').split(',');
if (TARGETS.includes('sqlite-http')) await arbiterTarget('arbiter sqlite http', '', 'http');
if (TARGETS.includes('sqlite-ws')) await arbiterTarget('arbiter sqlite ws', '', 'ws');
if (PG && TARGETS.includes('pg-ws')) {
  await arbiterTarget('arbiter postgres ws', PG, 'ws');
}
if (TARGETS.includes('bgio')) await bgioTarget();

console.log('\n| server | matches | actions/s (wall) | actions per server CPU-s | p50 ms | p99 ms |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  const wall = r.runs.map((s) => s.actions / s.wallS);
  const cpu = r.runs.map((s) => s.actions / Math.max(0.01, s.cpuS));
  console.log(
    `| ${r.target} | ${r.matches} | ${fmt(wall)} | ${fmt(cpu)} | ${fmt(
      r.runs.map((s) => pct(s.lat, 50)),
      1,
    )} | ${fmt(
      r.runs.map((s) => pct(s.lat, 99)),
      1,
    )} |`,
  );
}
for (const [k, v] of Object.entries(memory))
  console.log(
    `memory per idle open match (${k}, RSS growth over ${IDLE} new matches): ${fmt(
      v.map((b) => b / 1024),
      1,
    )} KB`,
  );
const ratio = (a: string, b: string) => {
  for (const n of MATCHES) {
    const x = rows.find((r) => r.target === a && r.matches === n);
    const y = rows.find((r) => r.target === b && r.matches === n);
    if (x && y) {
      const ax = med(x.runs.map((s) => s.actions / Math.max(0.01, s.cpuS)));
      const by = med(y.runs.map((s) => s.actions / Math.max(0.01, s.cpuS)));
      console.log(`${a} / ${b} at ${n} matches, actions per server CPU-s: ${(ax / by).toFixed(2)}×`);
    }
  }
};
ratio('arbiter sqlite ws', 'boardgame.io memory socket.io');
ratio('arbiter sqlite http', 'boardgame.io memory socket.io');
console.log(
  `load average at the end ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (a shared 2-core machine: figures are noisy)`,
);
process.exit(0);
