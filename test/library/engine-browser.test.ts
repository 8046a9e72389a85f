// [ENGINE-BROWSER] examples/engine-browser/ is a page that takes the engine by its package name,
// bundled (esbuild) from the engine's built dist/ as an installed copy would be, and plays one
// seeded game of every shipped ruleset with the match engine. In Debian's Chromium (playwright-core)
// opened from disk with the network cut off, its event hashes equal those of the same games played
// from the engine's sources in Node. The engine is built by tsdown into a scratch folder, so this
// file never races the dist test's build of packages/engine/dist.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildPage } from '../../examples/engine-browser/build.mjs';
import { playEvery, type GameSummary } from '../../examples/engine-browser/games.mjs';
import { BUILTIN_AGENTS } from '../../packages/engine/src/agents/builtin.ts';
import { runMatch } from '../../packages/engine/src/engine/run-match.ts';
import { PACKAGES, rulesetIds } from '../../packages/engine/src/registry.ts';
import { CHROMIUM, launchChromium } from '../support/chromium.ts';

const ROOT = process.cwd();
const EXAMPLE = join(ROOT, 'examples/engine-browser');
const ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'];
const SEED = 11;

/** The engine's dist/ files, built by tsdown from the current sources into a scratch folder. */
function buildEngine(into: string): void {
  const cli = join(ROOT, 'node_modules/tsdown/dist/run.mjs');
  const r = spawnSync(process.execPath, [cli, '--log-level', 'warn', '--out-dir', into], {
    cwd: join(ROOT, 'packages/engine'),
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
}

test('[ENGINE-BROWSER] the example page plays every ruleset from the engine dist in Chromium, same hashes as the sources', async (t) => {
  if (!existsSync(CHROMIUM)) {
    console.log('skipped: chromium not installed');
    t.skip('chromium not installed');
    return;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'arbiter-engine-browser-'));
  t.after(() => rmSync(scratch, { recursive: true, force: true }));
  const dist = join(scratch, 'dist');
  buildEngine(dist);

  const { code, inputs } = await buildPage({ dist });
  // every file of the bundle is the page's own or the built engine's: no source file slipped in
  const foreign = inputs.filter((f) => !f.startsWith('examples/engine-browser/') && !join(ROOT, f).startsWith(dist));
  assert.deepEqual(foreign, [], 'the bundle took files from outside the example and the engine dist');
  assert.ok(
    inputs.some((f) => join(ROOT, f) === join(dist, 'index.js')),
    'the page imports @arbiter/engine from its dist',
  );

  const site = join(scratch, 'site');
  mkdirSync(join(site, 'out'), { recursive: true });
  copyFileSync(join(EXAMPLE, 'index.html'), join(site, 'index.html'));
  writeFileSync(join(site, 'out/page.js'), code);

  const want = await playEvery({ PACKAGES, BUILTIN_AGENTS, runMatch }, SEED);
  assert.deepEqual(
    want.map((g) => g.id),
    rulesetIds(),
  );

  const browser = await launchChromium(ARGS);
  try {
    const context = await browser.newContext({ offline: true });
    const page = await context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    // an error while the bundle loads (before the page can report one itself) ends the wait too
    const crashed = new Promise<void>((resolve) => page.once('pageerror', () => resolve()));
    await page.goto(`${pathToFileURL(join(site, 'index.html')).href}?seed=${SEED}`);
    const ready = page.waitForFunction(() => 'engineGames' in globalThis || 'engineError' in globalThis, undefined, {
      timeout: 120_000,
    });
    ready.catch(() => {}); // after a crash nobody waits for it any more; a timeout still rejects the race
    await Promise.race([crashed, ready]);
    const got = await page.evaluate(() => {
      const g = globalThis as { engineGames?: unknown; engineError?: string };
      return { games: g.engineGames as GameSummary[] | undefined, error: g.engineError ?? null };
    });
    assert.deepEqual(errors, []);
    assert.equal(got.error, null);
    assert.deepEqual(requests, [], 'the page asked the network for something');
    assert.deepEqual(got.games, want, 'the browser and the sources played different games');
    for (const g of want) assert.notEqual(g.outcome, null, `${g.id} ended`);
    // the table shows each game, so a person opening the page sees the same figures
    const rows = await page.locator('#games tr').count();
    assert.equal(rows, want.length);
    assert.match(
      (await page.locator('#status').textContent()) ?? '',
      new RegExp(`${want.length} games played with seed ${SEED}`),
    );
  } finally {
    await browser.close();
  }
});
