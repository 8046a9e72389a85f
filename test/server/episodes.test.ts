// Issue 25 item 5: live episodes on `arbiter serve`. A line-up of four model seats from three
// providers (the local stand-in, test/agents/llm-server.ts) named by the operator, created over the
// API, played through paced, its transcripts readable after the end and refused while it runs to
// anyone who must not read them; line-ups are chosen by id only; keys never leave the server.
// The browser half (the lobby, the spectator page, the re-run from cassettes) is test/web/episode.test.ts.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { startModelServer, type ModelServer } from '../agents/llm-server.ts';
import { threeProviderLineup } from './episode-lineup.ts';

const KEYS = {
  EPISODE_KEY_OPENAI: 'sk-episode-openai-3f9a1c',
  EPISODE_KEY_ANTHROPIC: 'sk-episode-anthropic-77b2e0',
  EPISODE_KEY_GOOGLE: 'episode-google-key-51d8aa',
};

let models: ModelServer;
let dir: string;
const saved = { ...process.env };

before(async () => {
  models = await startModelServer();
  dir = mkdtempSync(join(tmpdir(), 'arbiter-episodes-'));
  Object.assign(process.env, KEYS);
});
after(async () => {
  await models.close();
  rmSync(dir, { recursive: true, force: true });
  for (const k of Object.keys(KEYS)) delete process.env[k];
  Object.assign(process.env, saved);
});

async function serve(
  extra: { allowExternalAgents?: boolean; lineups?: string[]; db?: string } = {},
): Promise<RunningServer> {
  const d = mkdtempSync(join(dir, 's-'));
  return startServer({
    port: 0,
    db: extra.db ?? join(d, 'm.sqlite'),
    logger: false,
    webRoot: join(d, 'no-web'),
    rateLimit: 100_000,
    agentDeadlineMs: 120_000,
    // llm: seats named over the API (not from a line-up) use the global endpoint: the stand-in
    agentEnv: {
      llm: {
        maxRetries: 0,
        baseURL: { openai: `${models.url}/v1`, anthropic: models.url },
        apiKey: { openai: 'global-openai-key-e1', anthropic: 'global-anthropic-key-e2' },
      },
      stderrDir: d,
    },
    episodePaceMs: 0,
    ...extra,
  });
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as the assertions name them
type Loose = any;

/** Every answer the test reads, kept to be searched for keys at the end. */
const answers: string[] = [];

async function api(srv: RunningServer, method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${srv.url}/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  answers.push(text);
  let json: Loose = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, text, json };
}

async function until(srv: RunningServer, id: string, ok: (m: Loose) => boolean): Promise<Loose> {
  for (;;) {
    const m = (await api(srv, 'GET', `/matches/${id}`)).json;
    if (ok(m)) return m;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function assertNoKey(texts: string[]): void {
  for (const t of texts)
    for (const [name, key] of Object.entries(KEYS)) assert.ok(!t.includes(key), `${name}'s value is in an answer`);
}

test('[LLM-LIVE-API] a line-up the operator named is offered and played over the API: four model seats, three providers, transcripts after the end', async () => {
  const file = join(dir, 'three.yaml');
  writeFileSync(file, threeProviderLineup(models.url));
  const srv = await serve({ lineups: [file] });
  try {
    // serve --lineup started one episode at once
    assert.equal(srv.episodes.length, 1);
    const offered = (await api(srv, 'GET', '/lineups?ruleset=bnc')).json;
    const mine = offered.find((l: Loose) => l.id === 'episode-three-providers');
    assert.deepEqual(mine.seats, [
      'openai:gpt-stand-in',
      'anthropic:claude-stand-in',
      'google:gemini-stand-in',
      'openai:gpt-stand-in-2',
    ]);
    assert.equal(mine.source, 'server');
    assert.equal(mine.allowed, true);
    // the operator's endpoints and key variables stay on the server
    assert.ok(!JSON.stringify(offered).includes(models.url) && !JSON.stringify(offered).includes('EPISODE_KEY'));

    const before = models.requests.length;
    const created = await api(srv, 'POST', '/matches', {
      ruleset: 'bnc',
      lineup: 'episode-three-providers',
      seed: 5,
      agentDelayMs: 2,
    });
    assert.equal(created.status, 201, created.text);
    const id = created.json.id;
    assert.deepEqual(created.json.lineup, { id: 'episode-three-providers', version: '1' });
    assert.deepEqual(
      created.json.seats.map((s: Loose) => s.name),
      [
        'llm:openai:gpt-stand-in',
        'llm:anthropic:claude-stand-in',
        'llm:google:gemini-stand-in',
        'llm:openai:gpt-stand-in-2',
      ],
    );
    // nobody holding a seat could watch: the episode is watchable live without a password
    assert.equal(created.json.watch, 'live');
    await until(srv, id, (m) => m.status === 'finished');
    const providers = new Set(models.requests.slice(before).map((r) => r.provider));
    assert.deepEqual([...providers].sort(), ['anthropic', 'google', 'openai']);
    // each key went only to its own seat's requests
    for (const r of models.requests.slice(before)) {
      const want =
        r.provider === 'openai'
          ? KEYS.EPISODE_KEY_OPENAI
          : r.provider === 'anthropic'
            ? KEYS.EPISODE_KEY_ANTHROPIC
            : KEYS.EPISODE_KEY_GOOGLE;
      assert.ok(String(r.auth).includes(want), `${r.provider} request carried its seat's key`);
    }

    const log = (await api(srv, 'GET', `/matches/${id}/log`)).text;
    const lines = log
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(lines[0].lineup, { id: 'episode-three-providers', version: '1' });
    assert.deepEqual(
      lines[0].seats.map((s: Loose) => s.provider),
      ['openai', 'anthropic', 'google', 'openai'],
    );
    const defaulted = lines.filter((e) => e.result === 'defaulted');
    assert.deepEqual(defaulted, [], 'no model decision fell back to a default');

    const listed = (await api(srv, 'GET', `/matches/${id}/transcripts`)).json;
    assert.deepEqual(listed.seats, [0, 1, 2, 3]);
    for (const seat of [0, 1, 2, 3]) {
      const t = await api(srv, 'GET', `/matches/${id}/transcripts/${seat}`);
      assert.equal(t.status, 200, t.text);
      assert.ok(t.json.records.length >= lines.filter((e) => e.seat === seat).length, 'an attempt per decision');
      assert.ok(
        t.json.records.every((r: Loose) => r.seat === seat),
        'only its own seat',
      );
      const text = await api(srv, 'GET', `/matches/${id}/transcripts/${seat}?format=text`);
      assert.match(text.text, /attempts; tokens \d+ in, \d+ out/);
    }
    const bad = await api(srv, 'GET', `/matches/${id}/transcripts/4`);
    assert.equal(bad.status, 400);
  } finally {
    await srv.close();
  }
  assertNoKey(answers);
});

test('[LLM-LIVE-REFUSE] a line-up is chosen by an offered id only: a path, an unknown id, seats besides, or a shipped model line-up on a closed server are refused and store nothing', async () => {
  const srv = await serve();
  try {
    const count = async () => (await api(srv, 'GET', '/matches?expired=include')).json.length;
    const n = await count();
    const file = join(dir, 'three.yaml');
    writeFileSync(file, threeProviderLineup(models.url));
    const cases: [unknown, number, RegExp][] = [
      [{ ruleset: 'bnc', lineup: file }, 400, /not a path/],
      [{ ruleset: 'bnc', lineup: '../lineups/bnc/llm-mixed-provider-scarcity-stated-v1' }, 400, /not a path/],
      [{ ruleset: 'bnc', lineup: 'no-such-lineup' }, 404, /no bnc line-up/],
      [
        { ruleset: 'bnc', lineup: 'llm-mixed-provider-scarcity-stated-v1', seats: [{ agent: 'random' }] },
        400,
        /exclude/,
      ],
      [{ ruleset: 'bnc', lineup: 'llm-mixed-provider-scarcity-stated-v1' }, 400, /allow-external-agents/],
      [{ ruleset: 'tictactoe', lineup: 'llm-mixed-provider-scarcity-stated-v1' }, 404, /no tictactoe line-up/],
    ];
    for (const [body, status, why] of cases) {
      const r = await api(srv, 'POST', '/matches', body);
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      assert.match(r.json.error.reason, why);
    }
    assert.equal(await count(), n, 'nothing was stored');
    // the shipped line-up is listed, but not offered for creation here
    const shipped = (await api(srv, 'GET', '/lineups?ruleset=bnc')).json;
    assert.deepEqual(
      shipped.map((l: Loose) => [l.id, l.source, l.allowed]),
      [['llm-mixed-provider-scarcity-stated-v1', 'shipped', false]],
    );
  } finally {
    await srv.close();
  }
});

test('[LLM-LIVE-TRANSCRIPT] while a match runs, a seat transcript is refused to a seated person, a delayed spectator and a closed audience, and readable to a live spectator of an all-model episode', async () => {
  const file = join(dir, 'three.yaml');
  writeFileSync(file, threeProviderLineup(models.url));
  const srv = await serve({ lineups: [file], allowExternalAgents: true });
  try {
    // a person in seat 0 and model seats: the match waits for the person each turn, so it runs
    const mixed = (
      await api(srv, 'POST', '/matches', {
        ruleset: 'bnc',
        seed: 3,
        seats: [{}, { agent: 'llm:openai:gpt-mixed' }, { agent: 'random' }, { agent: 'random' }],
      })
    ).json;
    const joined = (await api(srv, 'POST', `/matches/${mixed.id}/join`, { name: 'p', seat: 0 })).json;
    await until(srv, mixed.id, (m) => m.status === 'running');
    const asSeat = await api(srv, 'GET', `/matches/${mixed.id}/transcripts/1`, undefined, joined.token);
    assert.equal(asSeat.status, 403, asSeat.text);
    assert.match(asSeat.json.error.reason, /while the match runs/);
    const asSpectator = await api(srv, 'GET', `/matches/${mixed.id}/transcripts/1`);
    assert.equal(asSpectator.status, 401, 'the closed default keeps spectators out of a contested bnc match');

    // the stand-in answers the episode's first two turns (four model seats each) and holds the
    // rest, then answers 12 of the delayed episode's requests and holds the rest: both stay
    // running. Each starts alone: started together, one could take every answer before the other
    // asked (seen under load), leaving seat 0 with no transcript yet.
    const heldEpisode = models.hold(8);
    const episode = (await api(srv, 'POST', '/matches', { ruleset: 'bnc', seed: 4, lineup: 'episode-three-providers' }))
      .json;
    await heldEpisode;
    const heldDelayed = models.hold(12);
    const delayed = (
      await api(srv, 'POST', '/matches', {
        ruleset: 'bnc',
        seed: 4,
        lineup: 'episode-three-providers',
        spectateDelay: { turns: 4 },
      })
    ).json;
    await heldDelayed;
    try {
      assert.equal((await api(srv, 'GET', `/matches/${delayed.id}`)).json.status, 'running');
      const d = await api(srv, 'GET', `/matches/${delayed.id}/transcripts/0`);
      assert.equal(d.status, 403, d.text);
      assert.match(d.json.error.reason, /delayed/);
      assert.equal((await api(srv, 'GET', `/matches/${episode.id}`)).json.status, 'running');
      const live = await api(srv, 'GET', `/matches/${episode.id}/transcripts/0`);
      assert.equal(live.status, 200, live.text);
      assert.ok(live.json.records.length > 0);
    } finally {
      models.release();
    }
    await until(srv, episode.id, (m) => m.status === 'finished');
    await until(srv, delayed.id, (m) => m.status === 'finished');
    // after the end the delayed spectator reads it too
    assert.equal((await api(srv, 'GET', `/matches/${delayed.id}/transcripts/0`)).status, 200);
  } finally {
    await srv.close();
  }
  assertNoKey(answers);
});

test('[LLM-LIVE-LOUD] an episode whose model seat cannot start is refused with the status and message of the provider, keys masked, nothing stored', async () => {
  // over the API: the shipped line-up on a server that allows it, its Anthropic key rejected
  const srv = await serve({ allowExternalAgents: true });
  try {
    const count = async () => (await api(srv, 'GET', '/matches?expired=include')).json.length;
    const n = await count();
    models.preflightScript.anthropic.push({
      kind: 'status',
      status: 401,
      message: 'invalid x-api-key sk-ant-api03-leakedpart9x',
    });
    const r = await api(srv, 'POST', '/matches', {
      ruleset: 'bnc',
      lineup: 'llm-mixed-provider-scarcity-stated-v1',
      seed: 1,
    });
    assert.equal(r.status, 400, r.text);
    assert.match(
      r.json.error.reason,
      /seat 1 \(llm:anthropic:claude-3-5-haiku-latest\) cannot start: .*HTTP 401.*invalid x-api-key/,
    );
    assert.ok(!r.text.includes('leakedpart'), 'the quoted key is masked');
    assert.equal(await count(), n, 'nothing was stored');
  } finally {
    await srv.close();
  }
  // serve --lineup: the server does not start at all
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, threeProviderLineup(models.url, 'episode-bad').replace('gemini-stand-in', 'gemini-missing'));
  models.preflightScript.google.push({ kind: 'status', status: 404, message: 'models/gemini-missing is not found' });
  await assert.rejects(
    serve({ lineups: [bad] }),
    /seat 2 \(llm:google:gemini-missing\) cannot start: .*HTTP 404.*not found/,
  );
});

// After a restart the engine rebuilds what each program or model seat was told (its request ids,
// the events since its last request, the failure policy's streak: MatchEngine.beginResume and
// resumeSeen), so the episode goes on as if nothing had happened. It failed before: the first
// prompt after the restart lacked the last turn's events and restarted the request ids.
test('[LLM-LIVE-RESTART] an episode stopped midway resumes on a new server with its line-up settings and ends with the log of an uninterrupted run', async () => {
  const file = join(dir, 'three.yaml');
  writeFileSync(file, threeProviderLineup(models.url));
  const body = { ruleset: 'bnc', lineup: 'episode-three-providers', seed: 12 };
  // the uninterrupted run (the stand-in answers are a function of the request alone)
  const whole = await serve({ lineups: [file] });
  let want: string;
  try {
    const m = (await api(whole, 'POST', '/matches', body)).json;
    await until(whole, m.id, (r) => r.status === 'finished');
    want = (await api(whole, 'GET', `/matches/${m.id}/log`)).text;
  } finally {
    await whole.close();
  }
  const db = join(mkdtempSync(join(dir, 'r-')), 'm.sqlite');
  const first = await serve({ lineups: [file], db });
  const held = models.hold(40);
  let id: string;
  try {
    id = (await api(first, 'POST', '/matches', body)).json.id;
    await held;
    assert.equal((await api(first, 'GET', `/matches/${id}`)).json.status, 'running');
  } finally {
    await first.close();
    models.release();
  }
  const resumedFrom = models.requests.length;
  const second = await serve({ lineups: [file], db });
  try {
    await until(second, id, (r) => r.status === 'finished');
    // the resumed seats got their line-up settings back: every prompt states the line-up's statement
    const after = models.requests.slice(resumedFrom);
    assert.ok(after.length > 0);
    for (const r of after) assert.ok(JSON.stringify(r.body).includes('Scarcity: three fragments'), r.provider);
    const got = (await api(second, 'GET', `/matches/${id}/log`)).text;
    assert.equal(got, want, 'the resumed episode is the uninterrupted one, byte for byte');
  } finally {
    await second.close();
  }
});
