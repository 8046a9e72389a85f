// The mines board in a real browser against a real `arbiter serve`: the seed's D1 presentation
// duties (mandatory items ①–⑥ and contract items 1–12), each proved on the page itself.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { minesPackage, type MinesState } from '../../packages/engine/src/rulesets/mines/index.ts';
import { call } from '../server/helpers.ts';
import { B_BATCH_TO_LAST_SAFE } from './mines-fixtures.ts';
import { axeScan } from '../support/axe.ts';
import { shot as shotInto } from '../support/shots.ts';
import { errorsOf, newMatch, openMatch, siteForSpecs, overflowsX, type Site } from './boards-support.ts';

const shot = (page: Page, name: string) => shotInto(page, name, 'boards');

let site: Site;
const missing = siteForSpecs((s) => {
  site = s;
});

type CellInfo = { x: number; y: number; state: string; ring: boolean; here: boolean };

async function cells(page: Page): Promise<CellInfo[]> {
  return page.$$eval('.mn-grid [data-idx]', (els) =>
    els.map((e) => ({
      x: Number(e.getAttribute('data-x')),
      y: Number(e.getAttribute('data-y')),
      state: e.getAttribute('data-state') ?? '',
      ring: e.getAttribute('data-ring') === 'yes',
      here: e.classList.contains('mn-here'),
    })),
  );
}

const cell = (x: number, y: number) => `.mn-grid [data-x="${x}"][data-y="${y}"]`;
const OPEN = new Set(['floor', 'digit', 'fog', 'mine']);

/** Waits for the page to show a newer step than `seq` (the match page carries the step it shows). */
async function nextStep(page: Page, seq: number): Promise<number> {
  await page.waitForFunction((s) => Number(document.querySelector('.match')?.getAttribute('data-seq')) > s, seq, {
    timeout: 10_000,
  });
  return Number(await page.getAttribute('.match', 'data-seq'));
}

async function seqOf(page: Page): Promise<number> {
  return Number(await page.getAttribute('.match', 'data-seq'));
}

async function ready(page: Page): Promise<void> {
  await page.waitForSelector('.mn-grid [data-idx]', { timeout: 20_000 });
}

test('[D1-6, contract 7/8] one context plays a generated board to a cleared board by clicks; every intent is a one-intent batch; the three channels animate', {
  skip: missing ?? false,
}, async () => {
  const config = { width: 8, height: 8, mines: 7, fog: 2, no_guess: true, boards: 1, max_rounds: 60 };
  const seed = 11;
  const m = await newMatch(site, { ruleset: 'mines', config, seed, seats: [{}] }, 0);
  // the test knows the board (it is the oracle); the page only ever gets the seat's view
  const truth = minesPackage.ruleset.setup(config, seed) as MinesState;
  const b = truth.a2.board!;
  const isMine = (x: number, y: number) => b.mines[y * b.w + x] === '1';
  const page = await openMatch(site, m.id, m.token);
  const sent: unknown[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      const o = JSON.parse(String(f.payload));
      if (o.type === 'act') sent.push(o.action);
    }),
  );
  await page.reload();
  await ready(page);
  // initial channel: the region lights up on the first draw
  assert.ok((await page.$$('.mn-a-initial')).length > 5, 'the initial region is animated');
  let sawChain = false;
  let sawDig = false;
  for (let guard = 0; guard < 200; guard++) {
    if ((await page.$('.mn-outcome')) !== null) break;
    const cs = await cells(page);
    const at = new Map(cs.map((c) => [`${c.x},${c.y}`, c]));
    const here = cs.find((c) => c.here)!;
    // a closed safe cell next to the open area; dig it from the figure or from an open neighbour
    let target: CellInfo | undefined;
    let stand: CellInfo | undefined;
    for (const c of cs) {
      if (OPEN.has(c.state) || isMine(c.x, c.y)) continue;
      for (let dy = -1; dy <= 1 && !stand; dy++)
        for (let dx = -1; dx <= 1 && !stand; dx++) {
          const n = at.get(`${c.x + dx},${c.y + dy}`);
          if ((dx || dy) && n && OPEN.has(n.state)) stand = n;
        }
      if (stand) {
        target = c;
        break;
      }
    }
    assert.ok(target && stand, 'a diggable safe cell exists until the board is cleared');
    let seq = await seqOf(page);
    const adjacent = Math.max(Math.abs(here.x - target.x), Math.abs(here.y - target.y)) === 1;
    if (!adjacent) {
      await page.click(cell(stand.x, stand.y));
      seq = await nextStep(page, seq);
    }
    await page.click(cell(target.x, target.y));
    await nextStep(page, seq);
    if ((await page.$('.mn-outcome')) !== null) break;
    if ((await page.$$('.mn-a-chain')).length > 1) sawChain = true;
    if ((await page.$$('.mn-a-dig')).length === 1) sawDig = true;
  }
  const outcome = await page.textContent('.mn-outcome');
  assert.match(outcome ?? '', /cleared 1 board/);
  assert.ok(sawDig, 'a dig answers one cell (dig channel)');
  assert.ok(sawChain, 'a chain tears open several cells (chain channel)');
  assert.ok(sent.length > 10);
  for (const a of sent) {
    const o = a as { type: string; intents?: unknown[] };
    assert.equal(o.type, 'batch', 'every intent goes through the batch entry');
    assert.equal(o.intents?.length, 1, 'one intent per frame');
  }
  assert.deepEqual(errorsOf(page), []);
  await shot(page, 'mines-cleared');
  await page.context().close();
});

test('[D1-1, D1-2, contract 1/5/9] a fog board shows no fog digit anywhere on the page; the four cell states differ by more than colour', {
  skip: missing ?? false,
}, async () => {
  const m = await newMatch(site, { ruleset: 'mines', config: { board: 'b_fog' }, seed: 1, seats: [{}] }, 0);
  const page = await openMatch(site, m.id, m.token);
  await ready(page);
  // AC-5/AC-6's path: open the wall gap, chain-open the fog pair, then dig the lone fog cell in full
  for (const [x, y] of [
    [3, 3],
    [3, 4],
    [3, 4],
    [3, 5],
    [3, 5],
    [3, 6],
  ]) {
    const seq = await seqOf(page);
    await page.click(cell(x, y));
    await nextStep(page, seq);
  }
  // the four states: open zero floor, open fog, closed, closed fog — each with its own shape
  const looks = await page.evaluate(() => {
    const out: Record<string, { bevel: boolean; texture: boolean; text: string }> = {};
    for (const s of ['floor', 'fog', 'closed', 'closed-fog']) {
      const f = document.querySelector(`.mn-grid [data-state="${s}"] .mn-face`) as HTMLElement | null;
      if (!f) continue;
      out[s] = {
        bevel: getComputedStyle(f).boxShadow.includes('3px 3px'),
        texture: f.querySelector('.mn-tex') !== null,
        text: f.textContent ?? '',
      };
    }
    return out;
  });
  assert.deepEqual(looks, {
    floor: { bevel: false, texture: false, text: '' },
    fog: { bevel: false, texture: true, text: '' },
    closed: { bevel: true, texture: false, text: '' },
    'closed-fog': { bevel: true, texture: true, text: '' },
  });
  for (const [x, y] of [
    [5, 1],
    [6, 0],
  ]) {
    const seq = await seqOf(page);
    await page.click(cell(x, y));
    await nextStep(page, seq);
  }
  const fog = [
    [0, 5, 2],
    [1, 5, 3],
    [6, 0, 2],
  ];
  for (const [x, y] of fog) {
    const el = page.locator(cell(x, y));
    assert.equal(await el.getAttribute('data-state'), 'fog', `(${x},${y}) reads as open fog`);
    assert.equal((await el.textContent())?.trim(), '', `(${x},${y}) shows no number`);
    const attrs = await el.evaluate((e) =>
      [...e.querySelectorAll('*'), e].flatMap((n) => [...n.attributes].map((a) => `${a.name}=${a.value}`)),
    );
    for (const a of attrs) {
      if (/^data-(x|y|idx)=/.test(a)) continue;
      const without = a.replace(/\(\d+,\d+\)/g, '');
      assert.doesNotMatch(without, /aria-label=.*\d/, `no digit in ${a}`);
    }
  }
  // nowhere on the page: no text line that names a fog cell next to a number, no raw digit field
  const html = await page.content();
  assert.doesNotMatch(html, /"digit":|&quot;digit&quot;/, 'no digit field reaches the DOM');
  const text = await page.evaluate(() => document.body.innerText);
  for (const line of text.split('\n')) {
    for (const [x, y] of fog)
      if (line.includes(`(${x},${y})`))
        assert.doesNotMatch(line.replace(/\(\d+,\d+\)|\d+ steps?\b|\d+ AP\b/g, ''), /\d/, line);
  }
  // the figure stands on (5,1), a digit: it is drawn as a border with a clear middle, below the digit
  const order = await page.evaluate(() => {
    const fig = document.querySelector('.mn-here .mn-fig') as HTMLElement;
    const digit = document.querySelector('.mn-here .mn-digit') as HTMLElement;
    return {
      border: getComputedStyle(fig).borderTopWidth,
      fill: getComputedStyle(fig).backgroundColor,
      fig: Number(getComputedStyle(fig).zIndex),
      digit: Number(getComputedStyle(digit).zIndex),
      shown: digit.textContent,
    };
  });
  assert.deepEqual([order.border, order.fill, order.shown], ['3px', 'rgba(0, 0, 0, 0)', '2']);
  assert.ok(order.digit > order.fig && order.fig > 2, 'digit above the figure above the flag layer (z 2)');
  await shot(page, 'mines-fog');
  await page.context().close();
});

test('[D1-3, D1-4, D1-5, D1-6, contract 2/4/10/11/12] pre-committing cursor, ring, hint, path preview, draw order, refusals and a voided stop in words, meters, keyboard, 360 px, axe', {
  skip: missing ?? false,
}, async () => {
  const m = await newMatch(
    site,
    { ruleset: 'mines', config: { board: 'b_batch', boards: 2 }, seed: 1, seats: [{}] },
    0,
  );
  const page = await openMatch(site, m.id, m.token, { width: 360, height: 780 });
  await ready(page);
  assert.ok((await overflowsX(page)) <= 0, 'no sideways scrolling at 360 px');
  // the first-time hint: not modal (the board stays usable), says a digit click moves the figure
  const hint = page.locator('.mn-hint');
  assert.match((await hint.textContent()) ?? '', /number moves your figure/);
  assert.equal(await hint.getAttribute('role'), null);
  const status = () => page.textContent('.mn-status');
  const act = async (sel: string, opts: { button?: 'right' } = {}) => {
    const seq = await seqOf(page);
    await page.click(sel, opts);
    return seq;
  };
  // b_batch: mines fill column x=1 but (1,3); move beside the closed columns first
  let seq = await act(cell(2, 3));
  await nextStep(page, seq);
  // the diggable ring: exactly the closed cells around the figure, always shown
  const cs = await cells(page);
  const here = cs.find((c) => c.here)!;
  assert.deepEqual([here.x, here.y], [2, 3]);
  const ring = cs.filter((c) => c.ring).map((c) => `${c.x},${c.y}`);
  assert.deepEqual(ring, ['1,2', '1,3', '1,4']);
  assert.equal((await page.$$('.mn-grid .mn-ring-mark')).length, 3, 'each ring cell carries the pick mark');
  // hover pre-commits: a far open cell previews a move with its path, a ring cell previews a dig
  await page.hover(cell(5, 6));
  assert.equal(await page.getAttribute(cell(5, 6), 'data-look'), 'move');
  assert.ok((await page.$$('.mn-grid [data-path="yes"]')).length >= 3, 'the path preview marks the path');
  assert.ok((await page.$('.mn-path polyline')) !== null);
  assert.match((await page.textContent('.mn-intent')) ?? '', /click moves you to \(5,6\), \d+ steps/);
  const cursorMove = await page.$eval(cell(5, 6), (e) => getComputedStyle(e).cursor);
  await page.hover(cell(1, 3));
  assert.equal(await page.getAttribute(cell(1, 3), 'data-look'), 'dig');
  assert.match((await page.textContent('.mn-intent')) ?? '', /click digs \(1,3\)/);
  const cursorDig = await page.$eval(cell(1, 3), (e) => getComputedStyle(e).cursor);
  assert.notEqual(cursorMove, cursorDig, 'the cursor differs for move and dig');
  assert.match(cursorDig, /url\(/);

  // refusals in words, from reject_reason and sub_reason
  await act(cell(0, 0));
  await page.waitForFunction(() => /Refused/.test(document.querySelector('.mn-status')?.textContent ?? ''));
  assert.match((await status()) ?? '', /dig \(0,0\) refused: that cell is not next to you/);
  assert.ok((await page.$(`${cell(0, 0)} .mn-refused-mark`)) !== null, 'the refused cell is marked');
  await act(cell(3, 2), { button: 'right' });
  await page.waitForFunction(() => /flag \(3,2\)/.test(document.querySelector('.mn-status')?.textContent ?? ''));
  assert.match((await status()) ?? '', /already open/);
  // place a flag (right click), then a left click on it is refused: pull the flag first
  seq = await act(cell(1, 3), { button: 'right' });
  await nextStep(page, seq);
  assert.equal(await page.getAttribute(cell(1, 3), 'data-state'), 'flag');
  await act(cell(1, 3));
  await page.waitForFunction(() => /pull the flag first/.test(document.querySelector('.mn-status')?.textContent ?? ''));
  // keyboard: focus the flagged cell, F pulls the flag; Enter digs it; arrows walk the focus
  await page.focus(cell(1, 3));
  seq = await seqOf(page);
  await page.keyboard.press('f');
  await nextStep(page, seq);
  assert.equal(await page.getAttribute(cell(1, 3), 'data-state'), 'closed');
  seq = await seqOf(page);
  await page.keyboard.press('Enter');
  await nextStep(page, seq);
  assert.equal(await page.getAttribute(cell(1, 3), 'data-state'), 'digit');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-y')), '2');
  // a dug mine reads as passable: dig (1,2), it shows as a walkable mine and the cursor previews a move onto it
  seq = await seqOf(page);
  await page.keyboard.press('Enter');
  await nextStep(page, seq);
  assert.equal(await page.getAttribute(cell(1, 2), 'data-state'), 'mine');
  assert.match((await page.getAttribute(cell(1, 2), 'aria-label')) ?? '', /dug mine, walkable/);
  await page.hover(cell(1, 2));
  assert.equal(await page.getAttribute(cell(1, 2), 'data-look'), 'move');
  assert.match((await page.textContent('.mn-intent')) ?? '', /a dug mine: walkable/);
  // AP and RAP meters; stop banks the rest
  assert.equal(await page.textContent('.mn-ap .mn-meter-value'), '4 / 8');
  seq = await act('.mn-stop');
  await nextStep(page, seq);
  assert.match((await status()) ?? '', /Round stopped/);
  assert.equal(await page.textContent('.mn-rap .mn-meter-value'), '4');
  assert.equal(await page.textContent('.mn-ap .mn-meter-value'), '8 / 8');

  // a voided stop (client side): a stop pressed while a clearing dig is in flight is voided, in words.
  // Hold the socket's act frames back so the stop lands inside the dig's frame.
  let hold = 0;
  await page.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((msg) => {
      const wait = String(msg).includes('"act"') ? hold : 0;
      setTimeout(() => server.send(msg), wait);
    });
    server.onMessage((msg) => ws.send(msg));
  });
  await page.reload();
  await ready(page);
  // clear b_batch's column x=0 but one cell; the figure ends on (0,5) beside the last safe cell (0,6)
  for (const [x, y] of [
    [1, 3],
    [0, 2],
    [0, 3],
    [0, 4],
    [0, 2],
    [0, 1],
    [0, 1],
    [0, 0],
    [0, 4],
    [0, 5],
    [0, 5],
  ]) {
    const s = await act(cell(x, y));
    await nextStep(page, s);
  }
  hold = 600;
  seq = await act(cell(0, 6));
  await page.click('.mn-stop');
  await nextStep(page, seq);
  await page.waitForFunction(() => /Voided/.test(document.querySelector('.mn-status')?.textContent ?? ''));
  assert.match((await status()) ?? '', /stop voided: the board was cleared first/);
  hold = 0;
  await shot(page, 'mines-360');
  const bad = await axeScan(page);
  assert.deepEqual(bad, [], bad.join('\n'));
  assert.deepEqual(errorsOf(page), []);
  await page.context().close();
});

test('[D1-6, F4, contract 11] a batch voided by the rules (a clearing dig with a stop) shows the voided stop in words', {
  skip: missing ?? false,
}, async () => {
  const m = await newMatch(
    site,
    { ruleset: 'mines', config: { board: 'b_batch', boards: 2 }, seed: 1, seats: [{}] },
    0,
  );
  const api = site.api;
  const steps = B_BATCH_TO_LAST_SAFE;
  for (const a of steps) {
    const r = await call(
      api,
      'POST',
      `/matches/${m.id}/actions`,
      { action: { type: 'batch', intents: [a] } },
      m.token!,
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  const r = await call(
    api,
    'POST',
    `/matches/${m.id}/actions`,
    { action: { type: 'batch', intents: [{ type: 'dig', cell: [0, 6] }, { type: 'stop' }] } },
    m.token!,
  );
  assert.equal(r.status, 200);
  const page = await openMatch(site, m.id, m.token);
  await ready(page);
  const text = await page.textContent('.mn-batch');
  assert.match(text ?? '', /Voided:.*intent 2 of 2 voided: not carried out: the round had already ended/);
  await page.context().close();
});

test('[D1-3-RUN] the chord hint shows once per run: dismissed in one match, it shows again in the next, not on a reload of the first', {
  skip: missing ?? false,
}, async () => {
  const a = await newMatch(site, { ruleset: 'mines', seed: 11, seats: [{}] }, 0);
  const b = await newMatch(site, { ruleset: 'mines', seed: 12, seats: [{}] }, 0);
  // one person (one browser storage) plays both runs
  const { page, errors } = await site.rig.person({ width: 1100, height: 900 });
  const go = async (m: { id: string; token: string | null }) => {
    await page.goto(`/match/${encodeURIComponent(m.id)}#token=${encodeURIComponent(m.token ?? '')}`);
    await ready(page);
  };
  await go(a);
  assert.equal(await page.locator('.mn-hint').count(), 1, 'the first run shows the hint');
  await page.click('.mn-hint-close');
  assert.equal(await page.locator('.mn-hint').count(), 0);
  await go(b);
  assert.equal(await page.locator('.mn-hint').count(), 1, 'a new run shows it again');
  await go(a);
  assert.equal(await page.locator('.mn-hint').count(), 0, 'the run it was dismissed in does not');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('[D1-TOUCH] on a touch screen a finger held on a cell flags it, and the click that ends the press neither digs nor moves', {
  skip: missing ?? false,
}, async () => {
  const m = await newMatch(
    site,
    { ruleset: 'mines', config: { board: 'b_batch', boards: 2 }, seed: 1, seats: [{}] },
    0,
  );
  const page = await openMatch(site, m.id, m.token, { width: 400, height: 800 });
  await ready(page);
  // b_batch: from (2,3) the closed column x=1 is beside the figure
  let seq = await seqOf(page);
  await page.click(cell(2, 3));
  seq = await nextStep(page, seq);
  const sel = cell(1, 2);
  assert.equal(await page.getAttribute(sel, 'data-ring'), 'yes');
  // the move is settled (its answer in, not only its frame): a press now is not refused as too early
  await page.waitForFunction(() => (document.querySelector('.mn-busy')?.textContent ?? '') === '');
  // the finger goes down and stays: the board flags the cell without waiting for the release
  const finger = { pointerType: 'touch', pointerId: 7, isPrimary: true, bubbles: true };
  await page.dispatchEvent(sel, 'pointerdown', finger);
  const flagged = await nextStep(page, seq);
  assert.equal(await page.getAttribute(sel, 'data-state'), 'flag');
  // the release and its click: not a second intent (the next step is the stop below, not a dig)
  await page.dispatchEvent(sel, 'pointerup', finger);
  await page.dispatchEvent(sel, 'click');
  await page.click('.mn-stop');
  assert.equal(await nextStep(page, flagged), flagged + 1);
  assert.deepEqual(errorsOf(page), []);
  await page.context().close();
});

test('[D1-DIGIT-OVER-PATH, contract 2] a digit is drawn over the move path, also while its cell is still opening', {
  skip: missing ?? false,
}, async () => {
  const m = await newMatch(
    site,
    { ruleset: 'mines', config: { board: 'b_batch', boards: 2 }, seed: 1, seats: [{}] },
    0,
  );
  const { page, errors } = await site.rig.person({ width: 1100, height: 900 });
  // every animation of the page stands still at its start, so the opening of the first board is
  // caught mid-way (an animated cell is a layer of its own: that is when a digit could sink)
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Animation.enable');
  await cdp.send('Animation.setPlaybackRate', { playbackRate: 0 });
  await page.goto(`/match/${encodeURIComponent(m.id)}#token=${encodeURIComponent(m.token ?? '')}`);
  await ready(page);
  // b_batch: column 2 is digits, the figure starts on floor at (3,3); it steps onto the digit at
  // (2,3), so the path it previews next starts over a digit (a move opens nothing: the opening of
  // the board stays caught)
  const seq = await seqOf(page);
  await page.click(cell(2, 3));
  await nextStep(page, seq);
  await page.hover(cell(5, 6));
  assert.equal(await page.getAttribute(cell(5, 6), 'data-look'), 'move');
  await page.waitForSelector('.mn-path polyline');
  // what lies on top at each digit's centre: the path and the digits are made hit-testable for
  // this question only (both let clicks through to the cell)
  const onTop = () =>
    page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = '.mn-path, .mn-path *, .mn-digit { pointer-events: auto !important; }';
      document.head.append(style);
      const path = document.querySelector('.mn-path');
      const out = [...document.querySelectorAll('.mn-grid .mn-digit')].map((d) => {
        const b = d.getBoundingClientRect();
        const stack = document.elementsFromPoint(b.left + b.width / 2, b.top + b.height / 2);
        const cellOf = d.closest('[data-idx]');
        return {
          cell: `${cellOf?.getAttribute('data-x')},${cellOf?.getAttribute('data-y')}`,
          animating: d.closest('[data-idx]')?.getAnimations({ subtree: true }).length ?? 0,
          digitFirst: stack.indexOf(d) >= 0 && stack.indexOf(d) < stack.indexOf(path as Element),
          underPath: stack.includes(path as Element),
        };
      });
      style.remove();
      return out;
    });
  const opening = await onTop();
  assert.ok(
    opening.length >= 2 && opening.some((d) => d.cell === '2,3'),
    `the premise: digits under the path, its start among them (${JSON.stringify(opening)})`,
  );
  assert.ok(
    opening.every((d) => d.animating > 0 && d.underPath),
    `the premise: those cells are opening, under the path (${JSON.stringify(opening)})`,
  );
  for (const d of opening) assert.ok(d.digitFirst, `while (${d.cell}) opens, the path covers its digit`);
  // and once every opening has played out
  await cdp.send('Animation.setPlaybackRate', { playbackRate: 1 });
  await page.evaluate(() => {
    for (const a of document.getAnimations()) a.finish();
  });
  const still = await onTop();
  assert.ok(still.length >= 2 && still.every((d) => d.animating === 0));
  for (const d of still) assert.ok(d.digitFirst, `the path covers the digit of (${d.cell})`);
  await shot(page, 'mines-digit-over-path');
  assert.deepEqual(errors, []);
  await page.context().close();
});
