// `node --import tsx bench/server.ts`: arbiter serve against boardgame.io 0.50.2's own server, side
// by side in one run, on loopback, playing random tic-tac-toe matches (a finished match is replaced by
// a new one). Every arbiter action is durable (committed before its answer); boardgame.io keeps its
// in-memory store. The load runs in a separate client process (bench/server-load.ts); the 2 cores
// are still shared by server and clients, so the server's own CPU time is read from /proc.
//
// Two kinds of load (see bench/server-load.ts):
// - closed loop, N matches each with one action always outstanding: the most actions per second,
//   per wall second and per server CPU second;
// - open loop, N matches each acting once every P ms on a fixed schedule: p50/p99 latency at that
//   offered rate, measured from the scheduled moment (no coordinated omission).
// It ends with the ratios against boardgame.io and the issue's targets, each marked met or not met.
// Median and range over --runs runs; each run starts a fresh server (a fresh SQLite file, or a fresh
// PostgreSQL schema).
//
//   --matches 50,200   closed-loop concurrent matches        --seconds 4   per measurement   --runs 3
//   --open 200         open-loop concurrent matches          --pace 500,250   ms between one match's actions
//   --idle 1000        idle matches for the memory figure
//   --targets sqlite-http,sqlite-ws,pg-http,pg-ws,pg-ground-http,pg-ground-ws,bgio,sqlite-ground-http,sqlite-ground-ws
//                      (and floor: bench/server-floor.ts, the same sockets and JSON with no framework,
//                      engine or store, for what the transport alone costs; not in the default list)
//   --pg auto          a throw-away PostgreSQL cluster when its binaries are installed (the default);
//                      --pg postgres://... an existing server (a schema per run, dropped after); --pg none
//   --profile DIR      run the arbiter server under node --cpu-prof, profiles into DIR
//   --bgio-transport websocket   boardgame.io's client straight over WebSocket (its fastest, the
//                      default); polling-first is socket.io's own default (long-polling, upgraded
//                      later), which made boardgame.io's rows half as fast and twice as noisy
//   --bgio-setup lobby seat boardgame.io's players through its Lobby API with credentials (the
//                      default: the same work as an arbiter match); direct connects both clients to
//                      a fresh match ID with no seats checked
//   --warmup 3         seconds of unmeasured play before each measurement (0.5 s with 10 matches
//                      until the fourth pass measured the servers' JIT warm-up as much as their work)
//   --clients 1        load client processes sharing the matches (the client side is one Node.js
//                      thread each; with several, their measured windows open together)
//   --interleave       alternate the targets run by run (sqlite-http, sqlite-ws, bgio only), and
//                      report each run's ratio against the boardgame.io run next to it
//   --http-connections kept   the HTTP requests (creates, joins, boardgame.io's lobby) reuse
//                      kept-alive connections (the default); fresh opens a connection per request,
//                      as a client without a connection pool does (the group-commit window of
//                      2026-12-07 was found with it: arbiter's batches had shrunk 8-fold)
//   --arbiter-tree DIR serve arbiter from another checkout of this repository (DIR/bin/arbiter.js)
//                      under the same load: to place this bench beside a figure an outside check
//                      measured on an older commit (the load and the peers stay this tree's)
//   --request-log      arbiter serve without --quiet: a log line per request (its default), read
//                      from a pipe and dropped; the bench otherwise passes --quiet
//   --sockets kept     one WebSocket per seat, moved to each next match (the default; arbiter: a
//                      switch frame; boardgame.io: updateMatchID and updateCredentials), as the HTTP
//                      rows keep their connections; per-match opens and closes a socket per seat per
//                      match, which cost boardgame.io 9-25% of its actions/s in the fourth pass

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { pgBin, startPg, type PgCluster } from '../test/server/helpers.ts';
import type { LoadJob, LoadResult } from './server-load.ts';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
/** A bad option: one line naming it and exit 2, before anything starts (no stack trace). */
function refuse(reason: string): never {
  console.error(`bench/server.ts: bad_request: ${reason} (the options are listed at the top of bench/server.ts)`);
  process.exit(2);
}
const opt = (name: string, dflt: string) => {
  const i = args.indexOf('--' + name);
  return i >= 0 ? args[i + 1] : dflt;
};
const list = (s: string) => (s ? s.split(',').map(Number) : []);
const MATCHES = list(opt('matches', '50,200'));
const OPEN = Number(opt('open', '200'));
const PACES = list(opt('pace', '500,250'));
const SECONDS = Number(opt('seconds', '4'));
const RUNS = Number(opt('runs', '3'));
const IDLE = Number(opt('idle', '1000'));
const PG = opt('pg', 'auto');
const PROFILE = opt('profile', '');
const BGIO_TRANSPORT = opt('bgio-transport', 'websocket');
if (BGIO_TRANSPORT !== 'websocket' && BGIO_TRANSPORT !== 'polling-first')
  refuse(`--bgio-transport is websocket or polling-first, not ${BGIO_TRANSPORT}`);
const bgioTransport: 'websocket' | 'polling-first' = BGIO_TRANSPORT;
const BGIO_SETUP = opt('bgio-setup', 'lobby');
if (BGIO_SETUP !== 'lobby' && BGIO_SETUP !== 'direct') refuse(`--bgio-setup is lobby or direct, not ${BGIO_SETUP}`);
const bgioSetup: 'lobby' | 'direct' = BGIO_SETUP;
const SOCKETS = opt('sockets', 'kept');
if (SOCKETS !== 'per-match' && SOCKETS !== 'kept') refuse(`--sockets is per-match or kept, not ${SOCKETS}`);
const sockets: 'per-match' | 'kept' = SOCKETS;
const HTTP_CONNECTIONS = opt('http-connections', 'kept');
if (HTTP_CONNECTIONS !== 'kept' && HTTP_CONNECTIONS !== 'fresh')
  refuse(`--http-connections is kept or fresh, not ${HTTP_CONNECTIONS}`);
const httpConnections: 'kept' | 'fresh' = HTTP_CONNECTIONS;
const REQUEST_LOG = args.includes('--request-log');
const ARBITER_TREE = resolve(opt('arbiter-tree', ROOT));
if (!existsSync(join(ARBITER_TREE, 'bin/arbiter.js')))
  refuse(`--arbiter-tree ${ARBITER_TREE}: no bin/arbiter.js there (not a checkout of this repository)`);
const WARMUP = Number(opt('warmup', '3'));
const CLIENTS = Number(opt('clients', '1'));
const ALL_RUNS = Array.from({ length: RUNS }, (_, i) => i);
const INTERLEAVE = args.includes('--interleave');
if (
  INTERLEAVE &&
  opt('targets', '')
    .split(',')
    .some((t) => !['sqlite-http', 'sqlite-ws', 'bgio', 'floor'].includes(t))
)
  refuse('--interleave plays sqlite-http, sqlite-ws, bgio and floor only: name them in --targets');
if (!(Number.isInteger(CLIENTS) && CLIENTS >= 1)) refuse(`--clients is a whole number >= 1, not ${opt('clients', '')}`);
if (!(WARMUP >= 0)) refuse(`--warmup is a number of seconds, not ${opt('warmup', '')}`);
const TARGETS = opt(
  'targets',
  'sqlite-http,sqlite-ws,pg-http,pg-ws,pg-ground-http,pg-ground-ws,bgio,sqlite-ground-http,sqlite-ground-ws',
).split(',');
const FLOOR = 'floor: bare node:http + ws, in memory';
const BGIO = `boardgame.io memory socket.io (${bgioTransport}, ${bgioSetup}${sockets === 'kept' ? '' : ', a socket per match'})`;

// the issue's targets
const RATIO_TARGET = 3;
const P99_TARGET_MS = 25;
const MEMORY_TARGET_KB = 50;

/** A started server; `found` is what its start-up line's pattern captured. */
type Proc = { proc: ChildProcess; port: number; found: string[]; stop(): Promise<void> };

// Every child this bench starts, and the PostgreSQL cluster: an interrupted run (Ctrl-C, a kill
// from a time limit) stops them all instead of leaving servers and a database running.
const children = new Set<ChildProcess>();
let cluster: PgCluster | null = null;
function track(proc: ChildProcess): ChildProcess {
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  return proc;
}
// 'exit' also runs after a crash (an uncaught error, or EPIPE when the output is piped to `head`);
// both steps are synchronous, as an exit handler needs
process.once('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  cluster?.stop();
  cluster = null;
});
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, () => {
    console.error(`bench server: ${sig}, children and the throw-away cluster stopped`);
    process.exit(130);
  });

async function spawnServer(cmd: string[], re: RegExp): Promise<Proc> {
  const proc = track(spawn(process.execPath, cmd, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  let found: string[] = [];
  const port = await new Promise<number>((ok, fail) => {
    const t = setTimeout(() => fail(new Error('no start: ' + out)), 60_000);
    proc.stdout!.on('data', (b: Buffer) => {
      // once started, what it prints (a log line per request with --request-log) is read and dropped
      if (found.length > 0) return;
      out += b;
      const m = re.exec(out);
      if (m) {
        clearTimeout(t);
        found = [...m];
        ok(Number(m[1]));
      }
    });
    proc.stderr!.on('data', (b: Buffer) => (out += b));
    proc.on('exit', (c) => fail(new Error(`exited ${c}: ${out}`)));
  });
  return {
    proc,
    port,
    found,
    stop: () =>
      new Promise((done) => {
        proc.once('exit', () => done());
        proc.kill('SIGTERM');
      }),
  };
}

/** utime + stime of a process in milliseconds (Linux /proc, 100 ticks per second). */
function cpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}
function statCpuMs(path: string): number {
  const f = readFileSync(path, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}
/**
 * The same for the process's main thread alone (its thread id is the process id): the rest of a
 * Node.js server's CPU is V8's helper threads (concurrent marking, compiling), libuv's pool and
 * worker threads (the SQLite checkpointer), none of which a CPU profile of the main thread shows.
 */
function mainThreadCpuMs(pid: number): number {
  try {
    return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
  } catch {
    return Number.NaN;
  }
}
function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const med = (xs: number[]) => pct(xs, 50);

type Sample = {
  actions: number;
  unanswered: number;
  wallS: number;
  cpuS: number;
  /** Of cpuS, the server's main thread. */
  mainCpuS: number;
  clientCpuS: number;
  /** CPU of this machine's PostgreSQL processes in the window (PostgreSQL targets), else NaN. */
  dbCpuS: number;
  lat: number[];
};

/** utime + stime of every local process named postgres, in milliseconds. */
function postgresCpuMs(): number {
  let ms = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.indexOf(') ');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const f = stat.slice(close + 2).split(' ');
      ms += (Number(f[11]) + Number(f[12])) * 10;
    } catch {
      // the process ended meanwhile
    }
  }
  return ms;
}

/** One load client process: one job at a time over stdin/stdout. */
class LoadProcess {
  private readonly proc: ChildProcess;
  private readonly lines: AsyncIterator<string>;

  constructor() {
    this.proc = track(
      spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/server-load.ts')], {
        cwd: ROOT,
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    );
    this.lines = createInterface({ input: this.proc.stdout! })[Symbol.asyncIterator]();
  }

  async next(): Promise<{ event: 'ready' | 'start' | 'stop' } | LoadResult> {
    const r = await this.lines.next();
    if (r.done) throw new Error('the load client exited');
    return JSON.parse(r.value);
  }

  send(line: string): void {
    this.proc.stdin!.write(line + '\n');
  }

  close(): void {
    this.proc.stdin!.end();
    this.proc.kill();
  }
}

/**
 * The load: `--clients` processes, each playing its share of the matches, so that one Node.js thread
 * on the client side is not what runs out first. With more than one, every process warms up, says
 * ready, and all open their measured windows together on one `go`.
 */
class LoadClient {
  private readonly procs = Array.from({ length: CLIENTS }, () => new LoadProcess());

  /** Run one job; the server's CPU time is read when the windows open and when the last one closes. */
  async run(job: LoadJob, serverPid: number, withDb = false): Promise<Sample> {
    const n = Math.min(this.procs.length, job.matches);
    const procs = this.procs.slice(0, n);
    procs.forEach((p, k) => {
      const share = Math.floor(job.matches / n) + (k < job.matches % n ? 1 : 0);
      p.send(JSON.stringify({ ...job, matches: share, offset: k * 100_000, sync: n > 1 }));
    });
    let c0 = 0;
    let m0 = 0;
    let d0 = Number.NaN;
    const open = () => {
      c0 = cpuMs(serverPid);
      m0 = mainThreadCpuMs(serverPid);
      if (withDb) d0 = postgresCpuMs();
    };
    if (n > 1) {
      await Promise.all(procs.map(async (p) => expect(await p.next(), 'ready')));
      open();
      for (const p of procs) p.send('go');
    }
    let stopped = 0;
    let c1 = 0;
    let m1 = 0;
    let d1 = Number.NaN;
    const results = await Promise.all(
      procs.map(async (p) => {
        for (;;) {
          const e = await p.next();
          if (e.event === 'start') {
            if (n === 1) open();
          } else if (e.event === 'stop') {
            if (++stopped === n) {
              c1 = cpuMs(serverPid);
              m1 = mainThreadCpuMs(serverPid);
              if (withDb) d1 = postgresCpuMs();
            }
          } else if (e.event === 'end') return e;
        }
      }),
    );
    for (const r of results) for (const err of r.errors) console.error(`    load error: ${err}`);
    const sum = (f: (r: LoadResult) => number) => results.reduce((a, r) => a + f(r), 0);
    return {
      actions: sum((r) => r.actions),
      unanswered: sum((r) => r.unanswered),
      wallS: results[0].wallS,
      cpuS: (c1 - c0) / 1000,
      mainCpuS: (m1 - m0) / 1000,
      clientCpuS: sum((r) => r.clientCpuS),
      dbCpuS: (d1 - d0) / 1000,
      lat: results.flatMap((r) => r.lat),
    };
  }

  close(): void {
    for (const p of this.procs) p.close();
  }
}

function expect(e: { event: string }, want: string): void {
  if (e.event !== want) throw new Error(`the load client said ${e.event}, not ${want}`);
}

/** A load client that died: the run counts as nothing answered rather than ending the bench. */
function lost(err: unknown): Sample {
  console.error(`    load client failed: ${String(err).slice(0, 200)}`);
  return {
    actions: 0,
    unanswered: NaN,
    wallS: SECONDS,
    cpuS: NaN,
    mainCpuS: NaN,
    clientCpuS: NaN,
    dbCpuS: NaN,
    lat: [],
  };
}

type Load = { label: string; matches: number; paceMs: number };
const LOADS: Load[] = [
  ...MATCHES.map((n) => ({ label: 'closed', matches: n, paceMs: 0 })),
  ...PACES.map((p) => ({
    label: `open, 1 action/${p} ms/match (${Math.round((OPEN * 1000) / p)}/s offered)`,
    matches: OPEN,
    paceMs: p,
  })),
];

type Row = { target: string; load: Load; runs: Sample[] };
const rows: Row[] = [];
const memory: Record<string, number[]> = {};

function addSample(target: string, load: Load, s: Sample) {
  let row = rows.find((r) => r.target === target && r.load === load);
  if (!row) rows.push((row = { target, load, runs: [] }));
  row.runs.push(s);
}

async function idleMemory(base: string, pid: number): Promise<number> {
  const post = async () => {
    const r = await fetch(base + '/api/matches', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ruleset: 'tictactoe' }),
    });
    if (!r.ok) throw new Error(`create: ${r.status}`);
    await r.arrayBuffer();
  };
  await new Promise((r) => setTimeout(r, 500));
  const before = rssKb(pid);
  for (let i = 0; i < IDLE; i += 50) await Promise.all(Array.from({ length: Math.min(50, IDLE - i) }, post));
  await new Promise((r) => setTimeout(r, 1000));
  return ((rssKb(pid) - before) * 1024) / IDLE;
}

/** A fresh PostgreSQL schema for one run: its URL, and a function that drops it. */
async function pgSchema(url: string, run: number): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `arbiter_bench_${process.pid}_${run}`;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`CREATE SCHEMA ${name}`);
  await c.end();
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${name}`);
  return {
    url: u.toString(),
    async drop() {
      const d = new pg.Client({ connectionString: url });
      await d.connect();
      await d.query(`DROP SCHEMA ${name} CASCADE`);
      await d.end();
    },
  };
}

async function arbiterTarget(
  label: string,
  store: 'sqlite' | { pgUrl: string },
  mode: 'http' | 'ws',
  game: 'tictactoe' | 'ground' = 'tictactoe',
  runs = ALL_RUNS,
) {
  for (const run of runs) {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-bench-'));
    const schema = store === 'sqlite' ? null : await pgSchema(store.pgUrl, run);
    const srv = await spawnServer(
      [
        ...(PROFILE ? ['--cpu-prof', '--cpu-prof-dir', resolve(PROFILE)] : []),
        join(ARBITER_TREE, 'bin/arbiter.js'),
        'serve',
        '--port',
        '0',
        '--db',
        schema ? schema.url : join(dir, 'bench.sqlite'),
        ...(REQUEST_LOG ? [] : ['--quiet']),
        '--rate-limit',
        '100000000',
      ],
      /listening http:\/\/127\.0\.0\.1:(\d+)/,
    );
    const base = `http://127.0.0.1:${srv.port}`;
    const client = new LoadClient();
    try {
      for (const load of LOADS) {
        console.error(`  ${label}: run ${run + 1}, ${load.label}, ${load.matches} matches`);
        const job: LoadJob = {
          kind: `arbiter-${mode}`,
          game,
          base,
          matches: load.matches,
          seconds: SECONDS,
          paceMs: load.paceMs,
          sockets,
          httpConnections,
          warmupS: WARMUP,
        };
        addSample(label, load, await client.run(job, srv.proc.pid!, store !== 'sqlite').catch(lost));
      }
      if (mode === 'http' && game === 'tictactoe' && IDLE > 0)
        (memory[label] ??= []).push(await idleMemory(base, srv.proc.pid!));
    } finally {
      client.close();
      await srv.stop();
      await schema?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** The floor (bench/server-floor.ts): the same sockets and JSON with nothing else, as the arbiter-ws job. */
async function floorTarget(runs = ALL_RUNS) {
  for (const run of runs) {
    const srv = await spawnServer(
      ['--import', 'tsx', join(ROOT, 'bench/server-floor.ts')],
      /listening http:\/\/127\.0\.0\.1:(\d+)/,
    );
    const client = new LoadClient();
    try {
      for (const load of LOADS) {
        console.error(`  floor: run ${run + 1}, ${load.label}, ${load.matches} matches`);
        const job: LoadJob = {
          kind: 'arbiter-ws',
          game: 'tictactoe',
          base: `http://127.0.0.1:${srv.port}`,
          matches: load.matches,
          seconds: SECONDS,
          paceMs: load.paceMs,
          sockets,
          httpConnections,
          warmupS: WARMUP,
        };
        addSample(FLOOR, load, await client.run(job, srv.proc.pid!).catch(lost));
      }
    } finally {
      client.close();
      await srv.stop();
    }
  }
}

async function bgioTarget(runs = ALL_RUNS) {
  try {
    createRequire(import.meta.url).resolve('boardgame.io/server');
  } catch {
    console.log('skipped: boardgame.io not installed (it is a devDependency)');
    return;
  }
  for (const run of runs) {
    const srv = await spawnServer(
      ['--import', 'tsx', join(ROOT, 'bench/server-bgio.ts'), '0'],
      /listening (\d+) (\d+)/,
    );
    const lobbyPort = srv.found[2];
    const client = new LoadClient();
    try {
      for (const load of LOADS) {
        console.error(`  boardgame.io: run ${run + 1}, ${load.label}, ${load.matches} matches`);
        const job: LoadJob = {
          kind: 'bgio',
          bgioTransport,
          bgioSetup,
          sockets,
          httpConnections,
          warmupS: WARMUP,
          base: `http://127.0.0.1:${srv.port}`,
          lobby: `http://127.0.0.1:${lobbyPort}`,
          matches: load.matches,
          seconds: SECONDS,
          paceMs: load.paceMs,
        };
        addSample(BGIO, load, await client.run(job, srv.proc.pid!).catch(lost));
      }
    } finally {
      client.close();
      await srv.stop();
    }
  }
}

const fmt = (xs: number[], d = 0) => {
  const ok = xs.filter((x) => Number.isFinite(x));
  if (ok.length === 0) return '–';
  const m = med(ok).toFixed(d);
  return ok.length === 1 ? m : `${m} (${Math.min(...ok).toFixed(d)}–${Math.max(...ok).toFixed(d)})`;
};

console.log(
  `server bench: tic-tac-toe (and 4-player GROUND on arbiter alone); closed loop at ${MATCHES.join('/')} matches, open loop at ${OPEN} matches paced ${PACES.join('/')} ms; ${SECONDS} s per measurement after ${WARMUP} s of warm-up, ${RUNS} runs; HTTP on ${httpConnections === 'kept' ? 'kept-alive connections' : 'a fresh connection per request'}; arbiter ${REQUEST_LOG ? 'writing a log line per request (no --quiet)' : 'with --quiet'}${ARBITER_TREE === ROOT ? '' : ` from ${ARBITER_TREE}`}; load clients in ${CLIENTS} separate process${CLIENTS > 1 ? 'es' : ''} (sharing the machine's ${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? '?'} cores with the server); load average ${loadavg()}`,
);
const argv = `node --import tsx bench/server.ts ${args.join(' ')}`.trim();
console.log(`command: ${argv}`);

let pgUrl: string | null = null;
const wantPg = TARGETS.some((t) => t.startsWith('pg-'));
if (wantPg && PG === 'none') console.log('PostgreSQL rows not asked for (--pg none)');
else if (wantPg && PG === 'auto') {
  if (pgBin()) {
    cluster = await startPg();
    pgUrl = cluster.url;
    console.log('PostgreSQL: a throw-away cluster on loopback (fsync on, synchronous_commit on)');
  } else console.log('skipped: PostgreSQL not installed');
} else if (wantPg) pgUrl = PG;

try {
  if (INTERLEAVE) {
    // one run of each tic-tac-toe SQLite target and of boardgame.io in turn, so that a burst of
    // other work on the machine falls on both sides instead of on all of one side's runs
    for (const run of ALL_RUNS) {
      if (TARGETS.includes('sqlite-http'))
        await arbiterTarget('arbiter sqlite http', 'sqlite', 'http', 'tictactoe', [run]);
      if (TARGETS.includes('sqlite-ws')) await arbiterTarget('arbiter sqlite ws', 'sqlite', 'ws', 'tictactoe', [run]);
      if (TARGETS.includes('bgio')) await bgioTarget([run]);
      if (TARGETS.includes('floor')) await floorTarget([run]);
    }
  } else {
    if (TARGETS.includes('sqlite-http')) await arbiterTarget('arbiter sqlite http', 'sqlite', 'http');
    if (TARGETS.includes('sqlite-ws')) await arbiterTarget('arbiter sqlite ws', 'sqlite', 'ws');
    if (pgUrl && TARGETS.includes('pg-http')) await arbiterTarget('arbiter postgres http', { pgUrl }, 'http');
    if (pgUrl && TARGETS.includes('pg-ws')) await arbiterTarget('arbiter postgres ws', { pgUrl }, 'ws');
    if (pgUrl && TARGETS.includes('pg-ground-http'))
      await arbiterTarget('arbiter postgres http, GROUND 4p', { pgUrl }, 'http', 'ground');
    if (pgUrl && TARGETS.includes('pg-ground-ws'))
      await arbiterTarget('arbiter postgres ws, GROUND 4p', { pgUrl }, 'ws', 'ground');
    // the cluster's background processes must not share the cores with the rows after it
    cluster?.stop();
    cluster = null;
    if (TARGETS.includes('bgio')) await bgioTarget();
    if (TARGETS.includes('floor')) await floorTarget();
    if (TARGETS.includes('sqlite-ground-http'))
      await arbiterTarget('arbiter sqlite http, GROUND 4p', 'sqlite', 'http', 'ground');
    if (TARGETS.includes('sqlite-ground-ws'))
      await arbiterTarget('arbiter sqlite ws, GROUND 4p', 'sqlite', 'ws', 'ground');
  }
} finally {
  cluster?.stop();
  cluster = null;
}

const wall = (s: Sample) => s.actions / s.wallS;
const perCpu = (s: Sample) => s.actions / Math.max(0.01, s.cpuS);
console.log(
  '\n| server | load | matches | actions/s (wall) | actions per server CPU-s | of it on the main thread | load-client CPU ms/action | database CPU ms/action | p50 ms | p99 ms | unanswered |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.target} | ${r.load.label} | ${r.load.matches} | ${fmt(r.runs.map(wall))} | ${fmt(r.runs.map(perCpu))} | ${fmt(r.runs.map((s) => (100 * s.mainCpuS) / s.cpuS))}% | ${fmt(
      r.runs.map((s) => (1000 * s.clientCpuS) / Math.max(1, s.actions)),
      2,
    )} | ${fmt(
      r.runs.map((s) => (1000 * s.dbCpuS) / Math.max(1, s.actions)),
      2,
    )} | ${fmt(
      r.runs.map((s) => pct(s.lat, 50)),
      1,
    )} | ${fmt(
      r.runs.map((s) => pct(s.lat, 99)),
      1,
    )} | ${fmt(r.runs.map((s) => s.unanswered))} |`,
  );
}
for (const [k, v] of Object.entries(memory))
  console.log(
    `memory per idle open match (${k}, RSS growth over ${IDLE} new matches): ${fmt(
      v.map((b) => b / 1024),
      1,
    )} KB`,
  );

const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
const row = (target: string, load: Load) => rows.find((r) => r.target === target && r.load === load);
const arbiterTargets = [...new Set(rows.map((r) => r.target))].filter((t) => t !== BGIO);
console.log(`\ntargets (issue 13, item 8 of issue 27), medians of ${RUNS} run(s):`);
for (const load of LOADS.filter((l) => l.paceMs === 0)) {
  const b = row(BGIO, load);
  if (!b) continue;
  const bw = med(b.runs.map(wall));
  const bc = med(b.runs.map(perCpu));
  // boardgame.io plays tic-tac-toe only: the GROUND rows have no ratio
  for (const t of arbiterTargets.filter((x) => !x.includes('GROUND'))) {
    const a = row(t, load);
    if (!a) continue;
    const rw = med(a.runs.map(wall)) / bw;
    const rc = med(a.runs.map(perCpu)) / bc;
    console.log(
      `- ≥ ${RATIO_TARGET}× boardgame.io, closed loop ${load.matches} matches, ${t}: ${rw.toFixed(2)}× per wall second (${verdict(rw >= RATIO_TARGET)}), ${rc.toFixed(2)}× per server CPU second (${verdict(rc >= RATIO_TARGET)})`,
    );
    if (INTERLEAVE && a.runs.length === b.runs.length) {
      // run i of each side ran back to back: the ratio of each pair, its median and range
      const pairs = (f: (x: Sample) => number) =>
        fmt(
          a.runs.map((x, i) => f(x) / f(b.runs[i])),
          2,
        );
      console.log(`  paired runs: ${pairs(wall)}× per wall second, ${pairs(perCpu)}× per server CPU second`);
    }
  }
}
for (const load of LOADS.filter((l) => l.paceMs > 0)) {
  const b = row(BGIO, load);
  const bp99 = b ? ` (boardgame.io at the same load: p99 ${med(b.runs.map((s) => pct(s.lat, 99))).toFixed(1)} ms)` : '';
  for (const t of arbiterTargets) {
    const a = row(t, load);
    if (!a) continue;
    const p99 = med(a.runs.map((s) => pct(s.lat, 99)));
    const lost = a.runs.reduce((n, s) => n + s.unanswered, 0);
    console.log(
      `- p99 < ${P99_TARGET_MS} ms with ${load.matches} matches, ${load.label}, ${t}: ${p99.toFixed(1)} ms (${verdict(p99 < P99_TARGET_MS && lost === 0)})${bp99}`,
    );
  }
}
for (const [k, v] of Object.entries(memory)) {
  const kb = med(v) / 1024;
  console.log(
    `- ≤ ${MEMORY_TARGET_KB} KB per idle open match, ${k}: ${kb.toFixed(1)} KB (${verdict(kb <= MEMORY_TARGET_KB)})`,
  );
}
console.log(
  `load average at the end ${loadavg()} (a shared 2-core machine: figures taken while others work are noisy)`,
);
process.exit(0);
