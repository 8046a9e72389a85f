// Four people in four browser contexts play a GROUND round through Select and Reveal. Until the
// last choice is in, no page shows another seat's choice: neither its DOM (on the drawn board and on
// the generic view) nor any WebSocket frame it received. After Reveal every page shows all four, so
// the check would see a leak if there were one.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { shot } from '../support/shots.ts';
import { rigSuite } from './support.ts';

// one distinct choice per seat, so a choice's word names its seat
const PICKS = ['ATTACK', 'SUPPORT', 'INVESTIGATE', 'SOLVE'];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Text a person reads on the page, without the controls (menus offer every choice to everyone). */
function readable(page: Page): Promise<string> {
  return page.evaluate(() => {
    const main = document.querySelector('main')!.cloneNode(true) as HTMLElement;
    for (const el of main.querySelectorAll(
      'button, select, option, textarea, input, form, [aria-label="Legal actions"]',
    ))
      el.remove();
    return main.textContent ?? '';
  });
}

/** Everything a state frame says about seats other than `seat`'s own choice, as text. */
function frameWithoutMenu(frame: { [k: string]: Json }): string {
  const { menu: _m, yours: _y, ...rest } = frame;
  return JSON.stringify(rest);
}

rigSuite('GROUND in four browsers', (rig) => {
  test('[WEB-GR-SECRET, GR-R02, GR-R04] before Reveal no page shows another seat’s choice (DOM and WebSocket frames)', async () => {
    const created = await (
      await fetch(`${rig().url}/api/matches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ruleset: 'ground', seed: 7, config: { players: 4 }, seats: [{}, {}, {}, {}] }),
      })
    ).json();
    const id = created.id as string;
    const people: { page: Page; frames: { [k: string]: Json }[]; errors: string[] }[] = [];
    for (let seat = 0; seat < 4; seat++) {
      const { page, errors } = await rig().person({ width: 900, height: 900 });
      const frames: { [k: string]: Json }[] = [];
      page.on('websocket', (ws) =>
        ws.on('framereceived', (f) => {
          const data = JSON.parse(String(f.payload)) as { [k: string]: Json };
          if (data.type === 'state') frames.push(data);
        }),
      );
      // the share link of an open seat: join with a name
      await page.goto(`/match/${id}#join=${seat}`);
      await page.fill('#j-name', `player ${seat}`);
      await page.click('button:has-text("Join")');
      await page.waitForURL(/#token=/);
      people.push({ page, frames, errors });
    }
    for (const p of people) await p.page.waitForSelector('.match[data-status="running"]');

    const generic = async (page: Page, on: boolean) => {
      if ((await page.locator('#board-generic').count()) > 0) await page.setChecked('#board-generic', on);
    };
    const check = async (chosen: number) => {
      for (let j = 0; j < 4; j++) {
        const { page, frames } = people[j];
        const others = PICKS.filter((_, k) => k !== j && k < chosen);
        for (const on of [false, true]) {
          await generic(page, on);
          const text = await readable(page);
          for (const w of others) assert.ok(!text.includes(w), `page of seat ${j} shows ${w} before Reveal`);
        }
        for (const f of frames) {
          const players = ((f.view as { players?: { seat: number; choice?: Json }[] }).players ?? []) as {
            seat: number;
            choice?: Json;
          }[];
          for (const pl of players)
            assert.ok(pl.seat === j || pl.choice === undefined, `seat ${j} received seat ${pl.seat}'s choice`);
          const text = frameWithoutMenu(f);
          for (const w of others) assert.ok(!text.includes(w), `a frame to seat ${j} names ${w} before Reveal`);
        }
      }
    };

    for (let seat = 0; seat < 4; seat++) {
      const { page } = people[seat];
      await generic(page, true);
      const button = page
        .locator('ul[aria-label="Legal actions"] button', { hasText: `action ${PICKS[seat]}` })
        .first();
      await button.waitFor({ timeout: 15_000 });
      const seq = Number(await page.getAttribute('.match', 'data-seq'));
      await button.click();
      // every page hears of the commitment (only that a choice was made)
      for (const p of people)
        await p.page.waitForFunction(
          (s) => Number(document.querySelector('.match')?.getAttribute('data-seq')) > s,
          seq,
          {
            timeout: 15_000,
          },
        );
      if (seat < 3) await check(seat + 1);
      if (seat === 1) for (let j = 0; j < 4; j++) await shot(people[j].page, `ground-select-seat${j}`);
    }
    // Reveal: now every page shows every choice (the check above would have seen them)
    for (let j = 0; j < 4; j++) {
      const { page } = people[j];
      await generic(page, true);
      await page.waitForFunction(
        (words) => words.every((w) => (document.querySelector('main')?.textContent ?? '').includes(w)),
        PICKS,
        { timeout: 15_000 },
      );
      const text = await readable(page);
      for (const w of PICKS) assert.ok(text.includes(w), `after Reveal the page of seat ${j} shows ${w}`);
      await generic(page, false);
      await shot(page, `ground-revealed-seat${j}`);
    }
    for (const p of people) assert.deepEqual(p.errors, []);
  });
});
