// The report route of the web page (/report) in Chromium against a real `arbiter serve`: the lobby
// does not download the charting, the page draws an uploaded `sim --json` with the figures of that
// JSON, refuses a file that is not a report in words, fits 360 px and passes axe-core. Registered by
// the browser suite's entry (test/web/browser.test.ts) on its one server and Chromium (issue 24).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../../src/runners/sim.ts';
import { minesPackage } from '../../packages/engine/src/rulesets/mines/index.ts';
import { tictactoePackage } from '../../packages/engine/src/rulesets/tictactoe/index.ts';
import { axeScan } from '../support/axe.ts';
import { shot } from '../support/shots.ts';
import { overflowsX, rigSuite } from '../web/support.ts';

const at = (obj: unknown, path: (string | number)[]): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)?.[k], obj);

rigSuite('web report page', (rig) => {
  test('[report] the lobby does not load the charts; /report draws an uploaded sim --json with its own figures', async () => {
    const { page, errors } = await rig().person({ width: 360, height: 740 });
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto('/');
    await page.getByRole('link', { name: /^(simulation|sim) report$/i }).waitFor();
    const lobbyScripts = [...scripts];
    assert.ok(lobbyScripts.length > 0);
    assert.ok(!lobbyScripts.some((s) => /report/.test(s)), `the lobby loaded ${lobbyScripts.join(', ')}`);

    await page.getByRole('link', { name: /^(simulation|sim) report$/i }).click();
    await page.getByLabel('Report file (JSON)').waitFor();
    assert.ok(
      scripts.some((s) => /report/.test(s)),
      'the report page came as its own chunk',
    );

    for (const [name, report] of [
      ['tictactoe', simulate(tictactoePackage, { games: 200, firstSeed: 9, config: {}, agents: 'random,first' })],
      ['mines', simulate(minesPackage, { games: 12, firstSeed: 1, config: {}, agents: 'random' })],
    ] as const) {
      const json = JSON.parse(JSON.stringify(report));
      await page.getByLabel('Report file (JSON)').setInputFiles({
        name: `${name}.json`,
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(json)),
      });
      // the report is named after the game as its rules title it
      await page.getByRole('heading', { name: `${json.title} simulation: ${json.games} games` }).waitFor();
      const figures = await page.$$eval('[data-path]', (els) =>
        els.map((e) => ({ path: JSON.parse(e.getAttribute('data-path') ?? 'null'), value: Number(e.dataset.value) })),
      );
      assert.ok(figures.length > 20, `${name}: ${figures.length} figures`);
      for (const f of figures) assert.equal(f.value, at(json, f.path), `${name}: figure at ${JSON.stringify(f.path)}`);
      for (const m of Object.keys(json.metrics))
        assert.ok(
          figures.some((f) => f.path[0] === 'metrics' && f.path[1] === m && f.path[2] === 'mean'),
          m,
        );
      const charts = await page.$$eval('svg[role=img]', (els) =>
        els.map((e) => ({ label: e.getAttribute('aria-label'), width: e.getBoundingClientRect().width })),
      );
      assert.ok(charts.length >= 4, `${name}: ${charts.length} charts`);
      // drawn at their own width on a phone, so the labels keep their size
      for (const c of charts) assert.ok(c.label && c.width >= 319, `${name}: ${c.label} is ${c.width}px wide`);
      assert.ok((await overflowsX(page)) <= 0, `${name}: wider than 360 px`);
      await page.getByRole('link', { name: /Save as a self-contained HTML file/ }).waitFor();
      await shot(page, `web-report-${name}-360`);
    }
    await page.evaluate(() => {
      for (const d of document.querySelectorAll('details')) d.open = true;
    });
    assert.deepEqual(await axeScan(page), []);

    await page.getByLabel('Report file (JSON)').setInputFiles({
      name: 'log.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"ruleset":"tictactoe","seed":1}'),
    });
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /log\.json: this is not a sim --json report \(missing: games/);
    assert.equal(await page.locator('svg[role=img]').count(), 0);
    assert.deepEqual(errors, []);
  });
});
