// HEAVY (about 30 s of CPU, its six checks side by side: run it alone, under the shared lock when the machine is shared).
//
// [NEW-IN-COPY] The guide's promise, checked end to end: in a copy of this checkout, `arbiter new`
// plus the registration step the command prints leave every check `npm test` runs green for the new
// ruleset: tsc (sources and web), biome, knip, the conformance suite, the scenarios with coverage,
// and the dist build. The copy holds the files git knows of (committed or not, ignored ones left
// out) with node_modules linked to this checkout's; `@arbiter/engine` points at the copy's own
// package, as the workspace link does.
//
// To see it fail, set ARBITER_NEW_COPY_STEP=import-only: the test then follows a guide that says to
// add the import line alone (no entry in the list); biome refuses the unused import, and without it
// the last assertions would (the conformance suite and the scenarios never ran on the new id).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHECKS, runCaptured } from '../../scripts/static-checks.mjs';

const ROOT = process.cwd();
const ID = 'tile-race';

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  // without NODE_TEST_CONTEXT: a `node --test` started from inside a test file sees it, takes itself
  // for a nested run and runs no file at all (and exits 0)
  const { NODE_TEST_CONTEXT: _nested, ...outer } = process.env;
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...outer, NODE_OPTIONS: '', FORCE_COLOR: '0', NO_COLOR: '1', ...env },
  });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** A copy of the checkout: git's files (tracked and untracked, not ignored), node_modules linked. */
function copyCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-copy-'));
  const listed = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], ROOT);
  assert.equal(listed.status, 0, listed.out);
  for (const file of new Set(listed.out.split('\0').filter(Boolean))) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    try {
      copyFileSync(join(ROOT, file), join(dir, file));
    } catch (e) {
      // a tracked file deleted in the working tree is not part of what is being checked
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  // node_modules: every installed package linked, but @arbiter/engine is the copy's own package
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@arbiter'), { recursive: true });
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name === '@arbiter') continue;
    symlinkSync(realpathSync(join(ROOT, 'node_modules', name)), join(modules, name));
  }
  symlinkSync(join(dir, 'packages/engine'), join(modules, '@arbiter/engine'), 'dir');
  // biome and knip read .gitignore through git: the copy is a repository with its files staged
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
  ])
    assert.equal(run('git', args, dir).status, 0);
  return dir;
}

/** Does what the command's "register it" line says; `importOnly` follows a guide that forgets the list. */
function register(copy: string, printed: string, importOnly: boolean): void {
  const m = /register it: (import \{ (\w+) \} from '[^']+') and add it to (\w+) in (\S+)$/m.exec(printed);
  assert.ok(m, `arbiter new printed no registration step:\n${printed}`);
  const [, importLine, name, list, file] = m;
  const path = join(copy, file);
  const lines = readFileSync(path, 'utf8').split('\n');
  const lastImport = lines.reduce((last, l, i) => (l.startsWith('import ') ? i : last), -1);
  lines.splice(lastImport + 1, 0, `${importLine};`);
  if (!importOnly) {
    const open = lines.findIndex((l) => l.startsWith(`export const ${list}`));
    assert.ok(open >= 0, `${file} has no ${list}`);
    const close = lines.findIndex((l, i) => i > open && l.startsWith(']'));
    lines.splice(close, 0, `  ${name},`);
  }
  writeFileSync(path, lines.join('\n'));
}

test('[NEW-IN-COPY] HEAVY: arbiter new plus the printed registration step keeps every npm test check green', async (t) => {
  const copy = copyCheckout();
  t.after(() => rmSync(copy, { recursive: true, force: true }));
  const made = run(process.execPath, ['bin/arbiter.js', 'new', ID], copy, { ARBITER_FROM_SOURCE: '1' });
  assert.equal(made.status, 0, made.out);
  assert.match(
    made.out,
    new RegExp(`packages/engine/src/rulesets/${ID}/`),
    'inside a checkout it writes the engine folder',
  );
  register(copy, made.out, process.env.ARBITER_NEW_COPY_STEP === 'import-only');

  // npm test's static checks (the same list), and the conformance suite and the scenarios of the new ruleset (the shipped ones are the main suite's)
  // The test files run as npm test runs them: compiled once by the copy's own test bundler (its
  // sources, its paths) and started with plain Node, not each through tsx, which compiles every
  // module again in each process (the copy's paths are new, so tsx's cache never has them)
  const { bundleTests } = (await import(pathToFileURL(join(copy, 'scripts/test-bundle.mjs')).href)) as {
    bundleTests: (files: string[]) => Promise<{ bundles: string[] }>;
  };
  const [conformance, scenarios, dist] = (
    await bundleTests(['test/conformance.test.ts', 'test/scenarios.test.ts', 'test/library/dist.test.ts'])
  ).bundles;
  const tests = (files: string[]) => [process.execPath, ['--enable-source-maps', '--test', ...files]] as const;
  const newOnly = `--test-name-pattern=^(conformance|scenarios): ${ID}$`;
  const checks: [string, string, readonly string[]][] = [
    ...CHECKS.map((c): [string, string, readonly string[]] => [c.name, join(copy, c.cmd), c.args]),
    ['conformance, scenarios and coverage', ...tests([newOnly, conformance, scenarios])],
    ['the dist build', ...tests([dist])],
  ];
  const failed: string[] = [];
  const outputs: Record<string, string> = {};
  // side by side: the time is the longest check's; without NODE_TEST_CONTEXT, or a `node --test`
  // started from here takes itself for a nested run and runs nothing
  const { NODE_TEST_CONTEXT: _nested, ...outer } = process.env;
  const env = { ...outer, NODE_OPTIONS: '' };
  const results = await Promise.all(checks.map(([, cmd, args]) => runCaptured(cmd, args, { cwd: copy, env })));
  checks.forEach(([name], i) => {
    const r = results[i];
    outputs[name] = r.output;
    if (r.status !== 0) failed.push(`${name} (exit ${r.status}):\n${r.output.slice(-3000)}`);
  });
  assert.deepEqual(failed, [], failed.join('\n\n'));
  // the green runs covered the new ruleset: its conformance suite and its scenarios ran
  assert.match(outputs['conformance, scenarios and coverage'], new RegExp(`conformance: ${ID}`));
  assert.match(outputs['conformance, scenarios and coverage'], new RegExp(`${ID}-1-setup`));
});
