// A server smoke test for another Node version (.ci/node24.sh): `arbiter serve` on a throw-away
// SQLite file (the native better-sqlite3 module), one tic-tac-toe match between two bots through
// the HTTP API to its end, its log read back, then SIGTERM and a clean exit.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'arbiter-serve-smoke-'));
const bin = new URL('../bin/arbiter.js', import.meta.url).pathname;
const proc = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', join(dir, 'smoke.sqlite'), '--quiet'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const exited = new Promise((done) => proc.on('exit', (code) => done(code)));
/** @param {string} why @returns {never} */
const fail = (why) => {
  proc.kill('SIGKILL');
  console.error(`serve smoke: ${why}`);
  process.exit(1);
};
const url = await new Promise((ok) => {
  let out = '';
  const timer = setTimeout(() => fail(`no "listening" line in 60 s: ${out}`), 60_000);
  proc.stdout.on('data', (b) => {
    out += b;
    const m = /listening (http:\/\/\S+)/.exec(out);
    if (m) {
      clearTimeout(timer);
      ok(m[1]);
    }
  });
});
/** @param {string} method @param {string} path @param {unknown} [body] */
const api = async (method, path, body) => {
  const r = await fetch(`${url}/api${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!r.ok) fail(`${method} ${path}: HTTP ${r.status} ${await r.text()}`);
  return r;
};
const health = await (await api('GET', '/health')).json();
if (health.store !== 'sqlite') fail(`store ${health.store}, expected sqlite`);
const match = await (
  await api('POST', '/matches', { ruleset: 'tictactoe', seed: 1, seats: [{ agent: 'random' }, { agent: 'random' }] })
).json();
let log = '';
for (let i = 0; i < 100 && !log.includes('"end":true'); i++) {
  await new Promise((r) => setTimeout(r, 100));
  log = await (await api('GET', `/matches/${match.id}/log`)).text();
}
if (!log.includes('"end":true')) fail(`match ${match.id} did not finish: ${log.slice(0, 300)}`);
proc.kill('SIGTERM');
const code = await exited;
rmSync(dir, { recursive: true, force: true });
if (code !== 0) fail(`exit code ${code} after SIGTERM`);
console.log(`serve smoke: node ${process.version}, sqlite, match ${match.id} played to its end, clean exit`);
