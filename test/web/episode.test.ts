// Issue 25's Show-it for live episodes: a throw-away `arbiter serve --lineup FILE` (its own process,
// keys only in its environment) starts a whole bnc episode of four model seats from three providers
// (the local stand-in, test/agents/llm-server.ts), recording cassettes; a spectator page in Chromium
// sees beats appear while the match runs, and after the end the seats' transcripts through the
// match page's links; the log then re-runs byte-identically from the cassettes (`arbiter play
// --lineup FILE --replay-llm`) and passes `arbiter replay --verify`. No response or WebSocket frame
// the browser or the test receives holds a key. The lobby creates an episode with a pace too.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildWebIfStale, ROOT, WEB_DIST } from '../../scripts/web-build.mjs';
import { cli } from '../support/cli.ts';
import { startModelServer, type ModelServer } from '../agents/llm-server.ts';
import { threeProviderLineup } from '../server/episode-lineup.ts';
import { awaitOutput } from '../server/helpers.ts';
import { shot } from '../support/shots.ts';
import { launchChromium } from '../support/chromium.ts';
import { chromiumInstalled } from './support.ts';

const KEYS = {
  EPISODE_KEY_OPENAI: 'sk-live-openai-9d02be71',
  EPISODE_KEY_ANTHROPIC: 'sk-live-anthropic-c4e7a3',
  EPISODE_KEY_GOOGLE: 'live-google-key-0b6f52',
};
const SEED = 7;

type Serve = { proc: ChildProcess; url: string; episode: string; out: () => string; stop(): Promise<number | null> };

/**
 * `arbiter serve --lineup FILE` in its own process, from the built command line (build/cli, which the
 * runner rebuilds when stale; tsx would compile the sources in the child first), with the keys in
 * its environment only.
 */
async function serve(db: string, lineup: string, cassette: string): Promise<Serve> {
  const proc = spawn(
    process.execPath,
    [
      join(ROOT, 'bin/arbiter.js'),
      'serve',
      '--port',
      '0',
      '--db',
      db,
      '--quiet',
      '--web',
      WEB_DIST,
      '--lineup',
      lineup,
      '--pace-ms',
      '20',
      '--seed',
      String(SEED),
      '--record-llm',
      cassette,
      '--agent-deadline-ms',
      '120000',
      '--rate-limit',
      '100000',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...KEYS, ARBITER_FROM_SOURCE: undefined } },
  );
  const started = await awaitOutput(proc, /listening (http:\/\/\S+)[\s\S]*episode \S+: (\S+)/, 60_000);
  const [, url, episode] = started.match;
  const { exited } = started;
  return {
    proc,
    url,
    episode,
    out: started.output,
    stop() {
      proc.kill('SIGTERM');
      return exited;
    },
  };
}

describe('live episode in a browser', () => {
  if (!chromiumInstalled()) {
    console.log('skipped: chromium not installed');
    return;
  }
  let models: ModelServer;
  let srv: Serve;
  let browser: Browser;
  let dir: string;
  let lineup: string;
  let cassette: string;
  /** Every body the browser and the test received (responses, WebSocket frames). */
  const seen: string[] = [];

  before(async () => {
    assert.ok(await buildWebIfStale({ quiet: true }), 'the web page builds');
    models = await startModelServer();
    dir = mkdtempSync(join(tmpdir(), 'arbiter-episode-web-'));
    lineup = join(dir, 'three.yaml');
    cassette = join(dir, 'cassette');
    writeFileSync(lineup, threeProviderLineup(models.url));
    // the stand-in answers nothing until the spectator is watching (preflights are answered)
    void models.hold(0);
    srv = await serve(join(dir, 'db.sqlite'), lineup, cassette);
    browser = await launchChromium(['--no-sandbox', '--disable-gpu']);
  });
  after(async () => {
    models?.release();
    await browser?.close().catch(() => undefined);
    if (srv) assert.equal(await srv.stop(), 0, srv.out());
    await models?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function page(): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, baseURL: srv.url });
    const p = await context.newPage();
    const errors: string[] = [];
    p.on('pageerror', (e) => errors.push(String(e)));
    p.on('response', (r) => {
      void r.text().then(
        (t) => seen.push(t),
        () => undefined,
      );
    });
    p.on('websocket', (ws) => ws.on('framereceived', (f) => seen.push(String(f.payload))));
    return { page: p, errors };
  }

  async function record(id: string): Promise<{ status: string; seq: number }> {
    const text = await (await fetch(`${srv.url}/api/matches/${id}`)).text();
    seen.push(text);
    return JSON.parse(text);
  }

  test('[LLM-LIVE] a bnc episode of four model seats from three providers, watched live in Chromium, re-runs byte-identically from its cassettes', async () => {
    const id = srv.episode.split('/match/')[1];
    const { page: p, errors } = await page();
    await p.goto(srv.episode);
    await p.waitForSelector('.match[data-status="running"]');
    // let the models answer 24 requests at a time; each time the match stands still, the page must
    // have caught up with the server, and beats must show on it before the end
    let beatsWhileRunning = 0;
    // the page says when the match is over (it follows the server); the loop then stops holding
    const over = p.waitForSelector('.match[data-status="finished"]', { timeout: 0 }).then(
      () => 'over' as const,
      () => 'over' as const,
    );
    for (let round = 0; round < 60 && beatsWhileRunning === 0; round++) {
      models.release();
      const held = models.hold(24);
      const m0 = await Promise.race([held.then(() => 'held' as const), over]);
      if (m0 === 'over') break;
      const m = await record(id);
      assert.equal(m.status, 'running', 'held answers keep the match running');
      await p.waitForSelector(`.match[data-seq="${m.seq}"]`);
      beatsWhileRunning = await p.locator('li.bn-beat').count();
    }
    models.release();
    assert.ok(beatsWhileRunning > 0, 'beats appeared on the spectator page while the match ran');
    await shot(p, 'episode-live');
    await p.waitForSelector('.match[data-status="finished"]', { timeout: 120_000 });
    // the transcripts, from the match page's links
    await p.waitForSelector('.transcripts a');
    const links = await p.locator('.transcripts a').allTextContents();
    assert.deepEqual(links, ['seat 0', 'seat 1', 'seat 2', 'seat 3']);
    await p.locator('.transcripts a', { hasText: 'seat 2' }).click();
    await p.waitForLoadState();
    const text = await p.locator('body').innerText();
    assert.match(text, /attempts; tokens \d+ in, \d+ out/);
    assert.deepEqual(errors, []);

    // the served log, then the same episode from the cassettes alone: the same bytes
    const served = await (await fetch(`${srv.url}/api/matches/${id}/log`)).text();
    seen.push(served);
    const header = JSON.parse(served.split('\n')[0]);
    assert.deepEqual(
      header.seats.map((s: { provider: string }) => s.provider),
      ['openai', 'anthropic', 'google', 'openai'],
    );
    const servedFile = join(dir, 'served.jsonl');
    writeFileSync(servedFile, served);
    const rerun = join(dir, 'rerun.jsonl');
    const played = await cli([
      'play',
      'bnc',
      '--seed',
      String(SEED),
      '--lineup',
      lineup,
      '--replay-llm',
      cassette,
      '--log',
      rerun,
      '--quiet',
    ]);
    assert.equal(played.code, 0, played.err);
    assert.equal(readFileSync(rerun, 'utf8'), served, 'the re-run from the cassettes is the served log, byte for byte');
    const verified = await cli(['replay', servedFile, '--verify']);
    assert.equal(verified.code, 0, verified.err);

    for (const t of seen)
      for (const [name, key] of Object.entries(KEYS))
        assert.ok(!t.includes(key), `${name}'s value reached the browser`);
  });

  test('[LLM-LIVE] the lobby creates an episode from a line-up with a pace of its own', async () => {
    const { page: p, errors } = await page();
    const bodies: string[] = [];
    p.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/matches')) bodies.push(r.postData() ?? '');
    });
    await p.goto('/');
    await p.waitForSelector('.lobby[data-ready="yes"]');
    await p.selectOption('#c-ruleset', 'bnc');
    await p.waitForSelector('#c-lineup');
    await p.selectOption('#c-lineup', 'episode-three-providers');
    await p.waitForSelector('[data-testid="lineup-seats"]');
    assert.equal(await p.locator('select[id^="c-seat-"]').count(), 0, 'the line-up seats every seat');
    await p.selectOption('#c-pace', '250');
    await p.click('button[type="submit"]');
    await p.waitForURL(/\/match\//);
    const id = decodeURIComponent(new URL(p.url()).pathname.split('/match/')[1]);
    assert.equal(bodies.length, 1);
    const body = JSON.parse(bodies[0]);
    assert.equal(body.lineup, 'episode-three-providers');
    assert.equal(body.agentDelayMs, 250);
    assert.equal(body.seats, undefined);
    const rec = await record(id);
    assert.deepEqual((rec as unknown as { lineup: unknown }).lineup, { id: 'episode-three-providers', version: '1' });
    await p.waitForSelector('.match[data-status="running"], .match[data-status="finished"]');
    assert.deepEqual(errors, []);
    for (const t of seen)
      for (const [name, key] of Object.entries(KEYS))
        assert.ok(!t.includes(key), `${name}'s value reached the browser`);
  });
});
