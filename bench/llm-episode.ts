// Figures for issue 25, against the local stand-in of the providers (test/agents/llm-server.ts;
// its token counts are its own: 4 characters a token, caching as the providers document it):
//  1. input tokens per decision, and how many of them were read from the prompt cache, for a whole
//     bnc match of the shipped line-up (seed 5);
//  2. the cost of a hung seat: a 45-turn bnc match of four model seats with seat 0 never answering,
//     against the same match with seat 0 answering, at 4 slots and at 1 slot;
//  3. the harness's own CPU per model decision: the match of (1) replayed from its cassette (prompt,
//     tools, request hash, cassette read, answer parsing, the failure policy — no network) against
//     the same match with in-process `first` agents, alternating, three runs each.
// Run: node --import tsx bench/llm-episode.ts

import { bncPackage } from '@arbiter/engine/rulesets/bnc';
import { runMatch } from '@arbiter/engine/match';
import { llmAgent, type LlmEnv } from '../src/agents/llm/llm.ts';
import { lineupSeats, loadLineup } from '../src/agents/lineup.ts';
import { Cassette } from '../src/agents/llm/cassette.ts';
import { firstAgent } from '@arbiter/engine/agents';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelServer } from '../test/agents/llm-server.ts';

const rs = bncPackage.ruleset;
const server = await startModelServer();
const env = (extra: Partial<LlmEnv> = {}): LlmEnv => ({
  baseURL: { openai: `${server.url}/v1`, anthropic: server.url },
  apiKey: { openai: 'k', anthropic: 'k' },
  maxRetries: 0,
  ...extra,
});

// 1. tokens per decision
const lineup = loadLineup('llm-mixed-provider-scarcity-stated-v1', 'bnc');
const cassetteDir = join(mkdtempSync(join(tmpdir(), 'arbiter-bench-llm-')), 'cassette');
const shared = env({ preflights: new Map(), cassette: new Cassette(cassetteDir, 'record') });
const seats = lineupSeats(lineup, 4).map((s) => ('llm' in s ? llmAgent(s.llm, shared) : null)!);
const match = await runMatch(rs, seats, { seed: 5, pkg: bncPackage, policy: { deadlineMs: 10_000 } });
for (const [i, r] of match.seats.entries()) {
  const u = r.usage ?? {};
  const n = Number(u.requests);
  const input = Number(u.input_tokens);
  const cached = Number(u.cached_input_tokens ?? 0);
  const written = Number(u.cache_write_tokens ?? 0);
  console.log(
    `seat ${i} ${r.agent}: ${n} requests, ${Math.round(input / n)} input tokens a decision, ${Math.round(cached / n)} read from the cache, ${Math.round(written / n)} written to it, ${Math.round((input - cached - written) / n)} at the plain price; cost $${u.cost_usd}`,
  );
}

// 2. a hung seat
async function timed(hung: boolean, concurrency: number): Promise<{ ms: number; timeouts: number[] }> {
  const e = env({ concurrency, preflight: false });
  const model = `gpt-${hung ? 'hung' : 'ok'}-${concurrency}`;
  if (hung) server.byModel[model] = { kind: 'delay', ms: 120_000, then: { kind: 'auto' } };
  const agents = [
    llmAgent({ provider: 'openai', model }, e),
    ...[1, 2, 3].map(() => llmAgent({ provider: 'openai', model: `gpt-others-${concurrency}` }, e)),
  ];
  const t0 = performance.now();
  const r = await runMatch(rs, agents, { seed: 5, pkg: bncPackage, policy: { deadlineMs: 1000, maxFailures: 3 } });
  const ms = performance.now() - t0;
  return { ms, timeouts: r.seats.map((s) => (s.defaults.timeout ?? 0) + (s.defaults.seat_failed ?? 0) * 0) };
}
for (const c of [4, 1]) {
  const ok = await timed(false, c);
  const hung = await timed(true, c);
  console.log(
    `concurrency ${c}: answering ${ok.ms.toFixed(0)} ms, seat 0 hung ${hung.ms.toFixed(0)} ms: the hung seat cost ${(hung.ms - ok.ms).toFixed(0)} ms (ideal 3 x 1000 ms deadline); timeouts per seat ${hung.timeouts.join('/')}`,
  );
}
await server.close();

// 3. harness CPU per decision, from the cassette, against in-process agents
const cpu = async (replay: boolean): Promise<{ us: number; decisions: number }> => {
  const e: LlmEnv = { cassette: new Cassette(cassetteDir, 'replay') };
  const agents = replay
    ? lineupSeats(lineup, 4).map((s) => ('llm' in s ? llmAgent(s.llm, e) : null)!)
    : [0, 1, 2, 3].map(() => firstAgent({}));
  const c0 = process.cpuUsage();
  const r = await runMatch(rs, agents, { seed: 5, pkg: bncPackage, maxSubmissions: replay ? undefined : 180 });
  const c = process.cpuUsage(c0);
  return { us: c.user + c.system, decisions: r.entries.length };
};
await cpu(true); // warm up
await cpu(false);
const per: number[] = [];
for (let i = 0; i < 3; i++) {
  const a = await cpu(true);
  const b = await cpu(false);
  per.push(a.us / a.decisions / 1000 - b.us / b.decisions / 1000);
  console.log(
    `run ${i + 1}: replayed model seats ${(a.us / a.decisions / 1000).toFixed(3)} ms CPU a decision, first agents ${(b.us / b.decisions / 1000).toFixed(3)} ms`,
  );
}
per.sort((x, y) => x - y);
console.log(
  `harness overhead per model decision: median ${per[1].toFixed(3)} ms (range ${per[0].toFixed(3)}–${per[2].toFixed(3)})`,
);
