// Issue 26's browser specs (the page for people who have never heard of Arbiter), one function per
// numbered finding, registered by boards.spec.ts on the browser suite's one server and browser.

import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { act, cloneJson, type GameEvent, type RulesetPackage } from '../../packages/engine/src/kernel/index.ts';
import { REGISTRY } from '../../packages/engine/src/registry.ts';
import { parseLog } from '../../src/runners/logfile.ts';
import { eventsGuarded } from '../../packages/engine/src/engine/audience.ts';
import { call } from '../server/helpers.ts';
import { animationsDone, axeScan } from '../support/axe.ts';
import { galleryShot } from '../support/shots.ts';
import { newMatch, type Site } from './boards-support.ts';
import { matchFinished } from './support.ts';

/** Until the match has finished (the server says so); then the API says so too. */
async function finished(site: Site, id: string): Promise<void> {
  await matchFinished(site.rig, id, 60_000);
  const r = await call(site.api, 'GET', `/matches/${encodeURIComponent(id)}`);
  assert.equal(r.body.status, 'finished', `match ${id} finished`);
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
  // bnc, not GROUND: the match starts when it is created, not when the spectator's page arrives, and
  // a loaded machine took 3-6 s to show the page; a bnc match of four random agents (156 steps at this
  // seed) lasts about 40 s at this pace, so the page always arrives with most of the match to come
  await page.selectOption('#c-ruleset', 'bnc');
  await page.waitForFunction(() => document.querySelectorAll('select[id^="c-seat-"]').length === 4);
  for (let i = 0; i < 4; i++) await page.selectOption(`#c-seat-${i}`, 'random');
  await page.selectOption('#c-mine', 'none');
  await page.selectOption('#c-pace', '250');
  await page.fill('#c-seed', '4');
  await page.click('button:has-text("Create match")');
  await page.waitForURL(/\/match\/[^/#]+$/);
  await page.waitForSelector('.match[data-status="running"]');
  // the match moves by steps the spectator can see, not all at once: four steps shown one after
  // another, and the match still running after them
  const seen = new Set<number>([await seqOf(page)]);
  for (let i = 0; i < 3; i++) {
    await page.waitForFunction(
      (s) => Number(document.querySelector('.match')?.getAttribute('data-seq')) > s,
      Math.max(...seen),
      { timeout: 10_000 },
    );
    seen.add(await seqOf(page));
  }
  assert.ok(seen.size >= 4, `the spectator saw steps ${[...seen].join(', ')}`);
  assert.equal(await page.getAttribute('.match', 'data-status'), 'running', 'still running after four steps');
  // pause: the board stays put while the match goes on, and the page says by how much
  await page.getByRole('button', { name: 'Pause' }).click();
  const held = await seqOf(page);
  await page.waitForFunction(() => Number(document.querySelector('.behind')?.getAttribute('data-behind')) >= 2);
  assert.equal(await seqOf(page), held, 'the board does not move while paused');
  assert.match((await page.textContent('.behind')) ?? '', /Paused\. \d+ moves behind the match/);
  await page.getByRole('button', { name: 'Next move' }).click();
  assert.ok((await seqOf(page)) > held, 'Next move shows the next step');
  // "Catch up" goes back to live. It used to show the waiting moves and stay paused, so the page fell
  // behind again with the match's next move 0.25 s later: a test waiting to read "0 behind" saw it
  // only when it looked inside that window, which a busy machine often missed (the old time-outs).
  await page.getByRole('button', { name: 'Catch up' }).click();
  await page.getByRole('button', { name: 'Pause' }).waitFor();
  assert.equal(await page.getAttribute('.behind', 'data-behind'), '0');
  assert.match((await page.textContent('.behind')) ?? '', /^Live$/);
  // live: the board follows the match again, and stays level with it
  const caught = await seqOf(page);
  await page.waitForFunction((s) => Number(document.querySelector('.match')?.getAttribute('data-seq')) > s, caught);
  assert.equal(await page.getAttribute('.behind', 'data-behind'), '0', 'live frames are shown, not queued');
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
    const got = await page.locator('.event-list li.ev').count();
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

async function waitNext(page: Page, seq: number): Promise<void> {
  await page.waitForFunction((s) => Number(document.querySelector('.match')?.getAttribute('data-seq')) > s, seq, {
    timeout: 15_000,
  });
}

async function openSeat(site: Site, id: string, token: string | null, width = 1100): Promise<Page> {
  const page = await person(site, width);
  await page.goto(`/match/${encodeURIComponent(id)}${token ? `#token=${encodeURIComponent(token)}` : ''}`);
  return page;
}

/** [WEB-STALE] item 3: a refusal or confirmation never stands as current after the next accepted action. */
export async function noStaleMessages(site: Site): Promise<void> {
  // mines: a refused dig, then an accepted flag: the refusal is no longer the current message
  const mm = await newMatch(
    site,
    { ruleset: 'mines', config: { board: 'b_batch', boards: 2 }, seed: 1, seats: [{}] },
    0,
  );
  const mines = await openSeat(site, mm.id, mm.token);
  await mines.waitForSelector('.mn-grid [data-idx]');
  const cell = (x: number, y: number) => `.mn-grid [data-x="${x}"][data-y="${y}"]`;
  let seq = await seqOf(mines);
  await mines.click(cell(2, 3));
  await waitNext(mines, seq);
  await mines.click(cell(0, 0));
  await mines.waitForFunction(() => /Refused/.test(document.querySelector('.mn-status')?.textContent ?? ''));
  seq = await seqOf(mines);
  await mines.click(cell(1, 3), { button: 'right' });
  await waitNext(mines, seq);
  assert.equal(await mines.getAttribute(cell(1, 3), 'data-state'), 'flag');
  assert.doesNotMatch((await mines.textContent('.mn-status')) ?? '', /Refused/, 'the old refusal is not current');
  assert.deepEqual(errorsOf(mines), []);
  await mines.context().close();

  // GROUND: "Sent." belongs to the round it was sent in
  const gm = await newMatch(
    site,
    {
      ruleset: 'ground',
      config: { players: 4 },
      seed: 8,
      seats: [{}, { agent: 'random' }, { agent: 'random' }, { agent: 'random' }],
    },
    0,
  );
  const ground = await openSeat(site, gm.id, gm.token);
  await ground.waitForSelector('.gr-board');
  await ground.waitForFunction(() => document.querySelectorAll('.gr-status.gr-chosen').length === 3);
  seq = await seqOf(ground);
  await ground.getByLabel(/GROUND/).check();
  await ground.getByRole('button', { name: /^Commit/ }).click();
  await waitNext(ground, seq);
  for (let guard = 0; guard < 30; guard++) {
    if (/Round [2-5]/.test((await ground.textContent('.gr-top')) ?? '')) break;
    const choice = ground.locator('.gr-prompt .gr-choice').first();
    if ((await choice.count()) === 0) {
      // the agents' turn: wait for a prompt of ours or the next round
      await ground.waitForFunction(
        () =>
          document.querySelector('.gr-prompt .gr-choice') !== null ||
          /Round [2-5]/.test(document.querySelector('.gr-top')?.textContent ?? ''),
      );
      continue;
    }
    seq = await seqOf(ground);
    await choice.click();
    await waitNext(ground, seq);
  }
  assert.match((await ground.textContent('.gr-top')) ?? '', /Round 2/);
  assert.doesNotMatch((await ground.textContent('.gr-note')) ?? '', /Sent/, 'round 1’s "Sent." is gone in round 2');
  assert.deepEqual(errorsOf(ground), []);
  await ground.context().close();

  // bnc: the submission note belongs to its turn
  const bm = await newMatch(
    site,
    { ruleset: 'bnc', seed: 6, seats: [{}, { agent: 'random' }, { agent: 'random' }, { agent: 'random' }] },
    0,
  );
  const bnc = await openSeat(site, bm.id, bm.token);
  await bnc.waitForSelector('.bn-me');
  // item 9: the chat's button says it spends the turn's action
  assert.match((await bnc.textContent('.bn-say-form button')) ?? '', /uses your action this turn/);
  const turnOf = async () => Number(/Turn (\d+)/.exec((await bnc.textContent('.bn-top')) ?? '')?.[1]);
  const t0 = await turnOf();
  seq = await seqOf(bnc);
  await bnc
    .getByRole('button', { name: /^Move to / })
    .first()
    .click();
  await waitNext(bnc, seq);
  await bnc.waitForFunction(
    (t) => Number(/Turn (\d+)/.exec(document.querySelector('.bn-top')?.textContent ?? '')?.[1]) > t,
    t0,
  );
  assert.doesNotMatch((await bnc.textContent('.bn-note')) ?? '', /Submitted for this turn|Submitted for turn/);
  assert.deepEqual(errorsOf(bnc), []);
  await bnc.context().close();
}

/** [WEB-RULES] item 4: rules of every ruleset one click from the lobby; every board says how to win and what to do now. */
export async function rulesEverywhere(site: Site): Promise<void> {
  const page = await person(site);
  await page.goto('/');
  await page.waitForSelector('.lobby[data-ready="yes"]');
  assert.match((await page.textContent('.intro')) ?? '', /Arbiter plays turn-based games/);
  const rules = await (await fetch(`${site.api}/rulesets`)).json();
  // the shipped rulesets (the suite's server also carries test-only ones, with no written rules)
  for (const r of (rules as { id: string }[]).filter((x) => REGISTRY.has(x.id))) {
    await page.goto('/');
    await page.waitForSelector('.lobby[data-ready="yes"]');
    await page.click(`table.rulesets a[href="/rules/${r.id}"]`);
    await page.waitForSelector('.rules-page[data-ready="yes"]');
    const text = (await page.textContent('.rules-page')) ?? '';
    const md = REGISTRY.get(r.id)!.rulesPage();
    // every rule id of the package's own rules page is on the web page
    const ids = [...md.matchAll(/^- \*\*([A-Za-z0-9-]+)\*\*/gm)].map((m) => m[1]);
    assert.ok(ids.length > 3, `${r.id}: the rules page lists rules`);
    for (const id of ids) assert.ok(text.includes(id), `${r.id}: rule ${id} on the page`);
    assert.match(text, /How to win:/);
  }
  // a board: how to win, what you can do now, and the rules link
  const m = await newMatch(site, { ruleset: 'tictactoe', seats: [{}, { agent: 'random' }] }, 0);
  const board = await openSeat(site, m.id, m.token);
  await board.waitForSelector('.ttt-cell');
  const guide = (await board.textContent('.guide')) ?? '';
  assert.match(guide, /How to win: Get three of your marks in a row/);
  assert.match(guide, /What you can do now: Click an empty cell/);
  assert.ok(await board.$('.guide a[href="/rules/tictactoe"]'));
  assert.deepEqual(errorsOf(page), []);
  await page.context().close();
  await board.context().close();
}

/** [WEB-LOBBY] item 6: the create form refuses bad input in place; fixtures selectable; no fake defaults; open seats and used invites said. */
export async function lobbyTraps(site: Site): Promise<void> {
  const page = await person(site);
  await page.goto('/');
  await page.waitForSelector('.lobby[data-ready="yes"]');
  await page.selectOption('#c-ruleset', 'mines');
  await page.click('summary:has-text("Configuration")');
  // the spawn field is empty (its default is the centre), not 0; the declared schema makes it an
  // [x, y] pair, which the form takes as JSON text
  const spawn = page.getByLabel(/^spawn\b/);
  assert.equal(await spawn.inputValue(), '');
  // bad JSON refuses in place
  await page.getByLabel('board', { exact: true }).selectOption({ label: 'other (JSON)' });
  await page.locator('.config textarea').first().fill('{"w": 3,');
  await page.click('button:has-text("Create match")');
  await page.waitForFunction(() =>
    /Not created/.test(document.querySelector('.create [role="alert"]')?.textContent ?? ''),
  );
  assert.equal(new URL(page.url()).pathname, '/', 'no match was created');
  // a fixture board by name
  await page.goto('/');
  await page.waitForSelector('.lobby[data-ready="yes"]');
  await page.selectOption('#c-ruleset', 'mines');
  await page.click('summary:has-text("Configuration")');
  await page.getByLabel('board', { exact: true }).selectOption('b_chain');
  await page.fill('#c-name', 'fixture fan');
  await page.click('button:has-text("Create match")');
  await page.waitForURL(/\/match\/[^/#]+#token=/);
  await page.waitForSelector('.mn-grid [data-idx]');
  // open seats are named while the match waits
  await page.goto('/');
  await page.waitForSelector('.lobby[data-ready="yes"]');
  await page.selectOption('#c-ruleset', 'tictactoe');
  await page.waitForFunction(() => document.querySelectorAll('select[id^="c-seat-"]').length === 2);
  await page.selectOption('#c-seat-1', 'open');
  await page.selectOption('#c-mine', '0');
  await page.click('button:has-text("Create match")');
  await page.waitForURL(/\/match\/[^/#]+#token=/);
  await page.waitForSelector('.match[data-status="waiting"]');
  // the live frame and the match record (which names the open seats) arrive separately
  await page
    .waitForFunction(() => /open seat/.test(document.querySelector('.turn')?.textContent ?? ''), null, {
      timeout: 10_000,
    })
    .catch(() => {});
  assert.match((await page.textContent('.turn')) ?? '', /Waiting for players to take the open seat: 1/);
  const id = decodeURIComponent(/\/match\/([^/#]+)/.exec(page.url())![1]);
  // seat 0's invite link, used: the visitor is told the seat is taken
  const other = await person(site);
  await other.goto(`/match/${encodeURIComponent(id)}#join=0`);
  await other.waitForSelector('.seat-taken');
  assert.match((await other.textContent('.seat-taken')) ?? '', /Seat 0 is taken \(by .+\).*seat 1 is still open/s);
  assert.deepEqual(errorsOf(page), []);
  await page.context().close();
  await other.context().close();
}

/** [WEB-OUTCOME] item 8 and [WEB-TTT-WORDS] item 9: the loser reads "You lost", sees the line, the last move, Play again; refused clicks say why. */
export async function tictactoeSpeaks(site: Site): Promise<void> {
  const m = await newMatch(site, { ruleset: 'tictactoe', seats: [{}, { agent: 'first' }] }, 0);
  const page = await openSeat(site, m.id, m.token);
  await page.waitForSelector('.ttt-cell');
  const click = async (cell: number) => {
    const seq = await seqOf(page);
    await page.click(`.ttt-cell[data-cell="${cell}"]`);
    await waitNext(page, seq);
    await page.waitForFunction(
      () =>
        document.querySelector('.match')?.getAttribute('data-status') === 'finished' ||
        document.querySelector('.ttt-cell:not([aria-disabled="true"])') !== null,
    );
  };
  await click(8);
  // agent "first" took cell 0: the last move is marked there
  assert.equal(await page.getAttribute('.ttt-cell[data-cell="0"]', 'data-last'), 'yes');
  // a click on a marked cell says why nothing happened
  await page.click('.ttt-cell[data-cell="0"]', { force: true });
  assert.match((await page.textContent('.ttt-wrap [role="alert"]')) ?? '', /row 1, column 1 is already marked O/);
  await click(7);
  assert.equal(await page.textContent('.ttt-wrap [role="alert"]'), '', 'the refusal went with the next accepted move');
  await click(3);
  await page.waitForSelector('.match[data-status="finished"]');
  assert.match((await page.textContent('.turn')) ?? '', /You lost: seat 1 won \(three in a row\)/);
  const line = await page.$$eval('.ttt-cell[data-line="yes"]', (els) => els.map((e) => e.getAttribute('data-cell')));
  assert.deepEqual(line, ['0', '1', '2']);
  assert.ok(await page.$('.turn a.again[href^="/?ruleset=tictactoe"]'), 'Play again');
  // [WEB-TTT-CELLS] events name a cell as the board shows it (row and column), not by a number the
  // board never draws
  const words = (await page.textContent('.event-list')) ?? '';
  assert.match(words, /O marks row 1, column 3/);
  assert.doesNotMatch(words, /cell \d/);
  // the viewer names a person's seat as a player, not "remote"
  await page.goto(`/replay/${encodeURIComponent(m.id)}`);
  await page.waitForSelector('[data-testid="hash"]');
  assert.doesNotMatch((await page.textContent('.viewer .status-line')) ?? '', /remote/);
  assert.match((await page.textContent('.viewer .status-line')) ?? '', /0 a player, 1 agent first/);
  assert.deepEqual(errorsOf(page), []);
  await page.context().close();
}

/** Every event type (with an underscore: an internal name) a stored log holds. */
function internalNames(logText: string): string[] {
  const log = parseLog(logText);
  const types = new Set<string>();
  for (const e of [...(log.header.setup_events ?? []), ...log.entries.flatMap((x) => x.events ?? [])])
    if (typeof e.type === 'string' && e.type.includes('_')) types.add(e.type);
  return [...types];
}

/**
 * [WEB-GROUND-REVEAL] item 5 and [WEB-EVENT-WORDS] item 7: GROUND's reveal shows every choice
 * together until dismissed; every ruleset's events read as words, rule ids and raw JSON only
 * behind the details switch, long runs of one kind folded.
 */
export async function revealAndWords(site: Site): Promise<void> {
  const gm = await newMatch(
    site,
    {
      ruleset: 'ground',
      config: { players: 4 },
      seed: 8,
      seats: [{}, { agent: 'random' }, { agent: 'random' }, { agent: 'random' }],
    },
    0,
  );
  const ground = await openSeat(site, gm.id, gm.token);
  await ground.waitForSelector('.gr-board');
  await ground.waitForFunction(() => document.querySelectorAll('.gr-status.gr-chosen').length === 3);
  const seq = await seqOf(ground);
  await ground.getByLabel(/GROUND/).check();
  await ground.getByRole('button', { name: /^Commit/ }).click();
  await waitNext(ground, seq);
  await ground.waitForSelector('.gr-reveal-moment');
  assert.equal(await ground.locator('.gr-reveal-moment li').count(), 4, 'all four choices together');
  assert.match((await ground.textContent('.gr-reveal-moment')) ?? '', /you \(seat 0\) GROUND/);
  await ground.getByRole('button', { name: 'Dismiss' }).click();
  assert.equal(await ground.locator('.gr-reveal-moment').count(), 0);
  // the Problem cards: a claim ribbon sits below the points, not over them
  await ground.context().close();

  const page = await person(site);
  for (const b of BOT_MATCHES) {
    const m = await newMatch(site, {
      ruleset: b.ruleset,
      seed: 5,
      ...(b.config ? { config: b.config } : {}),
      seats: Array.from({ length: b.seats }, () => ({ agent: 'random' })),
    });
    await finished(site, m.id);
    const log = await (await fetch(`${site.api}/matches/${m.id}/log`)).text();
    await page.goto(`/match/${encodeURIComponent(m.id)}`);
    await page.waitForSelector('.match[data-status="finished"]');
    await page.waitForFunction(() => document.querySelectorAll('.event-list li.ev').length > 0);
    // the ruleset's words arrive with its chunk, which may load after the first frame
    await page.waitForSelector('.event-list[data-words="ruleset"]');
    const text = (await page.textContent('.event-list')) ?? '';
    for (const name of internalNames(log)) assert.ok(!text.includes(name), `${b.ruleset}: "${name}" in the words`);
    assert.doesNotMatch(text, /\{"|sealed for turn|Problem -1|seat -1/, `${b.ruleset}: no JSON or internals`);
    assert.doesNotMatch(
      text,
      /\((GR|TTT|BNC|R|U)[-A-Z0-9]*\)|\[[A-Za-z]+\d+\]/,
      `${b.ruleset}: no rule ids in the words`,
    );
    if (b.ruleset === 'mines')
      assert.ok((await page.locator('.event-list details summary:has-text("more like this")').count()) > 0, 'folded');
    if (b.ruleset === 'ground' || b.ruleset === 'duel') {
      await page.check('#ev-details');
      assert.match(
        (await page.textContent('.event-list')) ?? '',
        /rules: (GR|[A-Z][a-z]+)/,
        `${b.ruleset}: ids behind details`,
      );
    }
    if (b.ruleset === 'duel') assert.match((await page.textContent('.du-top')) ?? '', /Turn \d+ of \w+ \(frame #\d+\)/);
  }
  assert.deepEqual(errorsOf(page), []);
  await page.context().close();
}

/**
 * [WEB-A11Y-ALL] item 11: axe-core finds no violation of any impact (heading order included) on
 * the lobby, a rules page, every board and the viewer, at desktop width and at 360 px; the gallery
 * of screenshots is taken on the way.
 */
export async function axeEverywhere(site: Site): Promise<void> {
  const found: string[] = [];
  const seated = async (ruleset: string, config?: Record<string, unknown>) => {
    const others = { tictactoe: 1, ground: 3, mines: 0, bnc: 3, duel: 1 }[ruleset] ?? 1;
    return newMatch(
      site,
      {
        ruleset,
        seed: 4,
        ...(config ? { config } : {}),
        seats: [{}, ...Array.from({ length: others }, () => ({ agent: 'random' }))],
      },
      0,
    );
  };
  const pages: { name: string; path: () => Promise<string>; ready: string; open?: string }[] = [
    // the create form's configuration open too (after the gallery's picture), so it is checked as well
    {
      name: 'lobby',
      path: async () => '/',
      ready: '.lobby[data-ready="yes"]',
      open: 'summary:has-text("Configuration")',
    },
    { name: 'rules-ground', path: async () => '/rules/ground', ready: '.rules-page[data-ready="yes"]' },
  ];
  for (const [r, sel] of [
    ['tictactoe', '.ttt-cell'],
    ['ground', '.gr-board'],
    ['mines', '.mn-grid [data-idx]'],
    ['bnc', '.bn-me'],
    ['duel', '.du-board'],
  ] as const) {
    pages.push({
      name: `board-${r}`,
      path: async () => {
        const m = await seated(r, r === 'ground' ? { players: 4 } : undefined);
        return `/match/${encodeURIComponent(m.id)}#token=${encodeURIComponent(m.token ?? '')}`;
      },
      ready: sel,
    });
  }
  pages.push({
    name: 'viewer-bnc',
    path: async () => {
      const m = await newMatch(site, {
        ruleset: 'bnc',
        seed: 2,
        seats: Array.from({ length: 4 }, () => ({ agent: 'random' })),
      });
      await finished(site, m.id);
      return `/replay/${encodeURIComponent(m.id)}`;
    },
    ready: '[data-testid="hash"]',
  });
  const visits: { name: string; path: string; ready: string; open?: string }[] = [];
  for (const p of pages) visits.push({ ...p, path: await p.path() });
  // one person (browser context) per width visits every page, rather than one per page and width
  for (const width of [1100, 360]) {
    const page = await person(site, width, width === 360 ? 740 : 900);
    for (const p of visits) {
      await page.goto(p.path);
      await page.waitForSelector(p.ready, { timeout: 30_000 });
      // the gallery's picture of the settled page (axeScan waits for that too)
      await animationsDone(page);
      await galleryShot(page, `${p.name}${width === 360 ? '-360' : ''}`);
      if (p.open) await page.click(p.open);
      found.push(...(await axeScan(page, { impacts: 'all' })).map((f) => `${p.name} @${width}: ${f}`));
      assert.deepEqual(errorsOf(page), [], `${p.name} @${width}`);
    }
    await page.context().close();
  }
  assert.deepEqual(found, [], found.join('\n'));
}
