// Browser tests: Debian's Chromium driven by playwright-core against a real `arbiter serve` started
// in this process on 127.0.0.1 (port 0, a temp SQLite file), serving the built page. The page is
// built once per run (only when its sources changed; a lock keeps parallel test files from building
// twice). Without /usr/bin/chromium a suite prints one `skipped: chromium not installed` line.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { after, before, describe } from 'node:test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RulesetPackage } from '../../packages/engine/src/kernel/index.ts';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { PACKAGES } from '../../packages/engine/src/registry.ts';
import { buildWebIfStale, WEB_DIST } from '../../scripts/web-build.mjs';
import { CHROMIUM, launchChromium } from '../support/chromium.ts';
import { pebblesPackage } from './pebbles.ts';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM);
}

/**
 * `describe(name)` over the shared rig: one `skipped` line where Chromium is not installed, else
 * `body` gets `rig()`, the rig once `before` has started it.
 */
export function rigSuite(name: string, body: (rig: () => WebRig) => void): void {
  describe(name, () => {
    if (!chromiumInstalled()) {
      console.log('skipped: chromium not installed');
      return;
    }
    let rig: WebRig | null = null;
    before(async () => {
      rig = await sharedRig();
    });
    body(() => {
      if (!rig) throw new Error('the shared rig is not started yet (use it inside a test)');
      return rig;
    });
  });
}

let shared: Promise<WebRig> | null = null;

/**
 * The one rig (server and Chromium) of the browser suite: every spec module asks for it, the first
 * ask starts it, and browser.test.ts closes it after the last spec. One launch instead of one per
 * test file (issue 24 item 2); each person is still a context of its own. The server carries the
 * test-only rulesets too (pebbles), so specs that list every ruleset keep to the shipped ones.
 */
export function sharedRig(): Promise<WebRig> {
  shared ??= startRig([pebblesPackage]);
  return shared;
}

async function closeSharedRig(): Promise<void> {
  const rig = await shared?.catch(() => null);
  shared = null;
  await rig?.close();
}

/**
 * A browser suite entry file: imports its spec modules (which register their tests and ask for the
 * shared rig) and closes the rig after the last of them; without Chromium, one skip line instead.
 */
export async function browserEntry(specs: (() => Promise<unknown>)[]): Promise<void> {
  if (!chromiumInstalled()) {
    console.log('skipped: chromium not installed');
    return;
  }
  for (const load of specs) await load();
  after(closeSharedRig);
}

export interface WebRig {
  browser: Browser;
  server: RunningServer;
  url: string;
  /** A fresh browser context (its own storage: one person) with a page. */
  person(opts?: {
    width?: number;
    height?: number;
  }): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  close(): Promise<void>;
}

/** Build the page, start a server (with extra ruleset packages) and one browser. */
async function startRig(extra: RulesetPackage[] = []): Promise<WebRig> {
  if (!(await buildWebIfStale({ quiet: true }))) throw new Error('the web page did not build');
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-web-'));
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    db: join(dir, 'web.sqlite'),
    logger: false,
    rateLimit: 100_000,
    webRoot: WEB_DIST,
    packages: [...PACKAGES, ...extra],
  });
  const browser = await launchChromium(CHROMIUM_ARGS);
  const contexts: BrowserContext[] = [];
  return {
    browser,
    server,
    url: server.url,
    async person(opts = {}) {
      const context = await browser.newContext({
        viewport: { width: opts.width ?? 1100, height: opts.height ?? 800 },
        baseURL: server.url,
      });
      contexts.push(context);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => {
        if (m.type() === 'error' && !/favicon/.test(m.text())) errors.push(m.text());
      });
      return { context, page, errors };
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Resolves when the match (in this process's server) has finished: told by the server itself, as a
 * spectator's page is, instead of asking the API every few milliseconds.
 */
export async function matchFinished(rig: WebRig, id: string, timeoutMs = 60_000): Promise<void> {
  const service = rig.server.service;
  const m = await service.mustGet(id);
  if (m.status === 'finished') return;
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => {
      stop();
      fail(new Error(`match ${id} did not finish in ${timeoutMs} ms`));
    }, timeoutMs);
    const stop = service.subscribe(m, {
      seat: null,
      send(frame) {
        if (frame.status !== 'finished') return;
        clearTimeout(timer);
        stop();
        done();
      },
    });
  });
}

/** The page is wider than its viewport (something forces horizontal scrolling). */
export async function overflowsX(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
