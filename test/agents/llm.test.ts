// llm: agents through the real openai and @anthropic-ai/sdk clients against a local server that
// speaks both wire formats, scripted per request. Every scripted case lands in the log as the
// failure policy says; a whole bnc match with four model seats from two providers re-runs from its
// cassette, offline, byte-identically.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bncPackage } from '../../packages/engine/src/rulesets/bnc/index.ts';
import { runMatch } from '../../packages/engine/src/engine/run-match.ts';
import { logLines, type LogEntry } from '../../packages/engine/src/engine/log.ts';
import { parseLog } from '../../src/runners/logfile.ts';
import { replayLog } from '../../src/runners/replay.ts';
import { firstAgent } from '../../packages/engine/src/agents/builtin.ts';
import { llmAgent, type LlmEnv } from '../../src/agents/llm/llm.ts';
import { Cassette } from '../../src/agents/llm/cassette.ts';
import { actionFromProse, toolsForMenu } from '../../src/agents/llm/tools.ts';
import { TranscriptWriter, readTranscript, formatTranscript } from '../../src/agents/transcript.ts';
import { lineupSeats, loadLineup } from '../../src/agents/lineup.ts';
import { startModelServer, type ModelServer, type Provider, type Step } from './llm-server.ts';

const rs = bncPackage.ruleset;
let server: ModelServer;

before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

function env(extra: Partial<LlmEnv> = {}): LlmEnv {
  return {
    baseURL: { openai: `${server.url}/v1`, anthropic: server.url, google: server.url },
    apiKey: { openai: 'test-key-openai', anthropic: 'test-key-anthropic', google: 'test-key-google' },
    maxRetries: 2,
    ...extra,
  };
}

/** One bnc turn: seat 0 is the model, the others play `first`. Returns seat 0's log entry. */
async function oneTurn(
  provider: Provider,
  steps: Step[],
  deadlineMs = 4000,
): Promise<{ entry: LogEntry; usage: unknown }> {
  server.script[provider].push(...steps);
  const model = llmAgent({ provider, model: `${provider}-test` }, env());
  const result = await runMatch(rs, [model, firstAgent({}), firstAgent({}), firstAgent({})], {
    seed: 11,
    pkg: bncPackage,
    maxSubmissions: 4,
    policy: { deadlineMs },
  });
  assert.equal(server.script[provider].length, 0, 'every scripted answer was asked for');
  const log = parseLog(logLines(result).join('\n') + '\n');
  assert.equal(replayLog(rs, log).ok, true);
  return { entry: log.entries.find((e) => e.seat === 0)!, usage: result.seats[0].usage };
}

const fly: Step = { kind: 'tool', name: 'fly', args: { to: 'moon' } };

for (const provider of ['openai', 'anthropic', 'google'] as const) {
  describe(`[AG-LLM] ${provider} wire format through the real SDK`, () => {
    test('a valid tool call is played', async () => {
      const before = server.requests.length;
      const { entry, usage } = await oneTurn(provider, [{ kind: 'tool', name: 'wait', args: {} }]);
      assert.equal(entry.result, 'accepted');
      assert.deepEqual(entry.input, { type: 'wait' });
      const req = server.requests[before];
      assert.equal(req.provider, provider);
      assert.match(String(req.auth), /test-key/);
      const tools =
        provider === 'google'
          ? (req.body.tools as { functionDeclarations: unknown[] }[])[0].functionDeclarations.length
          : (req.body.tools as unknown[]).length;
      if (provider === 'google') {
        // the SDK's wire: system instruction and generation config beside the contents
        assert.match(JSON.stringify(req.body.systemInstruction), /seat 0/);
        assert.equal((req.body.generationConfig as { maxOutputTokens: number }).maxOutputTokens, 1024);
        assert.match(req.path, /\/models\/google-test:generateContent$/);
      }
      assert.ok(tools >= 3, 'one tool per legal family');
      const u = usage as { input_tokens: number; output_tokens: number; requests: number };
      assert.ok(u.input_tokens > 0);
      assert.equal(u.output_tokens, 12);
      assert.equal(u.requests, 1);
    });
    test('prose with JSON in it is parsed once', async () => {
      const { entry } = await oneTurn(provider, [
        { kind: 'prose', text: 'I will hold still this turn. {"type": "wait"} — that is my move.' },
      ]);
      assert.equal(entry.result, 'accepted');
      assert.deepEqual(entry.input, { type: 'wait' });
    });
    test('malformed JSON twice → default invalid_json, raw answer kept', async () => {
      const bad: Step =
        provider === 'openai'
          ? { kind: 'tool', name: 'move', args: '{"to": ' }
          : { kind: 'prose', text: 'move {"type": "move", "to": }' };
      const { entry } = await oneTurn(provider, [bad, bad]);
      assert.equal(entry.result, 'defaulted');
      assert.equal(entry.default?.reason, 'invalid_json');
      assert.match(String(entry.default?.request), /-a2$/, 'the retry failed too');
      assert.ok(entry.default?.raw && entry.default.raw.length > 0);
      assert.deepEqual(entry.input, { type: 'wait' }, "bnc's declared default");
    });
    test('an illegal action, then a legal one once the rejection is fed back', async () => {
      const before = server.requests.length;
      const { entry } = await oneTurn(provider, [fly, { kind: 'tool', name: 'wait', args: {} }]);
      assert.equal(entry.result, 'accepted');
      const retry = JSON.stringify(server.requests[before + 1].body);
      assert.match(retry, /previous answer failed \(refused\)/);
    });
    test('an illegal action twice → default refused', async () => {
      const { entry } = await oneTurn(provider, [fly, fly]);
      assert.equal(entry.default?.reason, 'refused');
    });
    test('an answer past the deadline → default timeout, no retry', async () => {
      const { entry } = await oneTurn(
        provider,
        [{ kind: 'delay', ms: 2500, then: { kind: 'tool', name: 'wait', args: {} } }],
        1200,
      );
      assert.equal(entry.default?.reason, 'timeout');
      assert.doesNotMatch(String(entry.default?.request), /-a2$/, 'no retry after a timeout');
    });
    test('429 with retry-after is retried by the SDK and then answered', async () => {
      const before = server.requests.length;
      const { entry } = await oneTurn(provider, [
        { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
        { kind: 'tool', name: 'wait', args: {} },
      ]);
      assert.equal(entry.result, 'accepted');
      assert.equal(server.requests.length - before, 2);
    });
    test('500 is retried; 500 past the SDK retries → default error', async () => {
      const ok = await oneTurn(provider, [
        { kind: 'status', status: 500, headers: { 'retry-after-ms': '10' } },
        { kind: 'tool', name: 'wait', args: {} },
      ]);
      assert.equal(ok.entry.result, 'accepted');
      const s500: Step = { kind: 'status', status: 500, headers: { 'retry-after-ms': '10' } };
      const bad = await oneTurn(provider, [s500, s500, s500]);
      assert.equal(bad.entry.default?.reason, 'error');
      assert.equal(bad.entry.default?.raw, null);
    });
    test('an empty answer twice → default invalid_json', async () => {
      const { entry } = await oneTurn(provider, [{ kind: 'empty' }, { kind: 'empty' }]);
      assert.equal(entry.default?.reason, 'invalid_json');
      assert.equal(entry.default?.raw, null, 'nothing was said');
    });
  });
}

test('[AG-TOOLS] finite families are narrowed to the values legal now; templates keep their schema', () => {
  const s = rs.setup({}, 11);
  const menu = rs.legal(s, 0);
  const tools = toolsForMenu(menu);
  const move = tools.find((t) => t.name === 'move')!;
  const legalTo = menu.actions.flatMap((a) => (a.type === 'move' ? [a.to] : []));
  assert.deepEqual((move.parameters.properties as { to: { enum: number[] } }).to.enum, legalTo);
  const say = tools.find((t) => t.name === 'say')!;
  assert.ok((say.parameters.properties as Record<string, unknown>).text, 'free text keeps its schema');
  assert.equal(
    (say.parameters.properties as Record<string, unknown>).type,
    undefined,
    'the tool name carries the type',
  );
  assert.deepEqual(actionFromProse('Sure: {"action": {"type": "wait"}}'), { type: 'wait' });
  assert.equal(actionFromProse('no json here'), undefined);
  assert.equal(actionFromProse('{"type": "move", "to": }'), undefined);
});

test('[AG-PARALLEL] simultaneous seats are asked in parallel, within the per-provider limit', async () => {
  const slow: Step = { kind: 'delay', ms: 800, then: { kind: 'tool', name: 'wait', args: {} } };
  for (const [limit, expected] of [
    [4, 4],
    [2, 2],
  ] as const) {
    server.maxInFlight = 0;
    server.script.openai.push(slow, slow, slow, slow);
    const seats = [0, 1, 2, 3].map(() =>
      llmAgent({ provider: 'openai', model: `gpt-par-${limit}` }, env({ concurrency: limit })),
    );
    await runMatch(rs, seats, { seed: 11, pkg: bncPackage, maxSubmissions: 4, policy: { deadlineMs: 8000 } });
    assert.equal(server.maxInFlight, expected, `limit ${limit}`);
  }
});

test('[AG-CASSETTE] a whole bnc match, four model seats from two providers, re-runs from its cassette byte-identically offline', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-llm-'));
  const cassetteDir = join(dir, 'cassette');
  const lineup = loadLineup('llm-mixed-provider-scarcity-stated-v1', 'bnc');
  const play = async (cassette: Cassette, transcripts: string) => {
    const writer = new TranscriptWriter(transcripts);
    const seats = lineupSeats(lineup, 4).map((s) => {
      assert.ok('llm' in s);
      return llmAgent(s.llm, env({ cassette }));
    });
    return runMatch(rs, seats, {
      seed: 5,
      pkg: bncPackage,
      policy: { deadlineMs: 10000 },
      onAttempt: (r) => writer.write(r),
    });
  };
  const recorded = await play(new Cassette(cassetteDir, 'record'), join(dir, 'rec.agents'));
  assert.notEqual(recorded.outcome, null, 'the match ran to its end');
  const providers = new Set(server.requests.slice(-8).map((r) => r.provider));
  assert.deepEqual([...providers].sort(), ['anthropic', 'openai']);
  assert.ok(
    recorded.seats.every((s) => Number(s.usage?.requests) > 0 && Number(s.usage?.input_tokens) > 0),
    'token usage per seat',
  );
  const asked = server.requests.length;
  // the statement the line-up makes reaches every model's system prompt
  assert.match(JSON.stringify(server.requests[asked - 1].body), /exactly three access fragments/);

  await server.close();
  const replayed = await play(new Cassette(cassetteDir, 'replay'), join(dir, 'rep.agents'));
  assert.equal(logLines(replayed).join('\n'), logLines(recorded).join('\n'));
  server = await startModelServer();
  assert.equal(replayLog(rs, parseLog(logLines(recorded).join('\n'))).ok, true);

  // transcripts: one file per seat, only that seat's requests, with tokens
  const logPath = join(dir, 'rec');
  for (let seat = 0; seat < 4; seat++) {
    const recs = readTranscript(logPath, seat);
    assert.ok(recs.length > 0);
    assert.ok(recs.every((r) => r.seat === seat && r.request.startsWith(`s${seat}-`)));
  }
  assert.match(formatTranscript(readTranscript(logPath, 1)), /tokens \d+ in, \d+ out/);
  assert.ok(readFileSync(join(dir, 'rec.agents', 'seat-0.transcript.jsonl'), 'utf8').includes('"tokens"'));
});
