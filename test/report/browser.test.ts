// The sim report file in a real browser (Debian's Chromium through playwright-core): opened from
// disk with the network cut off it draws every chart, fits a 360 px phone with its labels at full
// size, and axe-core finds no serious or critical accessibility violation. Screenshots
// (ARBITER_SHOTS=1) go to test-output/ for people to look at.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { simulate } from '../../src/runners/sim.ts';
import { minesPackage } from '../../packages/engine/src/rulesets/mines/index.ts';
import { tictactoePackage } from '../../packages/engine/src/rulesets/tictactoe/index.ts';
import { runTournament } from '../../src/runners/tournament.ts';
import { simReportHtml, tournamentReportHtml } from '../../src/report/static.ts';
import { axeScan } from '../support/axe.ts';
import { shot } from '../support/shots.ts';
import { CHROMIUM, launchChromium } from '../support/chromium.ts';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const OUT = resolve('test-output');

const reports = () => {
  mkdirSync(OUT, { recursive: true });
  const files: Record<string, string> = {
    'sim-tictactoe': simReportHtml(
      simulate(tictactoePackage, { games: 300, firstSeed: 1, config: {}, agents: 'random,first' }),
    ),
    'sim-mines': simReportHtml(simulate(minesPackage, { games: 40, firstSeed: 1, config: {}, agents: 'random' })),
    tournament: tournamentReportHtml(
      runTournament(tictactoePackage, { agents: ['random', 'first'], games: 6, firstSeed: 1, config: {} }),
    ),
  };
  const paths: Record<string, string> = {};
  for (const [name, html] of Object.entries(files)) writeFileSync((paths[name] = resolve(OUT, `${name}.html`)), html);
  return paths;
};

test('[report] the report file in Chromium: charts drawn offline, fits 360 px, no serious axe violation', async (t) => {
  if (!existsSync(CHROMIUM)) {
    console.log('skipped: chromium not installed');
    t.skip('chromium not installed');
    return;
  }
  const paths = reports();
  let browser: Browser | undefined;
  try {
    browser = await launchChromium(ARGS);
    // one context per width opens every report in turn
    for (const width of [360, 1100]) {
      const ctx = await browser.newContext({ viewport: { width, height: 800 }, offline: true });
      const page = await ctx.newPage();
      const requests: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) requests.push(r.url());
      });
      for (const [name, file] of Object.entries(paths)) {
        await page.goto(pathToFileURL(file).href);
        await shot(page, `${name}-${width}`);
        assert.deepEqual(requests, [], `${name}: the file asked the network for something`);
        const layout = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          svgs: [...document.querySelectorAll('svg[role=img]')].map((s) => {
            const box = s.getBoundingClientRect();
            const hidden = box.width === 0;
            const viewBox = s.getAttribute('viewBox')?.split(' ').map(Number) ?? [0, 0, 0, 0];
            return { hidden, scale: hidden ? 1 : box.width / viewBox[2], texts: s.querySelectorAll('text').length };
          }),
        }));
        assert.ok(layout.scroll <= width, `${name} at ${width}px: the page is ${layout.scroll}px wide`);
        assert.ok(layout.svgs.length >= 2, `${name}: charts drawn`);
        for (const s of layout.svgs) {
          // drawn at their own size (labels keep their 12 px), never squeezed
          if (!s.hidden) assert.ok(s.scale > 0.99, `${name} at ${width}px: a chart is scaled to ${s.scale}`);
          assert.ok(s.texts > 0, `${name}: a chart without labels`);
        }
        if (width === 360) {
          // open the collapsed parts too, so axe checks everything a reader can reach
          await page.evaluate(() => {
            for (const d of document.querySelectorAll('details')) d.open = true;
          });
          assert.deepEqual(await axeScan(page), [], `${name}: accessibility violations`);
        }
      }
      await ctx.close();
    }
  } finally {
    await browser?.close();
  }
});
