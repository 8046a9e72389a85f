// The fair scripted contestants (issue 15): they read only the seat's view and menu, every
// choice is accepted, the same seed gives the same match, and the scout outplays the strongest
// state-reading temperament.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act, SeededRandom, type Agent, type AgentContext, type Json } from '../../packages/engine/src/kernel/index.ts';
import { bnc, bncPackage, type BncState } from '../../packages/engine/src/rulesets/bnc/index.ts';
import {
  chooseFair,
  FAIR_STYLES,
  newFairMemory,
  type FairMemory,
} from '../../packages/engine/src/rulesets/bnc/fair.ts';
import type { SeatView } from '../../packages/engine/src/rulesets/bnc/sample.ts';
import type { Action } from '../../packages/engine/src/rulesets/bnc/schema.ts';
import { runMatch } from '../../packages/engine/src/engine/run-match.ts';
import { hashEvents } from '../../packages/engine/src/engine/log.ts';
import { makeAgents } from '../../src/agents/resolve.ts';

const poisoned = (): BncState =>
  new Proxy({} as BncState, {
    get: () => {
      throw new Error('a fair agent read the state');
    },
  });

test('[issue 15] the fair agents are registered as reading only the view', () => {
  for (const name of FAIR_STYLES) assert.equal(bncPackage.agents[name]?.reads, 'view', name);
});

test('[issue 15, BNC-A01] the fair agents never touch the state and every choice is accepted, over 40 matches with mixed line-ups', () => {
  const pool = ['scout', 'turncoat', 'treacherous', 'cooperative', 'greedy', 'cautious', 'random'];
  for (let seed = 1; seed <= 40; seed++) {
    const names = [0, 1, 2, 3].map((i) =>
      i % 2 === 0 ? FAIR_STYLES[(seed + i) % 2] : pool[(seed * 3 + i) % pool.length],
    );
    const agents: Agent[] = names.map((n) => bncPackage.agents[n]?.factory({}) ?? makeAgents(bncPackage, n, 1)[0]);
    let s = bnc.setup({}, seed);
    const rnd = names.map((_, i) => new SeededRandom(seed * 10 + i));
    while (bnc.outcome(s) === null) {
      const p = bnc.pending(s)[0];
      const fair = FAIR_STYLES.includes(names[p.seat] as never);
      const ctx: AgentContext = {
        ruleset: bnc as never,
        seat: p.seat,
        kind: p.kind,
        view: bnc.view(s, p.seat),
        menu: bnc.legal(s, p.seat),
        // the fair agents get a state that throws on any read
        state: fair ? poisoned() : s,
        random: rnd[p.seat],
      };
      const a = agents[p.seat].choose(ctx) as Json;
      const r = act(bnc, s, p.seat, JSON.parse(JSON.stringify(a)));
      assert.ok(r.ok, `seed ${seed} seat ${p.seat} ${names[p.seat]}: ${JSON.stringify(a)} refused`);
      if (r.ok) s = r.state;
    }
  }
});

test('[issue 15] the fair agents decide the same on a resampled state: hidden parts redrawn, same view, same choice', () => {
  let checked = 0;
  for (const style of FAIR_STYLES) {
    for (let seed = 1; seed <= 6; seed++) {
      const s = bnc.setup({}, seed);
      const mems: FairMemory[] = [0, 1, 2, 3].map(newFairMemory);
      const play = new SeededRandom(seed);
      while (bnc.outcome(s) === null) {
        const p = bnc.pending(s)[0];
        const view = bnc.view(s, p.seat) as SeatView;
        // the hidden parts redrawn: other positions, holdings, shortcuts, unseen floors, the RNG
        const t = bnc.sampleState!(view, p.seat, new SeededRandom(seed * 1000 + s.turn));
        const onSample = chooseFair(
          style,
          bnc.view(t, p.seat) as SeatView,
          bnc.legal(t, p.seat).actions,
          structuredClone(mems[p.seat]),
          new SeededRandom(s.turn),
        );
        const a = chooseFair(style, view, bnc.legal(s, p.seat).actions, mems[p.seat], new SeededRandom(s.turn));
        assert.deepEqual(onSample, a, `${style} seed ${seed} turn ${s.turn} seat ${p.seat}`);
        checked++;
        // everyone moves on by the style itself or at random, so the matches spread out
        const menu = bnc.legal(s, p.seat).actions;
        bnc.apply(s, p.seat, play.int(3) === 0 ? menu[play.int(menu.length)] : a, []);
      }
    }
  }
  assert.ok(checked > 300, `only ${checked} decisions compared`);
});

test('[issue 15] the fair agents are deterministic: same seed and line-up, same event stream', async () => {
  for (const lineup of ['scout,treacherous,turncoat,scout', 'turncoat,scout,greedy,cooperative']) {
    const run = async () => (await runMatch(bnc, makeAgents(bncPackage, lineup, 4), { seed: 11 })).events;
    assert.equal(hashEvents(await run()), hashEvents(await run()));
  }
});

/** Escapes per agent over matches with every seating of two scouts and two of `other`. */
async function headToHead(other: string, seeds: number): Promise<{ scout: number; other: number }> {
  const seatings = [
    'scout,scout,X,X',
    'X,X,scout,scout',
    'scout,X,scout,X',
    'X,scout,X,scout',
    'scout,X,X,scout',
    'X,scout,scout,X',
  ];
  const wins = { scout: 0, other: 0 };
  for (let seed = 1; seed <= seeds; seed++)
    for (const seating of seatings) {
      const names = seating.replaceAll('X', other);
      const m = await runMatch(bnc, makeAgents(bncPackage, names, 4), { seed });
      assert.ok(m.entries.every((e) => e.result === 'accepted'));
      for (const w of m.outcome?.winners ?? []) wins[names.split(',')[w] === 'scout' ? 'scout' : 'other']++;
    }
  return wins;
}

test('[issue 15] the scout escapes more often than the strongest state-reading temperament (treacherous) head to head', async () => {
  // seeds 1-10 gave 32 escapes to 0 (at least 3 of 6 seatings each seed): 5 seeds (30 matches) decide
  // it as well; a scout no better than treacherous would split the escapes and fail the factor of 2
  const w = await headToHead('treacherous', 5);
  assert.ok(w.scout > 2 * w.other, `scout ${w.scout} escapes, treacherous ${w.other}`);
});

test('[issue 15] chooseFair answers wait when the seat has no menu', () => {
  const s = bnc.setup({}, 1);
  const a: Action = chooseFair('scout', bnc.view(s, 0) as SeatView, [], newFairMemory(), new SeededRandom(1));
  assert.deepEqual(a, { type: 'wait' });
});

test("[issue 15] bnc's search agents play out with a fair agent: the rollout policy reads only the view", () => {
  const rollout = bncPackage.search?.rollout;
  assert.ok(rollout !== undefined);
  assert.equal(bncPackage.agents[rollout]?.reads, 'view', rollout);
});
