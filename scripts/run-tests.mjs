// Runs the test files under test/ with node's test runner (Node 20 does not expand globs), and ends
// with a plain "N passed, N failed" line that any CI log reader understands.
//
//   node scripts/run-tests.mjs [--fast] [--concurrency N] [PATTERN ...]
//
// --fast is the edit loop's tier (the kernel, the rulesets, scenarios and conformance); PATTERNs keep
// the files whose path contains one of them. Files run in parallel, each in its own process:
// --concurrency (default 2, or ARBITER_TEST_CONCURRENCY) fits the two-core machines this runs on;
// Node 20's own default is cores - 1, which is one file at a time there. The command line is built
// first (build/cli), so test files that start `arbiter` do not each find it stale and wait.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCliIfStale } from './cli-build.mjs';

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
let concurrency = Number(process.env.ARBITER_TEST_CONCURRENCY ?? 2);
/** @type {string[]} */
const only = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--fast') fast = true;
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

if (!(await buildCliIfStale({ quiet: false }))) process.exit(1);

const scratch = mkdtempSync(join(tmpdir(), 'arbiter-tests-'));
const tap = join(scratch, 'results.tap');
const times = join(scratch, 'times.txt');
const started = Date.now();
const r = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    `--test-reporter=${new URL('test-times.mjs', import.meta.url).href}`,
    `--test-reporter-destination=${times}`,
    ...chosen,
  ],
  { stdio: 'inherit' },
);
let summary = '';
try {
  const text = readFileSync(tap, 'utf8');
  const num = (/** @type {string} */ k) => Number((text.match(new RegExp(`^# ${k} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
  summary = `${num('pass')} passed, ${num('fail') + num('cancelled')} failed, ${num('skipped')} skipped`;
} catch {
  summary = '0 passed, 1 failed (no test report was written)';
}
try {
  // where the time goes: the slowest files (the sum of their tests; start-up not included)
  const slow = readFileSync(times, 'utf8').split('\n').filter(Boolean).slice(0, 12);
  if (slow.length > 1) console.log(`\nslowest test files:\n${slow.join('\n')}`);
} catch {
  // no times: the summary line below still says what happened
}
const secs = Math.round((Date.now() - started) / 1000);
console.log(`\ntests: ${summary} (${chosen.length} files, ${secs} s, concurrency ${concurrency})`);
process.exit(r.status ?? 1);
