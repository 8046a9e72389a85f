// `node --import tsx bench/web.ts [--moves 200] [--lobby-runs 5] [--actions 100]`: the web page's figures.
//  1. the built JavaScript, gzipped: the lobby's own download (entry chunk) and everything (the
//     rulesets the replay viewer loads on demand included)
//  2. lobby interactive time in headless Chromium: navigation start until the lobby has rendered
//     the rulesets from the API (a fresh browser context each run: no cache), median of runs
//  3. click-to-board latency: a click on a tic-tac-toe cell until that cell shows the mark, which
//     includes the WebSocket `act`, the server's durable commit (SQLite), the state frame and the
//     render; p50/p95 over --moves moves against the `first` agent, on loopback.
// The server runs in this process (temp SQLite file), like the browser tests.

import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer } from '../src/server/serve.ts';
import { buildWebIfStale, WEB_DIST } from '../scripts/web-build.mjs';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf('--' + name);
  return i >= 0 ? args[i + 1] : dflt;
};
const MOVES = Number(opt('moves', '200'));
const LOBBY_RUNS = Number(opt('lobby-runs', '5'));
const ACTIONS = Number(opt('actions', '100'));
const CHROMIUM = '/usr/bin/chromium';

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

if (!(await buildWebIfStale())) throw new Error('the web page did not build');

// 1. sizes
const assets = join(WEB_DIST, 'assets');
const html = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
let all = 0;
let entry = 0;
for (const f of readdirSync(assets).filter((n) => n.endsWith('.js'))) {
  const gz = gzipSync(readFileSync(join(assets, f)), { level: 9 }).length;
  all += gz;
  if (html.includes(f)) entry += gz;
}
console.log(`JavaScript gzipped: lobby entry ${kb(entry)}; all chunks ${kb(all)} (target < 150 KB)`);

try {
  readFileSync(CHROMIUM);
} catch {
  console.log('skipped: chromium not installed (no timing figures)');
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), 'arbiter-bench-web-'));
const server = await startServer({
  port: 0,
  db: join(dir, 'bench.sqlite'),
  logger: false,
  rateLimit: 1_000_000,
  webRoot: WEB_DIST,
});
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
const load0 = loadavg()[0];
try {
  // 2. lobby interactive
  const lobby: number[] = [];
  for (let i = 0; i < LOBBY_RUNS; i++) {
    const ctx = await browser.newContext({ baseURL: server.url });
    const page = await ctx.newPage();
    await page.goto('/');
    const t = await page.waitForFunction(
      () => (document.querySelector('.lobby[data-ready="yes"] table.rulesets button') ? performance.now() : 0),
      undefined,
      { polling: 'raf' },
    );
    lobby.push((await t.jsonValue()) as number);
    await ctx.close();
  }
  console.log(
    `lobby interactive: median ${quantile(lobby, 0.5).toFixed(0)} ms (runs: ${lobby.map((x) => x.toFixed(0)).join(', ')}; target < 1000 ms)`,
  );

  // 3. click-to-board latency
  const ctx = await browser.newContext({ baseURL: server.url });
  const page = await ctx.newPage();
  const lat: number[] = [];
  while (lat.length < MOVES) {
    const m = await (
      await fetch(`${server.url}/api/matches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ruleset: 'tictactoe', seats: [{}, { agent: 'first' }] }),
      })
    ).json();
    const j = await (
      await fetch(`${server.url}/api/matches/${m.id}/join`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bench', seat: 0 }),
      })
    ).json();
    await page.goto(`/match/${m.id}#token=${j.token}`);
    await page.waitForSelector('.match[data-status="running"]');
    while (lat.length < MOVES) {
      // wait for our turn (the agent answers on the server) or the end
      const cell = await page.waitForFunction(
        () => {
          // 0 is falsy for waitForFunction: answer cell + 1, or -1 at the end
          if (document.querySelector('.match')?.getAttribute('data-status') === 'finished') return -1;
          const b = document.querySelector('.ttt-cell:not([aria-disabled="true"])');
          return b ? Number(b.getAttribute('data-cell')) + 1 : null;
        },
        undefined,
        { polling: 'raf' },
      );
      const c = ((await cell.jsonValue()) as number) - 1;
      if (c < 0) break;
      // a string, not a function: tsx would wrap inner functions in a helper the page does not have
      const ms = (await page.evaluate(`new Promise((done) => {
        const b = document.querySelector('[data-cell="${c}"]');
        const t0 = performance.now();
        const mo = new MutationObserver(() => {
          if (b.isConnected && b.textContent === 'X') { mo.disconnect(); done(performance.now() - t0); }
        });
        mo.observe(document.body, { childList: true, subtree: true, characterData: true });
        b.click();
      })`)) as number;
      lat.push(ms);
    }
  }
  await ctx.close();
  console.log(
    `click-to-board (tic-tac-toe, ${lat.length} moves): p50 ${quantile(lat, 0.5).toFixed(1)} ms, p95 ${quantile(lat, 0.95).toFixed(1)} ms, max ${Math.max(...lat).toFixed(1)} ms (target p95 < 50 ms)`,
  );

  // 4. click-to-board for mines digs and duel actions: a click on the board until the page shows
  // the next step (the .match element's data-seq changes after the new frame has been rendered)
  /** `target`: a page expression for the element to click (null when there is none). */
  const seqLatency = async (label: string, body: unknown, target: string): Promise<void> => {
    const c2 = await browser.newContext({ baseURL: server.url });
    const p2 = await c2.newPage();
    const xs: number[] = [];
    while (xs.length < ACTIONS) {
      const m = await (
        await fetch(`${server.url}/api/matches`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json();
      const j = await (
        await fetch(`${server.url}/api/matches/${m.id}/join`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'bench', seat: 0 }),
        })
      ).json();
      await p2.goto(`/match/${m.id}#token=${j.token}`);
      await p2.waitForSelector('.match[data-status="running"]');
      while (xs.length < ACTIONS) {
        const ready = await p2
          .waitForFunction(
            `(() => {
            if (document.querySelector('.match')?.getAttribute('data-status') === 'finished') return -1;
            return (${target}) ? 1 : null;
          })()`,
            undefined,
            { polling: 'raf', timeout: 3_000 },
          )
          .catch(() => null);
        // the end, or nothing left to click (mines: no closed cell beside the figure): a new match
        if (ready === null || ((await ready.jsonValue()) as number) < 0) break;
        const ms = (await p2.evaluate(`new Promise((done) => {
          const m = document.querySelector('.match');
          const seq = m.getAttribute('data-seq');
          const b = ${target};
          const t0 = performance.now();
          const mo = new MutationObserver(() => {
            if (m.getAttribute('data-seq') !== seq) { mo.disconnect(); done(performance.now() - t0); }
          });
          mo.observe(m, { attributes: true });
          b.click();
          setTimeout(() => { mo.disconnect(); done(-1); }, 5000);
        })`)) as number;
        if (ms < 0) break; // refused or nothing changed: a new match
        xs.push(ms);
      }
    }
    await c2.close();
    console.log(
      `click-to-board (${label}, ${xs.length} actions): p50 ${quantile(xs, 0.5).toFixed(1)} ms, p95 ${quantile(xs, 0.95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (target p95 < 50 ms)`,
    );
  };
  await seqLatency(
    'duel actions',
    { ruleset: 'duel', seats: [{}, { agent: 'first' }] },
    `document.querySelector('.du-menu button')`,
  );
  // a dig of a cell beside the figure; with none (the figure stands in open ground, as at the
  // start) a click on a number moves the figure there first, which is timed the same way
  await seqLatency(
    'mines digs and moves',
    { ruleset: 'mines', seats: [{}] },
    `(document.querySelector('.mn-grid [data-ring="yes"]') ?? document.querySelector('.mn-grid [data-state="digit"]:not(.mn-here)'))`,
  );
} finally {
  await browser.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `load average at start ${load0.toFixed(1)}, at end ${loadavg()[0].toFixed(1)} on ${cpus().length} cores (a shared machine: figures include waiting for a CPU)`,
);
