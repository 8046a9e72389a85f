// The web page in a real browser against a real server: tic-tac-toe played by clicks from the
// lobby, a ruleset registered only here played to the end through the generic renderer, the replay
// viewer re-running stored logs to the position `arbiter replay` reaches, axe-core on every page, and
// every page at 360 px wide. Screenshots (ARBITER_SHOTS=1) go to test-output/.

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { canonicalJson } from '../../packages/engine/src/kernel/index.ts';
import { REGISTRY } from '../../packages/engine/src/registry.ts';
import { parseLog } from '../../src/runners/logfile.ts';
import { replayLog } from '../../src/runners/replay.ts';
import { axeScan } from '../support/axe.ts';
import { shot } from '../support/shots.ts';
import { matchFinished, overflowsX, rigSuite } from './support.ts';
import { cli } from '../support/cli.ts';

/** Wait until the match page shows a step after `seq` (or the end). */
async function nextStep(page: Page, seq: string): Promise<void> {
  await page.waitForFunction(
    (s) => {
      const el = document.querySelector('.match');
      return el && (el.getAttribute('data-seq') !== s || el.getAttribute('data-status') === 'finished');
    },
    seq,
    { timeout: 15_000 },
  );
}

async function createFromLobby(page: Page, ruleset: string, seats: string[], config?: (p: Page) => Promise<void>) {
  await page.goto('/');
  await page.waitForSelector('.lobby[data-ready="yes"]');
  await page.selectOption('#c-ruleset', ruleset);
  await page.waitForFunction((n) => document.querySelectorAll('select[id^="c-seat-"]').length === n, seats.length);
  if (config) await config(page);
  for (let i = 0; i < seats.length; i++) await page.selectOption(`#c-seat-${i}`, seats[i]);
  await page.fill('#c-name', 'tester');
  await page.selectOption('#c-mine', '0');
  await page.click('button:has-text("Create match")');
  await page.waitForURL(/\/match\/[^/#]+#token=/);
  await page.waitForSelector('.match[data-status="running"], .match[data-status="finished"]');
  return decodeURIComponent(/\/match\/([^/#]+)/.exec(page.url())![1]);
}

rigSuite('web page', (rig) => {
  let tttMatch = '';

  test('[WEB-TTT] tic-tac-toe is created in the lobby and played to the end by clicks on the grid', async () => {
    const { page, errors } = await rig().person();
    await page.goto('/');
    await page.waitForSelector('.lobby[data-ready="yes"]');
    assert.match(await page.locator('table.rulesets').innerText(), /Tic-tac-toe[\s\S]*6/);
    await shot(page, 'lobby');
    tttMatch = await createFromLobby(page, 'tictactoe', ['open', 'random']);
    let clicks = 0;
    while ((await page.getAttribute('.match', 'data-status')) !== 'finished') {
      const free = page.locator('.ttt-cell:not([aria-disabled="true"])');
      await free.first().waitFor({ timeout: 15_000 });
      const seq = (await page.getAttribute('.match', 'data-seq')) ?? '';
      await free.first().click();
      clicks++;
      await nextStep(page, seq);
      // the agent answers on the server; wait until it is our turn again or the game ended
      await page.waitForFunction(
        () =>
          document.querySelector('.match')?.getAttribute('data-status') === 'finished' ||
          document.querySelector('.ttt-cell:not([aria-disabled="true"])') !== null,
        undefined,
        { timeout: 15_000 },
      );
    }
    assert.ok(clicks >= 3, `the game took ${clicks} clicks`);
    const marks = await page.locator('.ttt-cell').allInnerTexts();
    assert.ok(marks.filter((m) => m === 'X').length === clicks, 'every click left an X');
    assert.match(await page.locator('.turn').innerText(), /You won|You lost: seat 1 won|Nobody won/);
    assert.match(await page.locator('.event-list').innerText(), /X marks row \d, column \d/);
    await shot(page, 'match-tictactoe');
    assert.deepEqual(errors, []);
  });

  test('[WEB-LATE] a page opened on a running match lists what happened before it opened, then what follows', async () => {
    const post = async (path: string, body: unknown, token?: string) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      const r = await fetch(`${rig().url}/api${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      assert.ok(r.ok, `${path}: ${r.status}`);
      return r.json();
    };
    const m = await post('/matches', { ruleset: 'tictactoe', seats: [{}, {}] });
    const x = await post(`/matches/${m.id}/join`, { name: 'x' });
    const o = await post(`/matches/${m.id}/join`, { name: 'o' });
    const mark = (t: { token: string }, cell: number) =>
      post(`/matches/${m.id}/actions`, { action: { type: 'mark', cell } }, t.token);
    await mark(x, 0);
    await mark(o, 4);
    await mark(x, 8);
    const { page, errors } = await rig().person();
    await page.goto(`/match/${m.id}`);
    await page.waitForSelector('.match[data-seq="3"]');
    const seqs = () => page.locator('.event-list > li .ev-seq').allInnerTexts();
    await page.waitForFunction(() => document.querySelectorAll('.event-list > li').length === 3, undefined, {
      timeout: 15_000,
    });
    assert.deepEqual(await seqs(), ['#1', '#2', '#3']);
    assert.match(
      await page.locator('.event-list').innerText(),
      /row 1, column 1[\s\S]*row 2, column 2[\s\S]*row 3, column 3/,
    );
    await mark(o, 2);
    await page.waitForSelector('.match[data-seq="4"]');
    await page.waitForFunction(() => document.querySelectorAll('.event-list > li').length === 4, undefined, {
      timeout: 15_000,
    });
    assert.deepEqual(await seqs(), ['#1', '#2', '#3', '#4']);
    assert.deepEqual(errors, []);
  });

  test('[WEB-GENERIC] a ruleset registered only in this test is played to the end through the generic renderer', async () => {
    const { page, errors } = await rig().person();
    await createFromLobby(page, 'pebbles', ['open', 'first'], async (p) => {
      await p.click('summary:has-text("Configuration")');
      await p.fill('input[type="number"][min="1"][max="30"]', '5');
    });
    // the view as a tree, the menu as buttons, the template as a form
    await page.waitForSelector('ul[aria-label="Legal actions"] button');
    assert.match(await page.locator('.view-tree').innerText(), /pile: 5/);
    await page.fill('form.template input[type="text"]', 'hello from the test');
    await page.click('form.template button[type="submit"]');
    await page.waitForFunction(() =>
      /hello from the test/.test(document.querySelector('.view-tree')?.textContent ?? ''),
    );
    await shot(page, 'match-generic');
    for (let i = 0; i < 10 && (await page.getAttribute('.match', 'data-status')) !== 'finished'; i++) {
      const take = page.locator('ul[aria-label="Legal actions"] button', { hasText: 'take: count 1' });
      await take.waitFor({ timeout: 15_000 });
      const seq = (await page.getAttribute('.match', 'data-seq')) ?? '';
      await take.click();
      await nextStep(page, seq);
      await page.waitForFunction(
        () =>
          document.querySelector('.match')?.getAttribute('data-status') === 'finished' ||
          document.querySelector('ul[aria-label="Legal actions"] button') !== null,
        undefined,
        { timeout: 15_000 },
      );
    }
    assert.equal(await page.getAttribute('.match', 'data-status'), 'finished');
    assert.match(await page.locator('.view-tree').innerText(), /pile: 0/);
    assert.match(await page.locator('.turn').innerText(), /(You won|You lost: seat 1 won) \(.*took the last pebble/);
    // the server publishes the same schemas for API clients
    const schemas = await (await fetch(`${rig().url}/api/rulesets/pebbles/actions`)).json();
    assert.equal(schemas.sources.note, 'template');
    assert.equal(schemas.actions.note.properties.text.maxLength, 40);
    assert.deepEqual(errors, []);
  });

  test('[WEB-VIEWER] the viewer replays the stored log to its end: same hash and position as `arbiter replay`', async () => {
    assert.ok(tttMatch, 'the tic-tac-toe match of [WEB-TTT] finished');
    const log = await (await fetch(`${rig().url}/api/matches/${tttMatch}/log`)).text();
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-web-log-'));
    writeFileSync(join(dir, 'ttt.jsonl'), log);
    const replayed = await cli(['replay', join(dir, 'ttt.jsonl'), '--json']);
    assert.equal(replayed.code, 0, replayed.err);
    const report = JSON.parse(replayed.out) as { status: string; hash: string; submissions: number };
    assert.equal(report.status, 'verified');
    const rs = REGISTRY.get('tictactoe')!.ruleset;
    const final = canonicalJson(rs.view(replayLog(rs, parseLog(log)).state, null));

    const { page, errors } = await rig().person();
    await page.goto(`/replay/${tttMatch}`);
    await page.waitForSelector('[data-testid="hash"]');
    assert.equal(await page.locator('[data-testid="hash"]').innerText(), report.hash);
    const last = Number(await page.getAttribute('.viewer', 'data-last'));
    assert.equal(last, report.submissions);
    assert.equal(await page.locator('[data-testid="position"]').textContent(), final);
    // keyboard stepping, then the slider's end again
    await page.keyboard.press('Home');
    assert.equal(await page.getAttribute('.viewer', 'data-step'), '0');
    assert.equal(await page.locator('.ttt-cell:has-text("X")').count(), 0);
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getAttribute('.viewer', 'data-step'), '1');
    assert.equal(await page.locator('.ttt-cell:has-text("X")').count(), 1);
    await shot(page, 'viewer-step1');
    await page.keyboard.press('End');
    assert.equal(await page.getAttribute('.viewer', 'data-step'), String(last));
    assert.equal(await page.locator('[data-testid="position"]').textContent(), final);
    await shot(page, 'viewer-end');
    assert.deepEqual(errors, []);
  });

  test('[WEB-VIEWER-FILE] an uploaded log of another ruleset replays in the browser to `replay`’s hash', async () => {
    // a mines match played by an agent on the server, its log uploaded as a file
    const created = await (
      await fetch(`${rig().url}/api/matches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ruleset: 'ground',
          seed: 11,
          seats: [{ agent: 'random' }, { agent: 'random' }, { agent: 'random' }, { agent: 'random' }],
        }),
      })
    ).json();
    await matchFinished(rig(), created.id, 20_000);
    assert.equal((await (await fetch(`${rig().url}/api/matches/${created.id}`)).json()).status, 'finished');
    const log = await (await fetch(`${rig().url}/api/matches/${created.id}/log`)).text();
    const rs = REGISTRY.get('ground')!.ruleset;
    const rep = replayLog(rs, parseLog(log));
    assert.equal(rep.status, 'verified');
    const { page, errors } = await rig().person();
    await page.goto('/replay');
    await page.setInputFiles('#v-file', {
      name: 'ground.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(log),
    });
    await page.waitForSelector('[data-testid="hash"]');
    assert.equal(await page.locator('[data-testid="hash"]').innerText(), rep.hash);
    assert.equal(await page.locator('[data-testid="position"]').textContent(), canonicalJson(rs.view(rep.state, null)));
    // a seat's perspective shows that seat's view; everything shows the state at the end
    await page.selectOption('#v-persp', '2');
    assert.equal(await page.locator('[data-testid="position"]').textContent(), canonicalJson(rs.view(rep.state, 2)));
    await page.selectOption('#v-persp', 'all');
    assert.equal(await page.locator('[data-testid="position"]').textContent(), canonicalJson(rep.state));
    await shot(page, 'viewer-ground-everything');
    assert.deepEqual(errors, []);
  });

  // the lobby (with its configuration open) is scanned by [WEB-A11Y-ALL] at any impact and two widths
  test('[WEB-A11Y] axe-core finds no serious or critical violation on the match and viewer pages', async () => {
    const { page } = await rig().person();
    const found: string[] = [];
    await page.goto(`/match/${tttMatch}`);
    await page.waitForSelector('.match[data-status="finished"]');
    found.push(...(await axeScan(page)).map((p) => `match: ${p}`));
    await page.goto(`/replay/${tttMatch}`);
    await page.waitForSelector('[data-testid="hash"]');
    found.push(...(await axeScan(page)).map((p) => `viewer: ${p}`));
    assert.deepEqual(found, []);
  });

  test('[WEB-360] every page works 360 px wide: nothing wider than the screen, the board and controls in reach', async () => {
    const { page, errors } = await rig().person({ width: 360, height: 740 });
    await page.goto('/');
    await page.waitForSelector('.lobby[data-ready="yes"]');
    assert.ok((await overflowsX(page)) <= 0, 'the lobby scrolls sideways');
    await shot(page, 'lobby-360');
    const id = await createFromLobby(page, 'tictactoe', ['open', 'random']);
    assert.ok((await overflowsX(page)) <= 0, 'the match page scrolls sideways');
    const cell = await page.locator('.ttt-cell').first().boundingBox();
    assert.ok(
      cell && cell.x >= 0 && cell.x + cell.width <= 360 && cell.width >= 44,
      'grid cells fit and are big enough',
    );
    await shot(page, 'match-360');
    await page.goto(`/replay/${tttMatch}`);
    await page.waitForSelector('[data-testid="hash"]');
    assert.ok((await overflowsX(page)) <= 0, 'the viewer scrolls sideways');
    await shot(page, 'viewer-360');
    assert.ok(id);
    assert.deepEqual(errors, []);
  });
});
