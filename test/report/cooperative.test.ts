// The report of a co-operative game (GROUND, shared-ground mode) read in Chromium as a person reads
// it: the declared headline (group success) first, the group's result once instead of identical
// per-seat bars, yes/no and constant figures as numbers, the rule counts grouped by the sections
// of the rules with each rule's words, and the game named the same way in the tab and the heading.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { simulate, type SimReport } from '../../src/runners/sim.ts';
import { groundPackage } from '../../packages/engine/src/rulesets/ground/index.ts';
import { simReportHtml } from '../../src/report/static.ts';
import { shot } from '../support/shots.ts';
import { CHROMIUM, launchChromium } from '../support/chromium.ts';

const ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];
const OUT = resolve('test-output');

if (!existsSync(CHROMIUM)) {
  test('cooperative report', { skip: 'chromium not installed' }, () => {});
} else {
  describe('[report] a co-operative game in Chromium', () => {
    let browser: Browser;
    let page: Page;
    let report: SimReport;
    const rule = groundPackage.ruleset.catalog.rules;

    before(async () => {
      report = simulate(groundPackage, { games: 60, firstSeed: 3, config: {}, agents: 'random' });
      mkdirSync(OUT, { recursive: true });
      const file = resolve(OUT, 'sim-ground.html');
      writeFileSync(file, simReportHtml(report));
      browser = await launchChromium(ARGS);
      page = await (await browser.newContext({ viewport: { width: 1100, height: 800 }, offline: true })).newPage();
      await page.goto(pathToFileURL(file).href);
      await shot(page, 'sim-ground-1100');
    });
    after(async () => {
      await browser?.close();
    });

    test('[WEB-REPORT-HEADLINE] group success is the first thing after the facts, in large print, with its mode and player count', async () => {
      const success = report.metrics.group_success.mean;
      const first = await page.evaluate(() => {
        const s = document.querySelector('.arb-report section');
        const fig = s?.querySelector('.r-figure');
        return {
          heading: s?.querySelector('h2')?.textContent ?? '',
          chart: s?.querySelector('h3')?.textContent ?? '',
          figure: fig?.textContent ?? '',
          top: fig ? fig.getBoundingClientRect().top : Number.POSITIVE_INFINITY,
          text: s?.textContent ?? '',
        };
      });
      assert.equal(first.chart, 'group success');
      assert.equal(first.figure, `${(success * 100).toFixed(1)}%`);
      assert.ok(first.top < 800, `the headline figure is at ${first.top}px, below the first screen`);
      assert.match(first.text, /shared-ground/);
      assert.match(first.text, /players 4|4 players/);
    });

    test('[WEB-REPORT-COOP] no per-seat places or mean-score bars: the group result once', async () => {
      assert.ok(
        report.place_share?.every((row) => row[0] === 1),
        'the premise: every seat is "1st" in every game',
      );
      const ids = await page.evaluate(() => [...document.querySelectorAll('figure')].map((f) => f.id));
      assert.ok(!ids.includes('places'), 'a "Places by seat" chart is shown for a co-operative game');
      assert.ok(!ids.includes('scores'), 'identical mean-score bars by seat are shown');
      assert.ok(!ids.includes('win-rate'), 'a per-seat win-rate chart is shown');
      const group = await page.locator('#group-result').textContent();
      assert.match(group ?? '', /win or lose together/);
    });

    test('[WEB-REPORT-FIGURES] constant and yes/no metrics are numbers and shares, not histograms', async () => {
      const constant = Object.keys(report.metrics).filter(
        (m) => !m.startsWith('rule:') && report.metrics[m].min === report.metrics[m].max,
      );
      const binary = Object.keys(report.metrics).filter(
        (m) =>
          !m.startsWith('rule:') &&
          m !== 'group_success' &&
          report.metrics[m].min === 0 &&
          report.metrics[m].max === 1 &&
          report.histograms.metrics[m].bins.every(([lo, hi]) => hi === lo),
      );
      assert.ok(constant.includes('threshold'), 'the premise: the threshold is the same in every game');
      assert.ok(binary.length > 0, 'the premise: some figure is yes/no');
      const seen = await page.evaluate(
        (names) =>
          names.map((m) => ({
            m,
            histogram: Boolean(document.getElementById(`metric-${m.replace(/[^A-Za-z0-9_-]+/g, '-')}`)),
            cell: [...document.querySelectorAll('[data-path]')].some(
              (c) => c.getAttribute('data-path') === JSON.stringify(['metrics', m, 'mean']),
            ),
          })),
        [...constant, ...binary],
      );
      for (const s of seen) {
        assert.ok(!s.histogram, `${s.m} is drawn as a histogram`);
        assert.ok(s.cell, `${s.m} is not shown as a figure`);
      }
    });

    test('[WEB-REPORT-RULES] rule counts grouped by the sections of the rules, each rule with its words', async () => {
      const groups = [...new Set(rule.map((r) => r.group).filter(Boolean))] as string[];
      const text = await page.evaluate(() => {
        for (const d of document.querySelectorAll('details')) d.open = true;
        return {
          charts: [...document.querySelectorAll('#metrics-rule figure h3')].map((h) => h.textContent ?? ''),
          rows: [...document.querySelectorAll('#metrics-rule tbody tr')].map((tr) =>
            [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
          ),
        };
      });
      assert.ok(text.charts.length > 1 && text.charts.length < 20, `${text.charts.length} rule charts`);
      for (const c of text.charts)
        assert.ok(
          groups.some((g) => c.startsWith(`${g} (`)),
          `"${c}" is not a section of the rules (${groups.join(', ')})`,
        );
      const fired = Object.keys(report.metrics).filter((m) => m.startsWith('rule:'));
      assert.equal(text.rows.length, fired.length, 'one table row per counted rule');
      for (const [id, words] of text.rows) {
        const entry = rule.find((r) => r.id === id);
        assert.ok(entry, `${id} is not in the catalog`);
        assert.equal(words, entry.summary, `${id}: its words from the catalog`);
      }
    });

    test('[WEB-REPORT-EDITION] the tab and the heading name the game as its rules do, the version as a version', async () => {
      const rs = groundPackage.ruleset;
      const shown = await page.evaluate(() => ({
        tab: document.title,
        h1: document.querySelector('h1')?.textContent ?? '',
        facts: [...document.querySelectorAll('.arb-report dt')].map(
          (dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent ?? ''}`,
        ),
      }));
      assert.equal(shown.tab, shown.h1);
      assert.ok(shown.h1.startsWith(rs.title), `the heading "${shown.h1}" does not name ${rs.title}`);
      assert.ok(
        shown.facts.some((f) => f.includes(`version ${rs.version}`)),
        `no fact calls ${rs.version} a version: ${shown.facts.join(' | ')}`,
      );
    });
  });
}
