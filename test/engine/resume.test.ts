// [ENGINE-RESUME] A match rebuilt from its stored entries after a restart (stopped between two
// batches, the next batch's requests sent and lost with the process, as a server that is not paced
// stops) (MatchEngine.beginResume,
// replayStored, seat the agents, resumeSeen) asks its program and model seats exactly what the
// uninterrupted match asked them: the same request ids, the same events since their last request,
// the same views. The seats here answer with a function of the whole request (as a model would), so
// any difference in what they are told changes the game.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, type AgentContext, type Json } from '../../packages/engine/src/kernel/index.ts';
import { getPackage } from '../../packages/engine/src/registry.ts';
import { MatchEngine, type StoredEntry } from '../../packages/engine/src/engine/match-engine.ts';
import { DEFAULT_POLICY, SeatAgent } from '../../packages/engine/src/agents/policy.ts';
import type { Reply, Transport } from '../../packages/engine/src/agents/transport.ts';
import type { DecisionRequest } from '../../packages/engine/src/agents/protocol.ts';

/** FNV-1a of a text: the recording seat's choice depends on every character it was sent. */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A seat across a boundary (not in-process) that records each request and answers from all of it. */
function recordingSeat(seat: number, asked: Map<string, string>): SeatAgent {
  const transport: Transport = {
    name: 'recorder',
    inProcess: false,
    start() {},
    decide(req: DecisionRequest, _signal: AbortSignal, _ctx: AgentContext): Reply {
      const { deadline_ms: _deadline, ...told } = req;
      const text = canonicalJson(told as unknown as Json);
      asked.set(req.request, text);
      const { actions } = req.menu;
      const action = actions[fnv(text) % actions.length];
      return { ok: true, message: { request: req.request, action }, raw: JSON.stringify(action) };
    },
    close() {},
  };
  return new SeatAgent({ seat, transport, policy: DEFAULT_POLICY });
}

/** Ask and submit whole batches (as a server that is not paced does) until the end, or `batches` of them. */
async function play(engine: MatchEngine, batches = Number.POSITIVE_INFINITY): Promise<void> {
  for (let n = 0; engine.outcome === null && n < batches; n++) {
    const batch = engine.askAgents();
    if (!batch) throw new Error('nobody to ask');
    await engine.submitBatch(batch, await batch.decisions);
  }
}

for (const [ruleset, seed] of [
  ['bnc', 12],
  ['ground', 5],
  ['tictactoe', 3],
] as const) {
  test(`[ENGINE-RESUME] ${ruleset}: stopped between batches with requests in flight and rebuilt, the seats are asked what they were asked before`, async () => {
    const pkg = getPackage(ruleset);
    const seatsOf = (e: MatchEngine) => e.seats.length;

    const wholeAsked = new Map<string, string>();
    const whole = new MatchEngine(pkg.ruleset, { seed, keepLog: true }, pkg);
    for (let s = 0; s < seatsOf(whole); s++) whole.seatAgent(s, recordingSeat(s, wholeAsked));
    await play(whole);
    const entries = whole.entries ?? [];
    assert.ok(entries.length > 4, `${ruleset} played ${entries.length} entries`);
    let resumed = 0;

    // the process stops after some batches, with the next batch's requests sent and never answered
    for (const cut of [1, 2, 3, 7, 12]) {
      const first = new MatchEngine(pkg.ruleset, { seed, keepLog: true }, pkg);
      const firstAsked = new Map<string, string>();
      for (let s = 0; s < seatsOf(first); s++) first.seatAgent(s, recordingSeat(s, firstAsked));
      await play(first, cut);
      if (first.outcome !== null) continue;
      first.askAgents(); // lost with the process
      const stored: StoredEntry[] = (first.entries ?? []).map((e) => ({ ...e }));

      const again = new MatchEngine(pkg.ruleset, { seed, keepLog: true }, pkg);
      again.beginResume();
      for (const sub of stored) assert.equal(again.replayStored(sub), null);
      const resumedAsked = new Map<string, string>();
      for (let s = 0; s < seatsOf(again); s++) again.seatAgent(s, recordingSeat(s, resumedAsked));
      again.resumeSeen();
      await play(again);

      assert.equal(again.hash, whole.hash, `${ruleset} cut at ${cut}: the resumed match is the uninterrupted one`);
      assert.ok(resumedAsked.size > 0);
      for (const [id, told] of resumedAsked)
        assert.equal(told, wholeAsked.get(id), `${ruleset} cut at ${cut}: request ${id} differs`);
      resumed++;
    }
    assert.ok(resumed >= 3, `${ruleset}: only ${resumed} cuts fell before the end`);
  });
}
