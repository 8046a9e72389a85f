// The scripted temperaments: always legal, deterministic, and different from one another.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act, SeededRandom } from '../../src/kernel/index.ts';
import { bnc, bncPackage } from '../../src/rulesets/bnc/index.ts';
import { choosePolicy, playScripted, TEMPERAMENTS, type Memory, type Temperament } from '../../src/rulesets/bnc/agents.ts';
import { metricsOf } from '../../src/rulesets/bnc/outcome.ts';
import { hashEvents, runMatch } from '../../src/runners/match.ts';
import { makeAgents } from '../../src/agents/resolve.ts';

test('[BNC-A01] every scripted choice is accepted by the checked path, for every temperament', () => {
  for (let seed = 1; seed <= 6; seed++) {
    const lineup: Temperament[] = [0, 1, 2, 3].map((i) => TEMPERAMENTS[(i + seed) % 4]);
    let s = bnc.setup({}, seed);
    const mems: Memory[] = lineup.map(() => ({ visited: [] }));
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

test('[BNC-S08, BNC-G01, BNC-A06, BNC-E01] temperaments differ: the treacherous betray, the cooperative found guilds, the greedy fight, someone escapes', () => {
  const sum: Record<string, number> = {};
  for (let seed = 1; seed <= 60; seed++) {
    const m = playScripted(seed, TEMPERAMENTS);
    for (const [k, v] of Object.entries(metricsOf(m.state, m.events))) sum[k] = (sum[k] ?? 0) + v;
    for (const e of m.events) if (e.type === 'beat' && e.beat === 'pact_broken') assert.equal(e.breaker, 2, 'only the treacherous seat breaks pacts');
  }
  assert.ok(sum.beat_pact_broken > 60, `pacts broken ${sum.beat_pact_broken}`);
  assert.ok(sum.beat_guild_formed >= 10, `guilds formed ${sum.beat_guild_formed}`);
  assert.ok(sum.beat_attack > 20, `attacks ${sum.beat_attack}`);
  assert.ok(sum.escaped > 10, `escapes ${sum.escaped}`);
});

test('[BNC-E03] registered agents play whole matches through the match runner without a refused submission', async () => {
  const agents = makeAgents(bncPackage, 'cooperative,greedy,treacherous,cautious', 4);
  const m = await runMatch(bnc, agents, { seed: 5 });
  assert.notEqual(m.outcome, null);
  assert.equal(m.entries.every((e) => e.result === 'accepted'), true);
  assert.ok(m.state.turn <= 45);
});
