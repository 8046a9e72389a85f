// The scripted temperaments: always legal, deterministic, and different from one another.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act, SeededRandom } from '../../packages/engine/src/kernel/index.ts';
import { bnc, bncPackage } from '../../packages/engine/src/rulesets/bnc/index.ts';
import {
  choosePolicy,
  newMemory,
  playScripted,
  TEMPERAMENTS,
  type Memory,
  type Temperament,
} from '../../packages/engine/src/rulesets/bnc/agents.ts';
import { metrics } from '../../packages/engine/src/rulesets/bnc/outcome.ts';
import { BEATS } from '../../packages/engine/src/rulesets/bnc/beats.ts';
import { runMatch } from '../../packages/engine/src/engine/run-match.ts';
import { hashEvents } from '../../packages/engine/src/engine/log.ts';
import { makeAgents } from '../../src/agents/resolve.ts';

test('[BNC-A01] every scripted choice is accepted by the checked path, for every temperament', () => {
  for (let seed = 1; seed <= 6; seed++) {
    const lineup: Temperament[] = [0, 1, 2, 3].map((i) => TEMPERAMENTS[(i + seed) % 4]);
    let s = bnc.setup({}, seed);
    const mems: Memory[] = lineup.map(newMemory);
    const rnd = new SeededRandom(seed);
    while (bnc.outcome(s) === null) {
      const p = bnc.pending(s)[0];
      const a = choosePolicy(lineup[p.seat], s, p.seat, mems[p.seat], rnd);
      const r = act(bnc, s, p.seat, JSON.parse(JSON.stringify(a)));
      assert.ok(r.ok, `seed ${seed} seat ${p.seat} ${lineup[p.seat]}: ${JSON.stringify(a)} refused`);
      if (r.ok) s = r.state;
    }
  }
});

test('the fast path is deterministic: same seed and lineup, same event hash', () => {
  for (const seed of [1, 2, 99]) {
    const a = playScripted(seed, TEMPERAMENTS);
    const b = playScripted(seed, TEMPERAMENTS);
    assert.equal(hashEvents(a.events), hashEvents(b.events));
  }
  assert.notEqual(hashEvents(playScripted(1, TEMPERAMENTS).events), hashEvents(playScripted(2, TEMPERAMENTS).events));
});

test('[BNC-S08, BNC-G01, BNC-G08, BNC-A06, BNC-E01, BNC-E02, BNC-M07] the default line-up uses the whole ruleset: every beat, eliminations, escapes by more than one temperament', () => {
  const sum: Record<string, number> = {};
  const escapedBy = new Set<string>();
  for (let seed = 1; seed <= 100; seed++) {
    const m = playScripted(seed, TEMPERAMENTS);
    for (const [k, v] of Object.entries(metrics(m.state, m.events))) sum[k] = (sum[k] ?? 0) + v;
    for (const c of m.state.contestants) if (c.status === 'escaped') escapedBy.add(TEMPERAMENTS[c.seat]);
    // the cooperative and the cautious break a pact only with a partner whose reputation shows a betrayal
    for (const e of m.events)
      if (e.type === 'beat' && e.beat === 'pact_broken' && e.breaker !== 2)
        assert.ok([0, 3].includes(e.breaker as number));
  }
  for (const b of BEATS) assert.ok(sum[`beat_${b.beat}`] > 0, `beat ${b.beat} never happened`);
  assert.ok(sum.eliminations > 5, `eliminations ${sum.eliminations}`);
  assert.ok(escapedBy.size >= 2, `escapes only by ${[...escapedBy].join(', ')}`);
});

test('[BNC-E03] registered agents play whole matches through the match runner without a refused submission', async () => {
  const agents = makeAgents(bncPackage, 'cooperative,greedy,treacherous,cautious', 4);
  const m = await runMatch(bnc, agents, { seed: 5 });
  assert.notEqual(m.outcome, null);
  assert.equal(
    m.entries.every((e) => e.result === 'accepted'),
    true,
  );
  assert.ok(m.state.turn <= 45);
});
