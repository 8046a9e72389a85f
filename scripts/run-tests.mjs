// Runs the test files under test/ with node's test runner (Node 20 does not expand globs), and ends
// with a plain "N passed, N failed" line that any CI log reader understands.
//
//   node scripts/run-tests.mjs [--checks] [--fast] [--from-source] [--concurrency N] [PATTERN ...]
//
// --checks also runs the static checks (tsc on both projects, biome, knip; scripts/static-checks.mjs)
// in the background while the tests run, and fails when one of them fails: that is `npm test`.
// --fast is the edit loop's tier (the kernel, the rulesets, scenarios and conformance); PATTERNs keep
// the files whose path contains one of them. Files run in parallel, each in its own process:
// --concurrency (default 3, or ARBITER_TEST_CONCURRENCY): on the two-core machines this runs on, one more
// file than cores, since the browser and server files spend much of their time waiting;
// Node 20's own default is cores - 1, which is one file at a time there. The command line is built
// first (build/cli), so test files that start `arbiter` do not each find it stale and wait.
//
// Each file's cost (wall from its process's start, and CPU with its child processes; see
// scripts/test-cpu.mjs) is printed at the end, slowest first, and kept in test-output/test-times.json:
// the next run starts the files that took longest first, so a long file does not start last and
// leave the other worker idle while it finishes. A checkout with no run of its own yet (a fresh
// clone, CI) takes the costs committed in test/test-times.json (copied from a quiet run).
//
// The files run from one esbuild compile of them all (scripts/test-bundle.mjs, about 3 s) with plain
// Node, not through tsx file by file: that saves about a second of CPU per file. --from-source runs
// them through tsx instead, as `node --import tsx --test FILE` does.
//
// Each test process gets TMPDIR inside the run's scratch folder; at the end, whatever still runs
// there is stopped (and named in the output) and the folder goes (scripts/test-leftovers.mjs).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildCliIfStale } from './cli-build.mjs';
import { runStaticChecks } from './static-checks.mjs';
import { clearLeftovers } from './test-leftovers.mjs';
import { bundleTests } from './test-bundle.mjs';
import { startOrder } from './test-order.mjs';

/**
 * The run's tail: the files that ended last, with when each started and ended (s from the run's
 * start), so a long file that started late (the wall time's real bound) shows.
 * @param {Row[]} rows
 * @param {number} runStart epoch ms
 */
function printTail(rows, runStart) {
  const timed = rows.filter((r) => typeof r.startMs === 'number');
  if (timed.length === 0) return;
  const end = (/** @type {Row} */ r) => (r.startMs ?? 0) + r.wallMs - runStart;
  timed.sort((a, b) => end(b) - end(a));
  const s = (/** @type {number} */ ms) => (ms / 1000).toFixed(0).padStart(4);
  console.log('\nthe last files to end (s from the start of the run: started, ended):');
  for (const r of timed.slice(0, 6)) console.log(`${s((r.startMs ?? 0) - runStart)} ${s(end(r))}  ${r.file}`);
}

/** CPU seconds of this process's reaped children (the test run and the checks), from /proc; null elsewhere. */
function runCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) / 100; // cutime + cstime, USER_HZ 100
  } catch {
    return null;
  }
}

/** The fast tier: path prefixes under test/. */
const FAST = [
  'test/kernel/',
  'test/ground/',
  'test/mines/',
  'test/duel/',
  'test/bnc/',
  'test/scenarios.test.ts',
  'test/conformance.test.ts',
  'test/registry.test.ts',
  'test/layers.test.ts',
];

/** @type {string[]} */
const files = [];
/** @param {string} dir */
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.test.ts')) files.push(p);
  }
};
walk('test');

const args = process.argv.slice(2);
let fast = false;
let fromSource = false;
let withChecks = false;
let concurrency = Number(process.env.ARBITER_TEST_CONCURRENCY ?? 3);
/** @type {string[]} */
const only = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--fast') fast = true;
  else if (args[i] === '--from-source') fromSource = true;
  else if (args[i] === '--checks') withChecks = true;
  else if (args[i] === '--concurrency') concurrency = Number(args[++i]);
  else only.push(args[i]);
}
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error('run-tests: --concurrency takes a positive integer');
  process.exit(2);
}
const chosen = files
  .filter((f) => !fast || FAST.some((p) => f.split('\\').join('/').startsWith(p)))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)));

/** @typedef {{ wallMs: number; cpuMs: number; childCpuMs: number }} Cost */
/** @typedef {Cost & { file: string; startMs?: number }} Row */
const TIMES = join('test-output', 'test-times.json');
/** @type {Record<string, Cost>} the last known cost of each file (by path under the repository) */
let known = {};
// this checkout's last run, else the costs committed with the tests (a fresh clone, CI)
for (const file of [TIMES, join('test', 'test-times.json')]) {
  try {
    known = JSON.parse(readFileSync(file, 'utf8')).files ?? {};
    break;
  } catch {
    // not there (or unreadable): the next one, or the files start in path order
  }
}
// longest first, a waiting file never right after another (scripts/test-order.mjs)
chosen.splice(0, chosen.length, ...startOrder(chosen, known));

if (!(await buildCliIfStale({ quiet: false }))) process.exit(1);

/** What node --test runs: the bundles, or the sources through tsx. */
let runnable = chosen;
/** @type {string[]} */
let loader = ['--import', 'tsx'];
/** The bundles' folder, removed after the run. */
let bundleDir = '';
if (!fromSource) {
  try {
    const built = await bundleTests(chosen);
    runnable = built.bundles;
    bundleDir = built.dir;
    loader = ['--enable-source-maps'];
  } catch (e) {
    console.error(`run-tests: the test files did not compile: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'arbiter-tests-'));
const tap = join(scratch, 'results.tap');
const costs = join(scratch, 'costs');
mkdirSync(costs);
// the tests' own temporary folders, and whatever runs in them, go with the run (test-leftovers.mjs)
// (like /tmp: programs the tests start as another user, PostgreSQL under root, make folders there too)
const testTmp = join(scratch, 'tmp');
mkdirSync(testTmp);
chmodSync(scratch, 0o711);
chmodSync(testTmp, 0o1777);
const started = Date.now();
const checks = withChecks ? runStaticChecks() : Promise.resolve([]);
const testRun = spawn(
  process.execPath,
  [
    ...loader,
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    '--import',
    new URL('test-cpu.mjs', import.meta.url).href,
    ...runnable,
  ],
  {
    stdio: 'inherit',
    env: { ...process.env, ARBITER_TEST_COST_DIR: costs, ARBITER_TEST_SOURCE_ROOT: process.cwd(), TMPDIR: testTmp },
  },
);
/** @type {number | null} */
const testStatus = await new Promise((resolve) => {
  testRun.on('error', () => resolve(null));
  testRun.on('close', (code) => resolve(code));
});
let summary = '';
try {
  const text = readFileSync(tap, 'utf8');
  const num = (/** @type {string} */ k) => Number((text.match(new RegExp(`^# ${k} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
  summary = `${num('pass')} passed, ${num('fail') + num('cancelled')} failed, ${num('skipped')} skipped`;
} catch {
  summary = '0 passed, 1 failed (no test report was written)';
}
/** @type {Row[]} */
const rows = [];
for (const name of readdirSync(costs)) {
  try {
    const row = JSON.parse(readFileSync(join(costs, name), 'utf8'));
    rows.push({ ...row, file: relative(process.cwd(), row.file).split('\\').join('/') });
  } catch {
    // a file whose process was killed mid-write: no cost for it
  }
}
if (rows.length > 0) {
  // where the time goes: CPU (with child processes) is comparable between runs on a shared machine
  rows.sort((a, b) => b.cpuMs - a.cpuMs);
  const s = (/** @type {number} */ ms) => (ms / 1000).toFixed(1).padStart(6);
  console.log('\nslowest test files (CPU s, of it in child processes, wall s from process start):');
  for (const row of rows.slice(0, 12))
    console.log(`${s(row.cpuMs)} ${s(row.childCpuMs)} ${s(row.wallMs)}  ${row.file}`);
  const cpu = rows.reduce((t, r) => t + r.cpuMs, 0);
  console.log(`${s(cpu)} CPU s in all ${rows.length} files`);
  printTail(rows, started);
  for (const { file, wallMs, cpuMs, childCpuMs } of rows) known[file] = { wallMs, cpuMs, childCpuMs };
  // files that were removed or renamed keep no cost
  const present = new Set(files.map((f) => f.split('\\').join('/')));
  for (const file of Object.keys(known)) if (!present.has(file)) delete known[file];
  try {
    mkdirSync('test-output', { recursive: true });
    writeFileSync(TIMES, `${JSON.stringify({ files: known }, null, 1)}\n`);
    // the whole run's timeline (s from its start), to see which files overlapped when the machine
    // had a core to spare: the tail above shows only the end
    const timeline = rows
      .filter((r) => typeof r.startMs === 'number')
      .map((r) => ({
        file: r.file,
        start: ((r.startMs ?? 0) - started) / 1000,
        wall: r.wallMs / 1000,
        cpu: r.cpuMs / 1000,
      }))
      .sort((a, b) => a.start - b.start);
    writeFileSync(join('test-output', 'test-timeline.json'), `${JSON.stringify(timeline, null, 1)}\n`);
  } catch {
    // not writable: the next run starts the files in path order
  }
}
await clearLeftovers(testTmp);
rmSync(scratch, { recursive: true, force: true });
if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
const checked = await checks;
const failedChecks = checked.filter((c) => c.status !== 0);
for (const c of failedChecks) console.log(`\n${c.name} failed (exit ${c.status}):\n${c.output.trimEnd()}`);
if (checked.length > 0)
  console.log(
    `\nchecks: ${checked.map((c) => `${c.name} ${c.status === 0 ? 'ok' : 'FAILED'} (${Math.round(c.seconds)} s)`).join(', ')}`,
  );
const secs = Math.round((Date.now() - started) / 1000);
// the whole run's CPU: every test process and check, and what they waited for, against the wall time
const all = runCpuSeconds();
if (all !== null)
  console.log(
    `run CPU: ${all.toFixed(0)} s in ${secs} s wall, ${(all / Math.max(1, secs)).toFixed(2)} cores busy on average`,
  );
console.log(`\ntests: ${summary} (${chosen.length} files, ${secs} s, concurrency ${concurrency})`);
process.exit(testStatus === 0 && failedChecks.length === 0 ? 0 : 1);
