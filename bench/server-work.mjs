// Server CPU per move for a fixed piece of work, read from /proc: `arbiter serve` (or the floor,
// bench/server-floor.ts) plays a warm-up, then a fixed number of tic-tac-toe matches with the load of
// bench/server-instructions.mjs (a create and two joins over HTTP, two kept seat sockets that
// `switch` to each next match, seeded random moves) from two load processes; the figure is the
// server process's CPU (every thread, user and system) between the end of the warm-up and the end of
// the work, divided by the moves. Unlike bench/server.ts's windows it measures the same work on every
// run, so trees (checkouts of this repository) alternated run by run can be compared on one machine;
// it is still CPU seconds, so a busy or slowed machine moves every figure alike.
//
//   node bench/server-work.mjs TREE [TREE ...] [--matches 3000] [--warm 1000] [--slots 100]
//                              [--rounds 3] [--http-connections kept|fresh] [--json] [--help]
//
// --json prints one JSON document at the end (every run, and each tree's median and range) instead
// of the lines.
//
// TREE is a checkout's folder; `floor:TREE` runs that checkout's floor server instead, and `log:TREE`
// its server without --quiet (a log line per request, as `arbiter serve` writes by default; this
// script reads the lines from a pipe and drops them).

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const USAGE =
  'usage: node bench/server-work.mjs TREE [TREE ...] [--matches 3000] [--warm 1000] [--slots 100] [--rounds 3] [--http-connections kept|fresh] [--json]';
const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}
/** @param {string} name */
const flag = (name) => {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
const json = flag('--json');
/** @param {string} name @param {string} dflt */
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : args.splice(i, 2)[1];
};
const matches = Number(opt('--matches', '3000'));
const warm = Number(opt('--warm', '1000'));
const slots = Number(opt('--slots', '100'));
const rounds = Number(opt('--rounds', '3'));
const connections = opt('--http-connections', 'kept');
const bad =
  args.length === 0
    ? 'name at least one TREE'
    : args.find((a) => a.startsWith('--'))
      ? `unknown option ${args.find((a) => a.startsWith('--'))}`
      : connections !== 'kept' && connections !== 'fresh'
        ? `--http-connections is kept or fresh, not ${connections}`
        : ![matches, warm, slots, rounds].every((n) => Number.isInteger(n) && n > 0)
          ? '--matches, --warm, --slots and --rounds are whole numbers above 0'
          : (args
              .map((t) =>
                t.startsWith('floor:')
                  ? join(t.slice(6), 'bench/server-floor.ts')
                  : join(t.replace(/^log:/, ''), 'bin/arbiter.js'),
              )
              .filter((f) => !existsSync(f))
              .map((f) => `no ${f}: not a checkout of this repository`)[0] ?? null);
if (bad) {
  console.error(`bench/server-work.mjs: ${bad}\n${USAGE}`);
  process.exit(2);
}
const LOAD = join(import.meta.dirname, 'server-instructions.mjs');

/**
 * Clock ticks (1/100 s) of user and system time of a process, or of one of its threads.
 * @param {number | undefined} pid @param {number} [tid]
 */
function ticks(pid, tid) {
  const s = readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return { user: Number(f[11]), sys: Number(f[12]) };
}

/** @param {string} url @param {number} m @param {number} seed */
async function client(url, m, seed) {
  const c = spawn(process.execPath, [LOAD, '--client', url, String(m), String(slots), String(seed), connections], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  c.stdout.on('data', (d) => (out += d));
  const code = await new Promise((ok) => c.once('exit', ok));
  if (code !== 0) throw new Error(`a load process ended with ${code}`);
  return JSON.parse(out);
}

/** @param {string} tree */
async function measure(tree) {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-work-'));
  const floor = tree.startsWith('floor:');
  const logged = tree.startsWith('log:');
  const root = floor ? tree.slice(6) : logged ? tree.slice(4) : tree;
  const argv = floor
    ? ['--import', 'tsx', join(root, 'bench/server-floor.ts')]
    : [
        join(root, 'bin/arbiter.js'),
        'serve',
        '--port',
        '0',
        '--db',
        join(dir, 'work.sqlite'),
        ...(logged ? [] : ['--quiet']),
        '--rate-limit',
        '100000000',
      ];
  const srv = spawn(process.execPath, argv, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise((ok, fail) => {
      srv.stdout.on('data', (d) => {
        const found = /listening (?:on )?(http:\/\/\S+)/.exec(String(d));
        if (found) ok(found[1]);
      });
      srv.once('exit', () => fail(new Error(`${tree}: the server ended before listening`)));
    });
    await Promise.all([client(url, Math.ceil(warm / 2), 3), client(url, Math.floor(warm / 2), 4)]);
    const before = ticks(srv.pid);
    const main0 = ticks(srv.pid, srv.pid);
    const done = await Promise.all([client(url, Math.ceil(matches / 2), 7), client(url, Math.floor(matches / 2), 9)]);
    const after = ticks(srv.pid);
    const main1 = ticks(srv.pid, srv.pid);
    const moves = done[0].moves + done[1].moves;
    /** @param {number} t */
    const perMove = (t) => ((t * 10_000) / moves).toFixed(1);
    const total = after.user + after.sys - before.user - before.sys;
    const main = main1.user + main1.sys - main0.user - main0.sys;
    return {
      tree,
      moves,
      usPerMove: perMove(total),
      user: perMove(after.user - before.user),
      sys: perMove(after.sys - before.sys),
      mainThread: (main / total).toFixed(2),
      threads: readdirSync(`/proc/${srv.pid}/task`).length,
    };
  } finally {
    if (srv.exitCode === null && srv.signalCode === null) {
      srv.kill('SIGTERM');
      await new Promise((ok) => srv.once('exit', ok));
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

const setting = `${matches} matches after ${warm} of warm-up, ${slots} seat-socket pairs per load process (two), HTTP ${connections === 'kept' ? 'on kept-alive connections' : 'on a fresh connection per request'}`;
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
if (!json) console.log(`server CPU per move: ${setting}; load average ${load}`);
/** The middle value (the mean of the two middle ones for an even count). @param {number[]} xs */
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = Math.floor(s.length / 2);
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};
/** @type {Map<string, number[]>} */
const all = new Map();
const runs = [];
for (let r = 0; r < rounds; r++)
  for (const tree of args) {
    const m = await measure(tree);
    runs.push({ round: r + 1, ...m });
    (all.get(tree) ?? all.set(tree, []).get(tree))?.push(Number(m.usPerMove));
    if (!json)
      console.log(
        `round ${r + 1} ${tree}: ${m.usPerMove} µs per move (user ${m.user}, system ${m.sys}; main thread ${m.mainThread}), ${m.moves} moves`,
      );
  }
const summary = [...all].map(([tree, xs]) => ({
  tree,
  median: median(xs),
  min: Math.min(...xs),
  max: Math.max(...xs),
}));
if (json) console.log(JSON.stringify({ setting, loadAverage: load, runs, summary }, null, 2));
else for (const t of summary) console.log(`${t.tree}: median ${t.median.toFixed(1)} µs per move (${t.min}–${t.max})`);
