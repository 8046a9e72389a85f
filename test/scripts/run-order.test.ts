// [TEST-RUN-ORDER] The runner starts the test files in the order it chose (longest first, from the
// recorded times), and each file's cost is still filed under its source path. `node --test` sorts the
// paths it is given, so before the bundles carried an order prefix the chosen order was lost: a fresh
// clone started the Chromium files (the longest) last, in path order, and they set the run's wall time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bundleTests } from '../../scripts/test-bundle.mjs';
import { startOrder } from '../../scripts/test-order.mjs';

const ROOT = process.cwd();

test('[TEST-RUN-ORDER] bundled test files start in the order given, each cost named by its source', async (t) => {
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'build', 'order-fixture-'));
  const costs = mkdtempSync(join(ROOT, 'build', 'order-costs-'));
  let bundleDir = '';
  t.after(() => {
    for (const d of [dir, costs, bundleDir]) if (d) rmSync(d, { recursive: true, force: true });
  });
  // not path order: the runner's choice must win over node --test's sort
  const names = ['zeta', 'alpha', 'mid'];
  const files = names.map((n) => {
    const path = join(dir, `${n}.test.ts`);
    writeFileSync(path, `import { test } from 'node:test';\ntest('${n}', () => { console.log('RAN ${n}'); });\n`);
    return relative(ROOT, path);
  });
  const built = await bundleTests(files);
  bundleDir = built.dir;
  const { NODE_TEST_CONTEXT: _nested, ...env } = process.env;
  const r = spawnSync(
    process.execPath,
    [
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--import',
      new URL('../../scripts/test-cpu.mjs', import.meta.url).href,
      ...built.bundles,
    ],
    { encoding: 'utf8', env: { ...env, ARBITER_TEST_COST_DIR: costs, ARBITER_TEST_SOURCE_ROOT: ROOT } },
  );
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const ran = [...r.stdout.matchAll(/^RAN (\w+)$/gm)].map((m) => m[1]);
  assert.deepEqual(ran, names);
  const filed = readdirSync(costs)
    .map((f) => JSON.parse(readFileSync(join(costs, f), 'utf8')).file as string)
    .map((f) => relative(ROOT, f))
    .sort();
  assert.deepEqual(filed, [...files].sort());
});

test('[TEST-RUN-INTERLEAVE] longest first, but a file that mostly waits never starts right after another while a busy one is left', () => {
  const known = {
    'test/a-wait.test.ts': { wallMs: 90_000, cpuMs: 20_000 },
    'test/b-wait.test.ts': { wallMs: 70_000, cpuMs: 10_000 },
    'test/c-busy.test.ts': { wallMs: 40_000, cpuMs: 30_000 },
    'test/d-wait.test.ts': { wallMs: 30_000, cpuMs: 5_000 },
    'test/e-wait.test.ts': { wallMs: 25_000, cpuMs: 5_000 },
    'test/f-busy.test.ts': { wallMs: 10_000, cpuMs: 9_000 },
    'test/g-busy.test.ts': { wallMs: 20_000, cpuMs: 19_000 },
  };
  const files = [...Object.keys(known), 'test/new.test.ts'].sort();
  assert.deepEqual(startOrder(files, known), [
    // no recorded cost: it may be long, so it starts first (as busy)
    'test/new.test.ts',
    'test/a-wait.test.ts',
    'test/c-busy.test.ts',
    'test/b-wait.test.ts',
    'test/g-busy.test.ts',
    'test/d-wait.test.ts',
    'test/f-busy.test.ts',
    // no busy file left: the waiting ones follow each other
    'test/e-wait.test.ts',
  ]);
  // with no waiting file it is plain longest first
  const busyOnly = { 'test/x.test.ts': { wallMs: 1, cpuMs: 1 }, 'test/y.test.ts': { wallMs: 2, cpuMs: 2 } };
  assert.deepEqual(startOrder(['test/x.test.ts', 'test/y.test.ts'], busyOnly), ['test/y.test.ts', 'test/x.test.ts']);
});
