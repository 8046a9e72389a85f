// The checks `npm test` runs besides the tests: the type-checker on both projects, biome and knip.
// They run one after another in the background while the test files run (scripts/run-tests.mjs
// --checks), so their minute of CPU fills the gaps the waiting tests leave instead of adding a
// minute before the first test starts (issue 24). Each one's output is kept and shown only when
// it fails.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** @typedef {{ name: string; status: number | null; seconds: number; output: string }} CheckResult */

const bin = (/** @type {string} */ name) => join('node_modules', '.bin', name);
// TypeScript 7, the native compiler, checks both projects in a third of TypeScript 6's time. It is
// installed under the alias `typescript7` beside TypeScript 6, which stays for the tools that use
// its JavaScript API (tsdown's declaration bundler, openapi-typescript, the dist test's checker),
// so `.bin/tsc` may be either; this path is not.
const TSC = join('node_modules', 'typescript7', 'bin', 'tsc');

/** The checks, in the order `npm run typecheck` and `npm run lint` give them. */
export const CHECKS = [
  { name: 'tsc', cmd: TSC, args: ['--noEmit', '-p', '.'] },
  { name: 'tsc web', cmd: TSC, args: ['--noEmit', '-p', 'web'] },
  { name: 'biome', cmd: bin('biome'), args: ['ci', '--colors=off', '.'] },
  { name: 'knip', cmd: bin('knip'), args: [] },
];

/**
 * Runs a command with its output captured (never shown while it runs); resolves with its exit status
 * (null: it could not start) and its output. Also used by [NEW-IN-COPY] for the checks in its copy.
 * @param {string} cmd
 * @param {readonly string[]} args
 * @param {{ cwd?: string; env?: NodeJS.ProcessEnv }} [opts]
 * @returns {Promise<{ status: number | null; output: string }>}
 */
export function runCaptured(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, [...args], {
      cwd: opts.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...(opts.env ?? process.env), FORCE_COLOR: '0', NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', (e) => resolve({ status: null, output: `${output}${e}` }));
    child.on('close', (status) => resolve({ status, output }));
  });
}

/** @returns {Promise<CheckResult>} */
async function runOne(/** @type {(typeof CHECKS)[number]} */ check) {
  const t0 = Date.now();
  const r = await runCaptured(check.cmd, check.args);
  return { name: check.name, status: r.status, seconds: (Date.now() - t0) / 1000, output: r.output };
}

/** Runs every check, one at a time; resolves with all their results. */
export async function runStaticChecks() {
  /** @type {CheckResult[]} */
  const results = [];
  for (const check of CHECKS) results.push(await runOne(check));
  return results;
}
