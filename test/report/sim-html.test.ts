// `sim --html`: one self-contained file whose figures are the `sim --json` figures of the same run.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { binFigure, addValue, newFigure } from '../../src/runners/aggregate.ts';
import { simulate } from '../../src/runners/sim.ts';
import { tictactoePackage } from '../../packages/engine/src/rulesets/tictactoe/index.ts';
import { simReportHtml, tournamentReportHtml } from '../../src/report/static.ts';
import { simReportView } from '../../src/report/charts.ts';
import { REPORT_CSS, renderReportBody, renderReportPage } from '../../src/report/page.ts';
import { runTournament } from '../../src/runners/tournament.ts';
import { cli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'arbiter-report-'));

async function simCli(ruleset: string, games: number, seed: number, file: string) {
  const r = await cli([
    'sim',
    ruleset,
    '--games',
    String(games),
    '--seed',
    String(seed),
    '--threads',
    '1',
    '--no-progress',
    '--json',
    '--html',
    file,
  ]);
  assert.equal(r.code, 0, r.err);
  return { json: JSON.parse(r.out), html: readFileSync(file, 'utf8') };
}

type Figures = { path: (string | number)[]; value: number }[];

/** Every figure the page carries: the JSON path it claims to show and the number it shows. */
function figuresOf(html: string): Figures {
  const { document } = parseHTML(html);
  return [...document.querySelectorAll('[data-path]')].map((el) => ({
    path: JSON.parse(el.getAttribute('data-path') ?? 'null'),
    value: Number(el.getAttribute('data-value')),
  }));
}

function at(obj: unknown, path: (string | number)[]): unknown {
  let v = obj;
  for (const k of path) v = (v as Record<string | number, unknown>)?.[k];
  return v;
}

const has = (f: Figures, ...path: (string | number)[]) =>
  f.some((x) => JSON.stringify(x.path) === JSON.stringify(path));

/** No address a viewer would fetch: no script or style sheet from outside, no src/href that leaves the file. */
function assertSelfContained(html: string) {
  const { document } = parseHTML(html);
  for (const el of document.querySelectorAll('*'))
    for (const name of ['src', 'href', 'xlink:href', 'action', 'data', 'poster', 'srcset']) {
      const v = el.getAttribute(name);
      if (v !== null) assert.match(v, /^#/, `<${el.tagName.toLowerCase()} ${name}="${v}"> points outside the file`);
    }
  assert.equal(document.querySelectorAll('script, link, iframe, img, object, embed').length, 0);
  assert.doesNotMatch(html, /url\(|@import|https?:\/\//i, 'no outside address in styles or markup');
}

test('[report] sim --html of tictactoe: self-contained, every figure equals the sim --json figure of the same seed', async () => {
  const { json, html } = await simCli('tictactoe', 400, 7, join(dir, 'ttt.html'));
  assertSelfContained(html);
  const figs = figuresOf(html);
  for (const f of figs) assert.equal(f.value, at(json, f.path), `figure at ${JSON.stringify(f.path)}`);
  // the figures a reader needs are all there, not just some
  for (let s = 0; s < json.win_rate.length; s++) {
    assert.ok(has(figs, 'win_rate', s) && has(figs, 'win_ci95', s, 0) && has(figs, 'win_ci95', s, 1));
    assert.ok(has(figs, 'mean_place', s));
    for (let p = 0; p < json.win_rate.length; p++) assert.ok(has(figs, 'place_share', s, p));
  }
  for (const k of ['mean', 'sd', 'min', 'p50', 'p90', 'p99', 'max']) assert.ok(has(figs, 'actions', k));
  json.histograms.actions.bins.forEach((_: unknown, i: number) =>
    assert.ok(has(figs, 'histograms', 'actions', 'bins', i, 2)),
  );
  for (const k of Object.keys(json.reasons)) assert.ok(has(figs, 'reasons', k));
  assert.equal(
    json.histograms.actions.bins.reduce((a: number, b: number[]) => a + b[2], 0),
    400,
  );
  // one chart per figure group, each an image with a name
  const { document } = parseHTML(html);
  const svgs = [...document.querySelectorAll('svg')];
  assert.ok(svgs.length >= 4);
  for (const svg of svgs) {
    assert.equal(svg.getAttribute('role'), 'img');
    assert.ok((svg.getAttribute('aria-label') ?? '').length > 0);
  }
});

test('[report] sim --html of ground: every metric shown once as a figure, spread metrics as histograms, each equal to the JSON', async () => {
  const { json, html } = await simCli('ground', 60, 3, join(dir, 'ground.html'));
  assertSelfContained(html);
  const figs = figuresOf(html);
  for (const f of figs) assert.equal(f.value, at(json, f.path), `figure at ${JSON.stringify(f.path)}`);
  const names = Object.keys(json.metrics);
  assert.ok(names.length > 5);
  const { document } = parseHTML(html);
  let histograms = 0;
  for (const m of names) {
    // every metric's mean is on the page; one that varies (not 0/1, not a rule count) gets a histogram
    assert.ok(has(figs, 'metrics', m, 'mean'), m);
    const s = json.metrics[m];
    const bins = json.histograms.metrics[m].bins;
    const yesNo = s.min === 0 && s.max === 1 && bins.every((b: number[]) => b[0] === b[1]);
    const drawn = document.getElementById(`metric-${m.replace(/[^A-Za-z0-9_-]+/g, '-')}`) !== null;
    if (m.startsWith('rule:') || s.min === s.max || yesNo) {
      assert.ok(!drawn, `${m} drawn as a histogram`);
      continue;
    }
    histograms++;
    assert.ok(drawn && has(figs, 'metrics', m, 'p90'), m);
    bins.forEach((_: unknown, i: number) =>
      assert.ok(has(figs, 'histograms', 'metrics', m, 'bins', i, 2), `${m} bin ${i}`),
    );
    assert.equal(
      bins.reduce((a: number, b: number[]) => a + b[2], 0),
      60,
      m,
    );
  }
  assert.ok(histograms > 3, `${histograms} histograms`);
});

test('[report] a changed figure is caught: the page shows the report it was given', () => {
  const r = simulate(tictactoePackage, { games: 50, firstSeed: 1, config: {}, agents: 'random' });
  const changed = { ...r, win_rate: r.win_rate.map((w) => w + 0.01) };
  const figs = figuresOf(simReportHtml(changed));
  const wr = figs.filter((f) => f.path[0] === 'win_rate');
  assert.equal(wr.length, 2);
  for (const f of wr) assert.notEqual(f.value, at(r, f.path));
});

test('[report] histogram bins hold every game once: whole numbers one per value while few, wider past 40 values', () => {
  const few = newFigure();
  for (const v of [3, 3, 4, 7]) addValue(few, v);
  assert.deepEqual(binFigure(few), {
    discrete: true,
    bins: [
      [3, 3, 2],
      [4, 4, 1],
      [5, 5, 0],
      [6, 6, 0],
      [7, 7, 1],
    ],
  });
  const many = newFigure();
  for (let v = 0; v < 300; v++) addValue(many, v);
  const b = binFigure(many);
  assert.ok(b.discrete && b.bins.length <= 41, `${b.bins.length} bins`);
  assert.equal(
    b.bins.reduce((a, x) => a + x[2], 0),
    300,
  );
  for (const [lo, hi] of b.bins) assert.equal(hi - lo + 1, b.bins[0][1] - b.bins[0][0] + 1);
  // past the exact limit the sketch's buckets are binned as intervals
  const sketch = newFigure();
  for (let v = 0; v < 2000; v++) addValue(sketch, v / 3);
  const sb = binFigure(sketch);
  assert.equal(sb.discrete, false);
  assert.ok(sb.bins.length <= 41);
  assert.equal(
    sb.bins.reduce((a, x) => a + x[2], 0),
    2000,
  );
  const frac = newFigure();
  for (const v of [0.1, 0.2, 0.3, 0.35, 0.9]) addValue(frac, v);
  const f = binFigure(frac);
  assert.equal(f.discrete, false);
  assert.equal(
    f.bins.reduce((a, x) => a + x[2], 0),
    5,
  );
  // a value on an edge lands in the bin that starts there
  const edge = f.bins.find(([lo, hi]) => lo <= 0.3 && 0.3 < hi)!;
  assert.ok(edge[2] >= 1);
});

test('[report] tournament --html uses the same charts: self-contained, standings figures equal the report', () => {
  const r = runTournament(tictactoePackage, { agents: ['random', 'first'], games: 6, firstSeed: 1, config: {} });
  const html = tournamentReportHtml(r);
  assertSelfContained(html);
  const figs = figuresOf(html);
  assert.ok(figs.length >= r.standings.length * 8);
  for (const f of figs) assert.equal(f.value, at(r, f.path), `figure at ${JSON.stringify(f.path)}`);
});

test('[report] the web page shows the same markup as the file: the file is the shared body and style in a document', () => {
  const r = simulate(tictactoePackage, { games: 30, firstSeed: 2, config: {}, agents: 'random' });
  const view = simReportView(r, parseHTML('<!doctype html><html><body></body></html>').document);
  const page = renderReportPage(view);
  assert.ok(page.includes(renderReportBody(view)));
  assert.ok(page.includes(REPORT_CSS));
  // the web page nests the report under its own h1: headings move down one level
  assert.match(renderReportBody(view, 2), /^<div class="arb-report"><h2 class="r-title">/);
});
