// What the board browser tests share: the built page (built once per source change, under a lock,
// since node's test runner runs files in parallel), a real `arbiter serve` over it, one Chromium,
// matches made through the public API, and screenshots into test-output/.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page } from 'playwright-core';
import { call, startServer, tempDir, type ServerProc } from '../server/helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
export const OUT = join(ROOT, 'test-output');
const BUILD = join(OUT, 'web-build');
const CHROMIUM = '/usr/bin/chromium';

/** The one line a test prints when it cannot run here; null when it can. */
export function browserMissing(): string | null {
  return existsSync(CHROMIUM) ? null : 'skipped: chromium not installed';
}

function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = s.mtimeMs;
  for (const name of readdirSync(path))
    if (name !== 'node_modules' && name !== 'dist') t = Math.max(t, newest(join(path, name)));
  return t;
}

/** The page built from the current sources into test-output/web-build (rebuilt only when stale). */
export async function builtPage(): Promise<string> {
  mkdirSync(OUT, { recursive: true });
  const stamp = join(BUILD, 'index.html');
  const sources = ['web/src', 'web/index.html', 'web/vite.config.ts', 'src/kernel', 'src/rulesets'].map((p) =>
    join(ROOT, p),
  );
  const stale = () => !existsSync(stamp) || sources.some((p) => existsSync(p) && newest(p) > statSync(stamp).mtimeMs);
  const lock = join(OUT, '.web-build.lock');
  for (let waited = 0; stale(); waited += 200) {
    try {
      mkdirSync(lock);
    } catch {
      // another test file is building: wait for it (a lock older than 3 minutes is a dead build)
      if (waited > 180_000) rmSync(lock, { recursive: true, force: true });
      await sleep(200);
      continue;
    }
    try {
      if (stale()) {
        const r = spawnSync(
          process.execPath,
          [
            join(ROOT, 'node_modules/vite/bin/vite.js'),
            'build',
            join(ROOT, 'web'),
            '--outDir',
            BUILD,
            '--emptyOutDir',
            '--logLevel',
            'error',
          ],
          { cwd: ROOT, encoding: 'utf8' },
        );
        if (r.status !== 0) throw new Error(`the web page did not build:\n${r.stdout}\n${r.stderr}`);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return BUILD;
}

export type Site = { server: ServerProc; browser: Browser; close(): Promise<void> };

/** A fresh `arbiter serve` (temporary SQLite file) over the built page, and one headless Chromium. */
export async function openSite(): Promise<Site> {
  const web = await builtPage();
  const dir = tempDir('arbiter-boards-');
  const server = await startServer(join(dir, 'a.sqlite'), ['--web', web]);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A match made through the API, with seat `seat` joined (its token) — seats: `{}` open, `{agent}` built in. */
export async function newMatch(
  site: Site,
  body: { ruleset: string; config?: unknown; seed?: number; seats: unknown[]; agentDelayMs?: number },
  join?: number,
): Promise<{ id: string; token: string | null }> {
  const m = await call(site.server.api, 'POST', '/matches', body);
  if (m.status !== 201) throw new Error(`match not created: ${JSON.stringify(m.body)}`);
  const id: string = m.body.id;
  if (join === undefined) return { id, token: null };
  const j = await call(site.server.api, 'POST', `/matches/${id}/join`, { name: `p${join}`, seat: join });
  if (j.status !== 201) throw new Error(`not joined: ${JSON.stringify(j.body)}`);
  return { id, token: j.body.token };
}

/** The match page for a seat (token) or a spectator (no token). */
export async function openMatch(
  site: Site,
  id: string,
  token: string | null,
  opts: { width?: number; height?: number } = {},
): Promise<Page> {
  const ctx = await site.browser.newContext({ viewport: { width: opts.width ?? 1100, height: opts.height ?? 900 } });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const hash = token ? `#token=${encodeURIComponent(token)}` : '';
  await page.goto(`${site.server.url}/match/${encodeURIComponent(id)}${hash}`);
  (page as Page & { errors?: string[] }).errors = errors;
  return page;
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(join(OUT, 'boards'), { recursive: true });
  await page.screenshot({ path: join(OUT, 'boards', `${name}.png`), fullPage: true });
}

/** axe-core's serious and critical findings on the page (rule id and the first target of each). */
export async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  const { AxeBuilder } = await import('@axe-core/playwright');
  const builder = new AxeBuilder({ page });
  if (within) builder.include(within);
  const r = await builder.analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes.length} node(s), e.g. ${JSON.stringify(v.nodes[0]?.target)} ${v.nodes[0]?.failureSummary ?? ''}`,
    );
}

/** The page is usable at this width: nothing makes the document scroll sideways. */
export async function overflowsX(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
