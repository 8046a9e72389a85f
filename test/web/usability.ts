// Issue 26's browser specs (the page for people who have never heard of Arbiter), one function per
// numbered finding, registered by boards.test.ts so they share its one server and one browser.

import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { act, cloneJson, type GameEvent, type RulesetPackage } from '../../src/kernel/index.ts';
import { REGISTRY } from '../../src/registry.ts';
import { parseLog } from '../../src/runners/logfile.ts';
import { eventsGuarded } from '../../src/server/secrets.ts';
import { call } from '../server/helpers.ts';
import { newMatch, type Site } from './boards-support.ts';

/** Poll the API until the match has finished. */
export async function finished(site: Site, id: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const r = await call(site.api, 'GET', `/matches/${encodeURIComponent(id)}`);
    if (r.body.status === 'finished') return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`match ${id} did not finish`);
}

const pageErrors = new WeakMap<Page, string[]>();
const errorsOf = (page: Page): string[] => pageErrors.get(page) ?? [];

/** A person's page in a fresh context (its uncaught errors kept for errorsOf). */
async function person(site: Site, width = 1100, height = 900): Promise<Page> {
  const { page, errors } = await site.rig.person({ width, height });
  pageErrors.set(page, errors);
  return page;
}

const seqOf = async (page: Page) => Number(await page.getAttribute('.match', 'data-seq'));

/** [WEB-PACE] item 1: agents' pace chosen in the lobby; a spectator pauses and sees how far behind it is. */
export async function paceFromTheLobby(site: Site): Promise<void> {
  const page = await person(site);
  await page.goto('/');
  await page.waitForSelector('.lobby[data-ready="yes"]');
  await page.selectOption('#c-ruleset', 'ground');
  await page.waitForFunction(() => document.querySelectorAll('select[id^="c-seat-"]').length === 4);
  for (let i = 0; i < 4; i++) await page.selectOption(`#c-seat-${i}`, 'random');
  await page.selectOption('#c-mine', 'none');
  await page.selectOption('#c-pace', '250');
  await page.click('button:has-text("Create match")');
  await page.waitForURL(/\/match\/[^/#]+$/);
  await page.waitForSelector('.match[data-status="running"]');
  // the match moves by steps the spectator can see, not all at once
  const seen = new Set<number>();
  for (let i = 0; i < 30 && seen.size < 4; i++) {
    seen.add(await seqOf(page));
    await page.waitForTimeout(100);
  }
  assert.ok(seen.size >= 4, `the spectator saw steps ${[...seen].join(', ')}`);
  assert.equal(await page.getAttribute('.match', 'data-status'), 'running', 'still running after 3 s');
  // pause: the board stays put while the match goes on, and the page says by how much
  await page.getByRole('button', { name: 'Pause' }).click();
  const held = await seqOf(page);
  await page.waitForFunction(() => Number(document.querySelector('.behind')?.getAttribute('data-behind')) >= 2);
  assert.equal(await seqOf(page), held, 'the board does not move while paused');
  assert.match((await page.textContent('.behind')) ?? '', /Paused\. \d+ moves behind the match/);
  await page.getByRole('button', { name: 'Next move' }).click();
  assert.ok((await seqOf(page)) > held, 'Next move shows the next step');
  await page.getByRole('button', { name: 'Catch up' }).click();
  await page.waitForFunction(() => document.querySelector('.behind')?.getAttribute('data-behind') === '0');
  assert.deepEqual(errorsOf(page), []);
  await page.context().close();
}

/** What a spectator perceives of every step of a stored log: the server's own cut (eventsGuarded). */
function spectatorEvents(pkg: RulesetPackage, logText: string): number {
  const log = parseLog(logText);
  const rs = pkg.ruleset;
  const setup: GameEvent[] = [];
  let state = rs.setup(cloneJson(log.header.config ?? {}) as never, log.header.seed, setup);
  let n = eventsGuarded(pkg, state, null, setup).events.length;
  for (const e of log.entries) {
    if (e.result === 'rejected') continue;
    const r = act(rs, state, e.seat, e.input);
    if (!r.ok) throw new Error(`step ${e.seq} does not replay`);
    state = r.state;
    n += eventsGuarded(pkg, state, null, r.events).events.length;
  }
  return n;
}

const BOT_MATCHES: { ruleset: string; seats: number; config?: Record<string, unknown> }[] = [
  { ruleset: 'tictactoe', seats: 2 },
  { ruleset: 'ground', seats: 4, config: { players: 4 } },
  { ruleset: 'mines', seats: 1 },
  { ruleset: 'bnc', seats: 4 },
  { ruleset: 'duel', seats: 2 },
];

/**
 * [WEB-REPLAY-AUDIENCE] item 2: the viewer's default (spectator) perspective lists, for every
 * ruleset, exactly the events a spectator perceives (none hidden, none extra); bnc's beats panel
 * holds the beats so far; a running match's replay says it is running instead of failing.
 */
export async function replaySpectatorSeesWhatSpectatorsSee(site: Site): Promise<void> {
  const page = await person(site);
  for (const b of BOT_MATCHES) {
    const m = await newMatch(site, {
      ruleset: b.ruleset,
      seed: 3,
      ...(b.config ? { config: b.config } : {}),
      seats: Array.from({ length: b.seats }, () => ({ agent: 'random' })),
    });
    await finished(site, m.id);
    const log = (await (await fetch(`${site.api}/matches/${m.id}/log`)).text()) as string;
    const want = spectatorEvents(REGISTRY.get(b.ruleset)!, log);
    assert.ok(want > 0, `${b.ruleset}: a spectator perceives some events`);
    await page.goto(`/replay/${encodeURIComponent(m.id)}`);
    await page.waitForSelector('[data-testid="hash"]', { timeout: 30_000 });
    assert.equal(await page.inputValue('#v-persp'), 'spectator', `${b.ruleset}: spectator is the default`);
    const got = await page.locator('.event-list > li > ul > li').count();
    assert.equal(got, want, `${b.ruleset}: events listed for the spectator at the end`);
    if (b.ruleset === 'bnc') {
      const timeline = await page.locator('section[aria-label="Beats timeline"] .bn-beat').count();
      const panel = await page.locator('section[aria-label="Beats"] .bn-beat').count();
      assert.ok(timeline > 0, 'the match has beats');
      assert.equal(panel, timeline, 'the board’s beats panel holds every beat at the last step');
      // jump to a middle beat: the beats panel holds none from a later turn
      const buttons = page.locator('section[aria-label="Beats timeline"] .bn-beat button');
      await buttons.nth(Math.floor(timeline / 2)).click();
      const turnNow = Number(/Turn (\d+)/.exec((await page.textContent('.bn-top')) ?? '')?.[1]);
      const panelTurns = await page
        .locator('section[aria-label="Beats"] .bn-beat-turn')
        .allInnerTexts()
        .then((t) => t.map((x) => Number(/\d+/.exec(x)?.[0])));
      assert.ok(panelTurns.length > 0 && panelTurns.every((t) => t <= turnNow), `beats up to turn ${turnNow}`);
      const marked = await page
        .locator('section[aria-label="Beats timeline"] .bn-beat-now .bn-beat-turn')
        .allInnerTexts()
        .then((t) => t.map((x) => Number(/\d+/.exec(x)?.[0])));
      assert.ok(marked.length > 0 && marked.every((t) => t <= turnNow), `marked beats ${marked} at turn ${turnNow}`);
    }
  }
  // a match still waiting for players: the viewer says so and links to the live page
  const waiting = await newMatch(site, { ruleset: 'tictactoe', seats: [{}, { agent: 'random' }] });
  await page.goto(`/replay/${encodeURIComponent(waiting.id)}`);
  await page.waitForSelector('[data-testid="still-running"]');
  assert.doesNotMatch((await page.textContent('main')) ?? '', /seed must be/);
  assert.ok(await page.$(`[data-testid="still-running"] a[href="/match/${waiting.id}"]`));
  assert.deepEqual(errorsOf(page), []);
  await page.context().close();
}
