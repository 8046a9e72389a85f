// Figures for issue 25, against the local stand-in of the providers (test/agents/llm-server.ts;
// its token counts are its own: 4 characters a token, caching as the providers document it):
//  1. input tokens per decision, and how many of them were read from the prompt cache, for a whole
//     bnc match of the shipped line-up (seed 5);
//  2. the cost of a hung seat: a 45-turn bnc match of four model seats with seat 0 never answering,
//     against the same match with seat 0 answering, at 4 slots and at 1 slot.
// Run: node --import tsx bench/llm-episode.ts

import { bncPackage } from '../src/rulesets/bnc/index.ts';
import { runMatch } from '../src/runners/match.ts';
import { llmAgent, type LlmEnv } from '../src/agents/llm/llm.ts';
import { lineupSeats, loadLineup } from '../src/agents/lineup.ts';
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
const shared = env({ preflights: new Map() });
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
