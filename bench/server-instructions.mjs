// Machine instructions per move of `arbiter serve` (the whole process, every thread), counted by
// valgrind (cachegrind, no cache model) under `node --predictable`, for a fixed piece of work: the
// same load as bench/server.ts's closed loop (a create and two joins over HTTP, two kept seat
// sockets that `switch` to each next match, random legal tic-tac-toe moves) but a fixed number of
// matches instead of a time window. The figure does not depend on the machine's load, so two trees
// can be compared on a shared machine where the CPU-second figures swing by tens of percent; but it
// is user-space work only: the kernel's side of each syscall (a third of a move's time) and cache
// misses are not in it, and a timer's work (the SQLite checkpointer: valgrind is ~50× slower, so
// it runs ~50× less often per move) is undercounted.
//
// Per move = (instructions at M matches − at 20 matches) / (their moves), so start-up and
// shutdown fall out.
//
//   node bench/server-instructions.mjs BEFORE_DIR AFTER_DIR [--matches 220] [--slots 10] [--runs 1]
//                      (`log:DIR`: that checkout's server without --quiet, writing a log line per
//                      request as it does by default)
//   node bench/server-instructions.mjs --client URL MATCHES SLOTS SEED [fresh]
//                      (the load, used by the above and by bench/server-work.mjs; `fresh`: a new
//                      connection per HTTP request instead of fetch()'s kept-alive ones)

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import WebSocket from 'ws';

const args = process.argv.slice(2);

if (args[0] === '--client') {
  const [base, m, k, seed, connections] = args.slice(1);
  console.log(JSON.stringify(await load(base, Number(m), Number(k), Number(seed), connections === 'fresh')));
} else {
  const usage =
    'usage: node bench/server-instructions.mjs BEFORE_DIR AFTER_DIR [--matches 220] [--slots 10] [--runs 1]';
  if (args.includes('--help')) {
    console.log(usage);
    process.exit(0);
  }
  /** @param {string} name @param {number} dflt */
  const opt = (name, dflt) => {
    const i = args.indexOf(name);
    return i < 0 ? dflt : Number(args.splice(i, 2)[1]);
  };
  const matches = opt('--matches', 220);
  const slots = opt('--slots', 10);
  const runs = opt('--runs', 1);
  const trees = args;
  const unknown = trees.find((t) => t.startsWith('--'));
  const bad = unknown
    ? `unknown option ${unknown}`
    : trees.length !== 2
      ? 'name two checkouts'
      : ![matches, slots, runs].every((n) => Number.isInteger(n) && n > 0) || matches <= 20
        ? '--matches (above 20), --slots and --runs are whole numbers above 0'
        : (trees
            .map((t) => join(t.replace(/^log:/, ''), 'bin/arbiter.js'))
            .filter((f) => !existsSync(f))
            .map((f) => `no ${f}: not a checkout of this repository`)[0] ?? null);
  if (bad) {
    console.error(`bench/server-instructions.mjs: ${bad}\n${usage}`);
    process.exit(2);
  }
  for (let r = 0; r < runs; r++) {
    /** @type {number[]} */
    const per = [];
    for (const tree of trees) {
      const small = await count(tree, 20, slots);
      const big = await count(tree, matches, slots);
      per.push((big.irefs - small.irefs) / (big.moves - small.moves));
      console.log(
        `${tree}: ${small.irefs} instructions at 20 matches (${small.moves} moves), ${big.irefs} at ${matches} (${big.moves} moves): ${(per[per.length - 1] / 1e6).toFixed(3)} M per move`,
      );
    }
    console.log(`run ${r + 1}: after/before instructions per move ${(per[1] / per[0]).toFixed(3)}`);
  }
}

/**
 * The server under cachegrind playing `m` matches of fixed work; its instruction count and the work.
 * @param {string} named @param {number} m @param {number} k
 * @returns {Promise<{ matches: number, moves: number, irefs: number }>}
 */
async function count(named, m, k) {
  // `log:TREE`: without --quiet (a log line per request, read from a pipe and dropped)
  const logged = named.startsWith('log:');
  const tree = logged ? named.slice(4) : named;
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-instr-'));
  const srv = spawn(
    'valgrind',
    [
      '--tool=cachegrind',
      '--cache-sim=no',
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      '--predictable',
      join(tree, 'bin/arbiter.js'),
      'serve',
      '--port',
      '0',
      '--db',
      join(dir, 'bench.sqlite'),
      ...(logged ? [] : ['--quiet']),
      '--rate-limit',
      '100000000',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  srv.stderr.on('data', (d) => (err += d));
  let out = '';
  try {
    const url = await new Promise((ok, fail) => {
      srv.stdout.on('data', (d) => {
        const found = /listening (http:\/\/\S+)/.exec(String(d));
        if (found) ok(found[1]);
      });
      srv.once('exit', () => fail(new Error(`the server ended before listening: ${err.slice(-500)}`)));
    });
    const client = spawn(process.execPath, [import.meta.filename, '--client', url, String(m), String(k), '7'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    client.stdout.on('data', (d) => (out += d));
    await new Promise((ok) => client.once('exit', ok));
  } finally {
    // the server and its folder go whether the run worked or not
    if (srv.exitCode === null && srv.signalCode === null) {
      srv.kill('SIGTERM');
      await new Promise((ok) => srv.once('exit', ok));
    }
    rmSync(dir, { recursive: true, force: true });
  }
  const refs = /I\s+refs:\s+([\d,]+)/.exec(err);
  if (!refs) throw new Error(`no instruction count from valgrind: ${err.slice(-500)}`);
  return { ...JSON.parse(out), irefs: Number(refs[1].replaceAll(',', '')) };
}

/**
 * `m` matches over `k` slots, each slot a pair of kept seat sockets; moves from a seeded generator.
 * @param {string} base @param {number} m @param {number} k @param {number} seed @param {boolean} fresh
 */
async function load(base, m, k, seed, fresh = false) {
  let s = seed >>> 0;
  /** @param {number} n */
  const rnd = (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
  /** @param {string} path @param {unknown} body @returns {Promise<any>} */
  const post = async (path, body) =>
    fresh
      ? postFresh(base + path, body)
      : (
          await fetch(base + path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).json();
  let started = 0;
  let moves = 0;
  const slot = async () => {
    /** @type {WebSocket[] | null} */
    let sockets = null;
    const waiters = new Map();
    const seen = [-1, -1];
    let id = 0;
    let current = '';
    /** @type {(() => void) | null} */
    let wake = null;
    while (started < m) {
      started++;
      const match = await post('/api/matches', { ruleset: 'tictactoe', seed: rnd(1e9) });
      const tokens = [];
      for (const name of ['x', 'o']) tokens.push((await post(`/api/matches/${match.id}/join`, { name })).token);
      current = match.id;
      seen[0] = seen[1] = -1;
      if (sockets === null) {
        sockets = tokens.map((t, seat) => {
          const w = new WebSocket(`${base.replace('http', 'ws')}/api/matches/${match.id}/ws?token=${t}`);
          w.on('message', (d) => {
            const f = JSON.parse(String(d));
            if (f.type === 'state') {
              if (f.match === current) seen[seat] = Math.max(seen[seat], f.seq);
              wake?.();
            } else if (waiters.has(f.id)) {
              waiters.get(f.id)(f);
              waiters.delete(f.id);
            } else if (f.type === 'error') throw new Error(`error frame ${JSON.stringify(f)}`);
          });
          return w;
        });
        await Promise.all(sockets.map((w) => new Promise((ok) => w.once('open', ok))));
      } else
        for (const [seat, w] of sockets.entries())
          w.send(JSON.stringify({ type: 'switch', match: match.id, token: tokens[seat] }));
      const seats = sockets;
      const free = [0, 1, 2, 3, 4, 5, 6, 7, 8];
      let seq = 0;
      for (let turn = 0; ; turn++) {
        const seat = turn % 2;
        // act once this seat's socket has seen the last move (and, first, the switch's state)
        while (seen[seat] < seq) await new Promise((ok) => (wake = () => ok(undefined)));
        const cell = free.splice(rnd(free.length), 1)[0];
        const f = await new Promise((ok) => {
          waiters.set(++id, ok);
          seats[seat].send(JSON.stringify({ type: 'act', id, action: { type: 'mark', cell } }));
        });
        if (f.type !== 'ack') throw new Error(`refused move ${JSON.stringify(f)}`);
        moves++;
        seq = f.seq;
        if (f.outcome !== null || free.length === 0) break;
      }
    }
    for (const w of sockets ?? []) w.close();
  };
  await Promise.all(Array.from({ length: k }, () => slot()));
  return { matches: m, moves };
}

/**
 * A POST on a connection of its own (no keep-alive), as a client without a connection pool sends it.
 * @param {string} url @param {unknown} body @returns {Promise<any>}
 */
function postFresh(url, body) {
  const text = JSON.stringify(body);
  return new Promise((ok, fail) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        let got = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (got += d));
        res.on('end', () => {
          try {
            ok(JSON.parse(got));
          } catch (err) {
            fail(
              new Error(`${url}: ${res.statusCode} answered what is not JSON: ${got.slice(0, 200)}`, { cause: err }),
            );
          }
        });
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(text);
  });
}
