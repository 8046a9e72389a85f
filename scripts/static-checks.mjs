// The checks `npm test` runs besides the tests: the type-checker on both projects, biome and knip.
// They run one after another in the background while the test files run (scripts/run-tests.mjs
// --checks), so their minute of CPU fills the gaps the waiting tests leave instead of adding a
// minute before the first test starts (issue 24). Each one's output is kept and shown only when
// it fails.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** @typedef {{ name: string; status: number | null; seconds: number; output: string }} CheckResult */

const bin = (/** @type {string} */ name) => join('node_modules', '.bin', name);

/** The checks, in the order `npm run typecheck` and `npm run lint` give them. */
export const CHECKS = [
  { name: 'tsc', cmd: bin('tsc'), args: ['--noEmit', '-p', '.'] },
  { name: 'tsc web', cmd: bin('tsc'), args: ['--noEmit', '-p', 'web'] },
  { name: 'biome', cmd: bin('biome'), args: ['ci', '--colors=off', '.'] },
  { name: 'knip', cmd: bin('knip'), args: [] },
];

/** @returns {Promise<CheckResult>} */
function runOne(/** @type {(typeof CHECKS)[number]} */ check) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(check.cmd, check.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const done = (/** @type {number | null} */ status, extra = '') =>
      resolve({ name: check.name, status, seconds: (Date.now() - t0) / 1000, output: output + extra });
    child.on('error', (e) => done(null, String(e)));
    child.on('close', (status) => done(status));
  });
}

/** Runs every check, one at a time; resolves with all their results. */
export async function runStaticChecks() {
  /** @type {CheckResult[]} */
  const results = [];
  for (const check of CHECKS) results.push(await runOne(check));
  return results;
}
