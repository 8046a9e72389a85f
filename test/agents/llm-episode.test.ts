// Issue 25: bnc episodes with model contestants a producer can trust. Every failure the issue's
// "Why" lists, against the local stand-in of the providers (test/agents/llm-server.ts) through the
// real SDKs, and the command line in-process: preflight and loud failure, cassette misses, the slot
// wait apart from the deadline, keys only where configured, shipped line-ups by id and the log
// header, caching, prices, budget and estimate, reasoning-model parameters, a compatible endpoint,
// resume, and the smaller items.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ArbiterError, type GameEvent } from '../../packages/engine/src/kernel/index.ts';
import { bncPackage } from '../../packages/engine/src/rulesets/bnc/index.ts';
import { runMatch } from '../../packages/engine/src/engine/run-match.ts';
import { parseLog } from '../../src/runners/logfile.ts';
import { replayLog, verifyLogText } from '../../src/runners/replay.ts';
import { firstAgent } from '../../packages/engine/src/agents/builtin.ts';
import { llmAgent, type LlmEnv, type LlmSeat } from '../../src/agents/llm/llm.ts';
import { Cassette } from '../../src/agents/llm/cassette.ts';
import { Budget } from '../../src/agents/llm/cost.ts';
import { lineupSeats, loadLineup, shippedLineups } from '../../src/agents/lineup.ts';
import type { AttemptRecord } from '../../packages/engine/src/agents/policy.ts';
import { MatchStop } from '../../packages/engine/src/agents/transport.ts';
import { cli as runCli } from '../support/cli.ts';
import { startModelServer, type ModelServer, type Step } from './llm-server.ts';

const rs = bncPackage.ruleset;
const ROOT = resolve(import.meta.dirname, '../..');
let server: ModelServer;
let other: ModelServer;

before(async () => {
  server = await startModelServer();
  other = await startModelServer();
});
after(async () => {
  await server.close();
  await other.close();
});

function env(extra: Partial<LlmEnv> = {}): LlmEnv {
  return {
    baseURL: { openai: `${server.url}/v1`, anthropic: server.url, google: server.url },
    apiKey: { openai: 'test-key-openai', anthropic: 'test-key-anthropic', google: 'test-key-google' },
    maxRetries: 0,
    ...extra,
  };
}

const seat = (model: string, extra: Partial<LlmSeat> = {}): LlmSeat => ({ provider: 'openai', model, ...extra });
const wait: Step = { kind: 'tool', name: 'wait', args: {} };

/**
 * The command line in-process (test/support/cli.ts), with `vars` in its environment and, for the
 * model seats that read keys from the process environment, in process.env while it runs.
 */
async function cli(
  args: string[],
  vars: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const saved = { ...process.env };
  Object.assign(process.env, vars);
  try {
    return await runCli(args, { env: vars });
  } finally {
    for (const k of Object.keys(vars)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

const oneTurn = (agents: ReturnType<typeof llmAgent>[], deadlineMs = 3000, onAttempt?: (r: AttemptRecord) => void) =>
  runMatch(
    rs,
    agents.length === 4 ? agents : [...agents, ...Array.from({ length: 4 - agents.length }, () => firstAgent({}))],
    {
      seed: 11,
      pkg: bncPackage,
      maxSubmissions: 4,
      policy: { deadlineMs },
      onAttempt,
    },
  );

describe('[LLM-PREFLIGHT] one minimal request per endpoint, model and key before the first turn', () => {
  const cases: [string, Step & { kind: 'status' }, number][] = [
    ['a rejected key (401)', { kind: 'status', status: 401, message: 'Incorrect API key provided' }, 401],
    ['a wrong model name (404)', { kind: 'status', status: 404, message: 'The model `gpt-nope` does not exist' }, 404],
  ];
  for (const [what, step, status] of cases) {
    test(`${what} is a typed error naming the status and the provider's message; no decision is asked`, async () => {
      server.preflightScript.openai.push(step);
      const asked = server.requests.length;
      await assert.rejects(oneTurn([llmAgent(seat('gpt-pre'), env())]), (e: unknown) => {
        assert.ok(e instanceof ArbiterError);
        assert.equal(e.code, 'bad_config');
        assert.match(e.message, new RegExp(`HTTP ${status}: ${String(step.message).slice(0, 20)}`));
        return true;
      });
      assert.equal(server.requests.length, asked, 'no decision request was sent');
    });
  }
  test('an unreachable base URL and an invalid one fail before the match', async () => {
    await assert.rejects(
      oneTurn([llmAgent(seat('gpt-pre'), env({ baseURL: { openai: 'http://127.0.0.1:9/v1' } }))]),
      /preflight: openai model gpt-pre at http:\/\/127\.0\.0\.1:9\/v1 failed: no HTTP answer/,
    );
    await assert.rejects(
      oneTurn([llmAgent(seat('gpt-pre'), env({ baseURL: { openai: 'not a url' } }))]),
      /preflight|Invalid URL/,
    );
  });
  test('four seats on one model and key make one preflight; --no-preflight makes none', async () => {
    const before = server.preflights.length;
    const shared = env({ preflights: new Map() });
    await oneTurn([0, 1, 2, 3].map(() => llmAgent(seat('gpt-one'), shared)));
    assert.equal(server.preflights.length - before, 1);
    await oneTurn([llmAgent(seat('gpt-one'), env({ preflight: false }))]);
    assert.equal(server.preflights.length - before, 1);
  });
  test('the command line exits 2 with the provider message and leaves no empty log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-pre-'));
    server.preflightScript.openai.push({ kind: 'status', status: 401, message: 'Incorrect API key provided' });
    const r = await cli(
      [
        'play',
        'bnc',
        '--agents',
        'llm:openai:gpt-x',
        '--openai-base-url',
        `${server.url}/v1`,
        '--log',
        join(dir, 'm.jsonl'),
        '-q',
      ],
      { OPENAI_API_KEY: 'k' },
    );
    assert.equal(r.code, 2);
    assert.match(r.err, /HTTP 401: Incorrect API key provided/);
    assert.equal(existsSync(join(dir, 'm.jsonl')), false, 'no 0-byte log');
  });
});

describe('[LLM-LOUD] a failed seat is loud', () => {
  test('defaulted records carry the HTTP status and the provider message; the CLI prints a summary and exits 3', async () => {
    server.byModel['gpt-broken'] = { kind: 'status', status: 500, message: 'upstream overloaded, try later' };
    try {
      const dir = mkdtempSync(join(tmpdir(), 'arbiter-loud-'));
      const log = join(dir, 'm.jsonl');
      const args = [
        'play',
        'bnc',
        '--agents',
        'llm:openai:gpt-broken,first',
        '--openai-base-url',
        `${server.url}/v1`,
        '--max-steps',
        '16',
        '--log',
        log,
        '-q',
        '--no-preflight',
      ];
      const r = await cli(args, { OPENAI_API_KEY: 'k' });
      assert.equal(r.code, 3);
      assert.match(
        r.err,
        /seat 0 \(llm:openai:gpt-broken\): error ×3, seat_failed ×1; first: error \(HTTP 500\): upstream overloaded/,
      );
      const parsed = parseLog(readFileSync(log, 'utf8'));
      const d = parsed.entries.find((e) => e.seat === 0)!.default!;
      assert.equal(d.status, 500);
      assert.equal(d.message, 'upstream overloaded, try later');
      assert.equal(verifyLogText(readFileSync(log, 'utf8'), { resolve: () => rs as never }).ok, true);
      const allowed = await cli([...args, '--allow-failed-seats'], { OPENAI_API_KEY: 'k' });
      assert.equal(allowed.code, 0);
      assert.match(allowed.err, /seat 0/);
    } finally {
      delete server.byModel['gpt-broken'];
    }
  });
  test('failed requests are counted, and a timed-out attempt keeps its prompt in the transcript', async () => {
    server.byModel['gpt-slow'] = { kind: 'delay', ms: 1500, then: wait };
    server.byModel['gpt-500'] = { kind: 'status', status: 503 };
    try {
      const recs: AttemptRecord[] = [];
      const r = await runMatch(
        rs,
        [llmAgent(seat('gpt-slow'), env()), llmAgent(seat('gpt-500'), env()), firstAgent({}), firstAgent({})],
        {
          seed: 11,
          pkg: bncPackage,
          maxSubmissions: 12,
          policy: { deadlineMs: 400 },
          onAttempt: (a) => recs.push(a),
        },
      );
      assert.equal(r.seats[1].usage?.requests, 3, 'three requests were sent, none answered');
      assert.equal(r.seats[1].usage?.failed_requests, 3);
      const timedOut = recs.find((a) => a.seat === 0 && a.reason === 'timeout')!;
      assert.match(String(timedOut.meta?.prompt), /## Legal actions now/);
    } finally {
      delete server.byModel['gpt-slow'];
      delete server.byModel['gpt-500'];
    }
  });
});

test('[LLM-CASSETTE-MISS] a cassette with no answer for a request stops the match naming the request (exit 2)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-miss-'));
  const play = (seed: number, mode: 'record' | 'replay') =>
    runMatch(
      rs,
      [
        llmAgent(seat('gpt-cas'), env({ cassette: new Cassette(dir, mode) })),
        firstAgent({}),
        firstAgent({}),
        firstAgent({}),
      ],
      {
        seed,
        pkg: bncPackage,
        maxSubmissions: 40,
      },
    );
  await play(1, 'record');
  await play(1, 'replay');
  await assert.rejects(play(2, 'replay'), (e: unknown) => {
    assert.ok(e instanceof MatchStop);
    assert.match(e.message, /has no answer for request s0-\d+ \(seat 0, attempt \d, key [0-9a-f]{32}\)/);
    return true;
  });
  const r = await cli([
    'play',
    'bnc',
    '--agents',
    'llm:openai:gpt-cas,first',
    '--replay-llm',
    dir,
    '--seed',
    '2',
    '--max-steps',
    '40',
    '-q',
  ]);
  assert.equal(r.code, 2);
  assert.match(r.err, /no answer for request s\d-\d+/);
});

describe('[LLM-SLOT] the deadline measures the seat, not its wait for a concurrency slot', () => {
  test('one slot and a hung seat 0: the other seats still answer in time', async () => {
    server.byModel['gpt-hang'] = { kind: 'delay', ms: 5000, then: wait };
    try {
      const e = env({ concurrency: 1, preflight: false });
      const recs: AttemptRecord[] = [];
      const r = await oneTurn(
        [
          llmAgent(seat('gpt-hang'), e),
          llmAgent(seat('gpt-slot'), e),
          llmAgent(seat('gpt-slot'), e),
          llmAgent(seat('gpt-slot'), e),
        ],
        800,
        (a) => recs.push(a),
      );
      assert.equal(r.entries.find((x) => x.seat === 0)?.default?.reason, 'timeout');
      for (const s of [1, 2, 3]) assert.equal(r.entries.find((x) => x.seat === s)?.result, 'accepted', `seat ${s}`);
      // seat 1 waited for the hung seat's whole deadline, and the wait is recorded apart
      assert.ok(Number(recs.find((a) => a.seat === 1)?.meta?.slot_wait_ms) >= 700);
    } finally {
      delete server.byModel['gpt-hang'];
    }
  });
  test('a wait past the slot limit is its own record: timeout, nothing sent, the wait named', async () => {
    server.byModel['gpt-hang2'] = { kind: 'delay', ms: 5000, then: wait };
    try {
      const e = env({ concurrency: 1, preflight: false, slotWaitMs: 200 });
      const r = await oneTurn([llmAgent(seat('gpt-hang2'), e), llmAgent(seat('gpt-slot2'), e)], 1000);
      const d = r.entries.find((x) => x.seat === 1)!.default!;
      assert.equal(d.reason, 'timeout');
      assert.match(String(d.message), /no concurrency slot came free within 200 ms/);
      assert.equal(server.requests.filter((q) => q.body.model === 'gpt-slot2').length, 0);
    } finally {
      delete server.byModel['gpt-hang2'];
    }
  });
});

describe('[LLM-KEYS] a key goes only to the base URL it was configured with (two stub hosts)', () => {
  const lineupFile = (seats: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-keys-'));
    const f = join(dir, 'l.yaml');
    writeFileSync(f, `id: keys\nruleset: bnc\nseats:\n${seats}`);
    return f;
  };
  test('the global key to the global endpoint, the seat key to its own host, no key where none was named', async () => {
    const f = lineupFile(
      [
        '  - { provider: openai, model: gpt-global }',
        `  - { provider: openai, model: gpt-own, base_url: "${other.url}/v1", api_key_env: OWN_HOST_KEY }`,
        `  - { provider: openai, model: gpt-nokey, base_url: "${other.url}/v1" }`,
        '  - { agent: first }',
        '',
      ].join('\n'),
    );
    const a0 = server.requests.length + server.preflights.length;
    const b0 = other.requests.length + other.preflights.length;
    const r = await cli(
      ['play', 'bnc', '--lineup', f, '--openai-base-url', `${server.url}/v1`, '--max-steps', '4', '-q'],
      { OPENAI_API_KEY: 'GLOBAL-SECRET', OWN_HOST_KEY: 'OWN-SECRET' },
    );
    assert.equal(r.code, 0, r.err);
    const authA = [...server.preflights, ...server.requests].slice(0).map((q) => q.auth);
    const authB = [...other.preflights, ...other.requests].map((q) => q.auth);
    assert.ok(
      server.requests.length + server.preflights.length > a0 && other.requests.length + other.preflights.length > b0,
    );
    assert.ok(
      authB.every((a) => !String(a).includes('GLOBAL-SECRET')),
      'the global key never reached the other host',
    );
    assert.ok(
      authA.every((a) => !String(a).includes('OWN-SECRET')),
      'the seat key never reached the global host',
    );
    assert.ok(authB.some((a) => String(a).includes('OWN-SECRET')));
  });
  test('an unset api_key_env is an error before the match: no request to either host', async () => {
    const f = lineupFile(
      `  - { provider: openai, model: gpt-own, base_url: "${other.url}/v1", api_key_env: UNSET_KEY_25 }\n  - { provider: openai, model: gpt-global }\n  - { agent: first }\n  - { agent: first }\n`,
    );
    const a0 = server.requests.length + server.preflights.length;
    const b0 = other.requests.length + other.preflights.length;
    const r = await cli(['play', 'bnc', '--lineup', f, '--openai-base-url', `${server.url}/v1`, '-q'], {
      OPENAI_API_KEY: 'GLOBAL-SECRET',
    });
    assert.equal(r.code, 2);
    assert.match(r.err, /api_key_env UNSET_KEY_25 is not set/);
    assert.equal(server.requests.length + server.preflights.length, a0);
    assert.equal(other.requests.length + other.preflights.length, b0);
  });
  test('the missing-key error names real settings, not a flag that does not exist', async () => {
    const r = await cli(['play', 'bnc', '--agents', 'llm:anthropic:claude-x,first', '-q'], { ANTHROPIC_API_KEY: '' });
    assert.equal(r.code, 2);
    assert.match(r.err, /set ANTHROPIC_API_KEY/);
    assert.doesNotMatch(r.err, /--llm-api-key/);
  });
});

describe('[LLM-LINEUP-ID] shipped line-ups by id, listed, recorded in the log header', () => {
  test('the id resolves from any working directory, and the package ships the folder', () => {
    const cwd = process.cwd();
    process.chdir(tmpdir());
    try {
      assert.equal(
        loadLineup('llm-mixed-provider-scarcity-stated-v1', 'bnc').id,
        'llm-mixed-provider-scarcity-stated-v1',
      );
    } finally {
      process.chdir(cwd);
    }
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    assert.ok(pkg.files.includes('lineups'));
    assert.ok(shippedLineups().some((l) => l.id === 'llm-mixed-provider-scarcity-stated-v1' && l.ruleset === 'bnc'));
  });
  test('`arbiter lineups` lists them', async () => {
    const r = await cli(['lineups']);
    assert.match(r.out, /bnc {2}llm-mixed-provider-scarcity-stated-v1 \(version 1\)/);
  });
  test("the header records line-up id and version, each seat's provider, model, temperature and system hash", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-hdr-'));
    const log = join(dir, 'm.jsonl');
    const r = await cli(
      [
        'play',
        'bnc',
        '--lineup',
        'llm-mixed-provider-scarcity-stated-v1',
        '--openai-base-url',
        `${server.url}/v1`,
        '--anthropic-base-url',
        server.url,
        '--max-steps',
        '4',
        '--log',
        log,
        '-q',
      ],
      { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' },
    );
    assert.equal(r.code, 0, r.err);
    const header = parseLog(readFileSync(log, 'utf8')).header;
    assert.deepEqual(header.lineup, { id: 'llm-mixed-provider-scarcity-stated-v1', version: '1' });
    assert.deepEqual(
      header.seats?.map((s) => [s.provider, s.model, s.temperature]),
      [
        ['openai', 'gpt-4o-mini', 0.7],
        ['anthropic', 'claude-3-5-haiku-latest', 0.7],
        ['openai', 'gpt-4o-mini', 0.7],
        ['anthropic', 'claude-3-5-haiku-latest', 0.7],
      ],
    );
    // the hash is of the system prompt the model actually read
    const last = server.requests.filter((q) => q.provider === 'openai').at(-1)!;
    const system = (last.body.messages as { role: string; content: string }[])[0].content;
    const hash = createHash('sha256').update(system).digest('hex').slice(0, 16);
    assert.ok(header.seats?.some((s) => s.system_hash === hash));
  });
});

describe('[LLM-COST] caching, prices, estimate, budget, reasoning models', () => {
  test('Anthropic: the system prompt carries cache_control and later requests read it from the cache', async () => {
    const recs: AttemptRecord[] = [];
    const r = await runMatch(
      rs,
      [
        llmAgent({ provider: 'anthropic', model: 'claude-cache' }, env()),
        firstAgent({}),
        firstAgent({}),
        firstAgent({}),
      ],
      {
        seed: 3,
        pkg: bncPackage,
        maxSubmissions: 40,
        onAttempt: (a) => recs.push(a),
      },
    );
    const body = server.requests.filter((q) => q.body.model === 'claude-cache')[0].body;
    assert.deepEqual((body.system as { cache_control: unknown }[])[0].cache_control, { type: 'ephemeral' });
    assert.ok(Number(r.seats[0].usage?.cached_input_tokens) > 0, 'cached tokens are counted');
    assert.ok(recs.some((a) => Number((a.meta?.tokens as { cached?: number })?.cached) > 0));
  });
  test('OpenAI: the system message is byte-identical in every request of a seat (a stable cacheable prefix)', async () => {
    await runMatch(rs, [llmAgent(seat('gpt-prefix'), env()), firstAgent({}), firstAgent({}), firstAgent({})], {
      seed: 3,
      pkg: bncPackage,
      maxSubmissions: 20,
    });
    const systems = new Set(
      server.requests
        .filter((q) => q.body.model === 'gpt-prefix')
        .map((q) => JSON.stringify((q.body.messages as unknown[])[0])),
    );
    assert.equal(systems.size, 1);
  });
  test('a reasoning seat sends max_completion_tokens and no temperature', async () => {
    await oneTurn([llmAgent(seat('o-reason', { reasoning: true, maxTokens: 2000, temperature: 0.7 }), env())]);
    const body = server.requests.filter((q) => q.body.model === 'o-reason').at(-1)!.body;
    assert.equal(body.max_completion_tokens, 2000);
    assert.equal('temperature' in body, false);
    assert.equal('max_tokens' in body, false);
  });
  test('a budget stops the match before the spend could pass it; the CLI leaves a partial log that verifies (exit 4)', async () => {
    const price = { input: 100, output: 100 };
    const budget = new Budget(5);
    await assert.rejects(
      runMatch(
        rs,
        [llmAgent(seat('gpt-budget', { price }), env({ budget })), firstAgent({}), firstAgent({}), firstAgent({})],
        {
          seed: 3,
          pkg: bncPackage,
        },
      ),
      (e: unknown) => e instanceof MatchStop && /budget reached/.test(e.message),
    );
    assert.ok(budget.spent > 0 && budget.spent <= 5, `spent ${budget.spent}`);
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-budget-'));
    const f = join(dir, 'l.yaml');
    writeFileSync(
      f,
      'id: b\nruleset: bnc\nprices: { gpt-b: { input: 100, output: 100 } }\nseats:\n  - { provider: openai, model: gpt-b }\n  - { agent: first }\n  - { agent: first }\n  - { agent: first }\n',
    );
    const log = join(dir, 'm.jsonl');
    const r = await cli(
      ['play', 'bnc', '--lineup', f, '--openai-base-url', `${server.url}/v1`, '--budget', '5', '--log', log, '-q'],
      { OPENAI_API_KEY: 'k' },
    );
    assert.equal(r.code, 4);
    assert.match(r.err, /cost estimate/);
    assert.match(r.err, /stopped at the budget/);
    const text = readFileSync(log, 'utf8');
    assert.equal(verifyLogText(text, { resolve: () => rs as never, partial: true }).status, 'partial');
  });
  test('--estimate prints the priced dry run and plays nothing', async () => {
    const before = server.requests.length;
    const r = await cli(['play', 'bnc', '--lineup', 'llm-mixed-provider-scarcity-stated-v1', '--estimate'], {
      OPENAI_API_KEY: 'k',
      ANTHROPIC_API_KEY: 'k',
    });
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /seat 1 anthropic:claude-3-5-haiku-latest: \d+ decisions, ~\d+ input tokens each \(\d+ cacheable\): \$[\d.]+–\$[\d.]+/,
    );
    assert.equal(server.requests.length, before);
  });
});

test('[LLM-THREE] four model seats from three providers and a compatible endpoint re-run byte-identically from their cassette, offline', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-three-'));
  const f = join(dir, 'l.yaml');
  writeFileSync(
    f,
    `id: three\nversion: "1"\nruleset: bnc\nseats:\n  - { provider: openai, model: gpt-3p }\n  - { provider: anthropic, model: claude-3p }\n  - { provider: google, model: gemini-3p }\n  - { provider: compatible, model: local-3p, base_url: "${other.url}/v1" }\n`,
  );
  const common = ['play', 'bnc', '--lineup', f, '--seed', '6', '--max-steps', '40', '-q'];
  const hosts = [
    '--openai-base-url',
    `${server.url}/v1`,
    '--anthropic-base-url',
    server.url,
    '--google-base-url',
    server.url,
  ];
  const vars = { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', GEMINI_API_KEY: 'k' };
  const rec = await cli([...common, ...hosts, '--record-llm', join(dir, 'c'), '--log', join(dir, 'rec.jsonl')], vars);
  assert.equal(rec.code, 0, rec.err);
  const providers = new Set(server.requests.filter((q) => String(q.body.model).endsWith('-3p')).map((q) => q.provider));
  assert.deepEqual([...providers].sort(), ['anthropic', 'google', 'openai']);
  const asked = server.requests.length + other.requests.length;
  const rep = await cli([...common, '--replay-llm', join(dir, 'c'), '--log', join(dir, 'rep.jsonl')]);
  assert.equal(rep.code, 0, rep.err);
  assert.equal(server.requests.length + other.requests.length, asked, 'nothing went online');
  const recorded = readFileSync(join(dir, 'rec.jsonl'), 'utf8');
  assert.equal(readFileSync(join(dir, 'rep.jsonl'), 'utf8'), recorded);
  assert.equal(recorded.split('\n').length, 43, 'header, 40 submissions, footer');
});

describe('[LLM-COMPATIBLE] any OpenAI-compatible endpoint by base URL', () => {
  test('llm:compatible: speaks the chat wire to its own host with no key from the environment', async () => {
    const b0 = other.requests.length;
    const r = await cli(
      [
        'play',
        'bnc',
        '--agents',
        'llm:compatible:local-model,first',
        '--compatible-base-url',
        `${other.url}/v1`,
        '--max-steps',
        '4',
        '-q',
      ],
      { OPENAI_API_KEY: 'GLOBAL-SECRET' },
    );
    assert.equal(r.code, 0, r.err);
    const mine = other.requests.slice(b0);
    assert.ok(mine.length > 0 && mine.every((q) => q.provider === 'openai' && q.body.model === 'local-model'));
    assert.ok(mine.every((q) => !String(q.auth).includes('GLOBAL-SECRET')));
  });
});

test('[LLM-RESUME] an interrupted episode continues from its partial log and cassette; the whole log equals an uninterrupted run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-resume-'));
  const base = [
    'play',
    'bnc',
    '--agents',
    'llm:openai:gpt-res,first',
    '--openai-base-url',
    `${server.url}/v1`,
    '--seed',
    '4',
    '-q',
  ];
  const vars = { OPENAI_API_KEY: 'k' };
  const whole = join(dir, 'whole.jsonl');
  assert.equal((await cli([...base, '--log', whole, '--record-llm', join(dir, 'c-whole')], vars)).code, 0);
  // an interruption (Ctrl-C): the log cut after some submissions, the cassette holding what was asked
  const cut = join(dir, 'cut.jsonl');
  assert.equal((await cli([...base, '--log', cut, '--record-llm', join(dir, 'c-cut')], vars)).code, 0);
  const lines = readFileSync(cut, 'utf8').split('\n');
  writeFileSync(cut, lines.slice(0, 30).join('\n') + '\n');
  const r = await cli([...base, '--resume', cut, '--record-llm', join(dir, 'c-cut')], vars);
  assert.equal(r.code, 0, r.err);
  assert.equal(readFileSync(cut, 'utf8'), readFileSync(whole, 'utf8'));
  assert.equal(replayLog(rs, parseLog(readFileSync(cut, 'utf8'))).ok, true);
  // a re-run that differs (other agents) is refused at the first differing line, the log kept whole
  const cut2 = join(dir, 'cut2.jsonl');
  const partial = lines.slice(0, 30).join('\n') + '\n';
  writeFileSync(cut2, partial);
  const differs = await cli(['play', 'bnc', '--agents', 'first', '-q', '--resume', cut2]);
  assert.equal(differs.code, 2);
  assert.match(differs.err, /--resume: line 1 of the re-run differs/);
  assert.equal(readFileSync(cut2, 'utf8'), partial);
  // a finished log is not resumed, and a log that does not replay is refused
  assert.match((await cli([...base, '--resume', cut, '--record-llm', join(dir, 'c-cut')], vars)).err, /finished match/);
});

describe('[LLM-SMALL] the smaller items', () => {
  test('a truncated answer is called truncated', async () => {
    server.script.openai.push(
      { kind: 'truncated', text: 'I think I will {"type": "mo' },
      { kind: 'truncated', text: '{"type":' },
    );
    const recs: AttemptRecord[] = [];
    await oneTurn([llmAgent(seat('gpt-trunc'), env())], 3000, (a) => recs.push(a));
    assert.match(String(recs[0].detail), /truncated/);
  });
  test("an illegal target is answered with this turn's legal values", async () => {
    server.script.openai.push({ kind: 'tool', name: 'move', args: { to: 5 } }, wait);
    await oneTurn([llmAgent(seat('gpt-illegal'), env())]);
    const retry = server.requests.filter((q) => q.body.model === 'gpt-illegal')[1];
    const prompt = (retry.body.messages as { content: string }[])[1].content;
    const legal = rs.legal(rs.setup({}, 11), 0).actions.filter((a) => (a as { type: string }).type === 'move');
    assert.ok(
      prompt.includes(
        `The legal move actions this turn are exactly: ${legal.map((a) => JSON.stringify(a)).join(', ')}`,
      ),
    );
  });
  test('bnc events reach a model in words, never as raw JSON', () => {
    const kinds: GameEvent[] = [
      { type: 'offer_made', offer: 'O1', from: 0, to: 1, give: ['F1'], get: [], expiresAt: 9 },
      { type: 'alliance_proposed', proposal: 'A1', from: 0, to: 1, turns: 5 },
      { type: 'pact_formed', pact: 'P1', seats: [0, 1], expiresAt: 9 },
      { type: 'guild_invited', invitation: 'I1', guild: 'G1', from: 0, to: 1 },
      { type: 'reputation', seat: 1, delta: -1, why: 'betrayal' },
      { type: 'chart_used', seat: 1, learned: 2 },
      { type: 'vault_withdrawal', guild: 'G1', seat: 1, item: 'F2' },
    ];
    for (const e of kinds) assert.doesNotMatch(rs.describeEvent!(e), /[{"]/, e.type);
  });
  test('sim --lineup names the line-up, not "agents random"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-simlu-'));
    const f = join(dir, 'l.yaml');
    writeFileSync(
      f,
      'id: bots\nruleset: bnc\nseats:\n  - { agent: first }\n  - { agent: random }\n  - { agent: first }\n  - { agent: random }\n',
    );
    const r = await cli(['sim', 'bnc', '--lineup', f, '--games', '2']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /agents lineup:/);
    assert.doesNotMatch(r.out, /agents random/);
  });
  test("the shipped line-up's seats keep their settings through lineupSeats", () => {
    const seats = lineupSeats(loadLineup('llm-mixed-provider-scarcity-stated-v1', 'bnc'), 4);
    assert.ok(seats.every((s) => 'llm' in s && s.llm.price !== undefined));
  });
});
