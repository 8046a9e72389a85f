import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  act,
  canonicalJson,
  hashText,
  SeededRandom,
  type GameEvent,
  type Json,
} from '../../packages/engine/src/kernel/index.ts';
import { ground } from '../../packages/engine/src/rulesets/ground/index.ts';
import { agents } from '../../packages/engine/src/rulesets/ground/agents.ts';
import type { GroundState, SelectAction } from '../../packages/engine/src/rulesets/ground/state.ts';
import { MODES } from '../../packages/engine/src/rulesets/ground/state.ts';

type Visit = (s: GroundState, seat: number, kind: string) => void;

/** A random game through the checked path; `visit` sees every position before each submission. */
function playRandom(
  config: Record<string, unknown>,
  seed: number,
  visit?: Visit,
): { state: GroundState; events: GameEvent[] } {
  const rng = new SeededRandom(seed * 7 + 1);
  let s = ground.setup(config, seed);
  const events: GameEvent[] = [];
  for (let guard = 0; guard < 1000; guard++) {
    const pend = ground.pending(s);
    if (pend.length === 0) return { state: s, events };
    const p = pend[rng.int(pend.length)];
    visit?.(s, p.seat, p.kind);
    const menu = ground.legal(s, p.seat).actions;
    assert.ok(menu.length > 0, `empty menu for ${p.kind}`);
    const r = act(ground, s, p.seat, menu[rng.int(menu.length)]);
    assert.ok(r.ok, `menu action refused: ${JSON.stringify(r)}`);
    assert.deepEqual(ground.checkTransition!(s, r.state, p.seat, menu[0], r.events), []);
    s = r.state;
    events.push(...r.events);
  }
  throw new Error('game did not end');
}

test('[GR-F01, GR-O05, GR-L01, GR-O01] random games of every size and mode keep Stress in 0-5, relations symmetric with at most 2 per player, and end after 5 rounds', () => {
  let games = 0;
  for (const mode of MODES) {
    for (let n = 2; n <= 6; n++) {
      for (let g = 0; g < 20; g++) {
        const { state, events } = playRandom({ players: n, mode }, 100 * n + g, (s) =>
          assert.deepEqual(ground.invariants!(s), []),
        );
        assert.deepEqual(ground.invariants!(state), []);
        assert.equal(events.filter((e) => e.type === 'round_ended').length, 5);
        assert.equal(state.phase, 'over');
        assert.notEqual(ground.outcome(state), null);
        games++;
      }
    }
  }
  assert.equal(games, 300);
});

test('[GR-P05, GR-R03, GR-A13] every offered Select action can act: SOLVE only on face-up, unclaimed, non-Denied Problems the seat can pay for; gated seats only ATTACK/GROUND unless spending READY Freedom', () => {
  let solves = 0;
  for (let g = 0; g < 60; g++) {
    playRandom({ players: 2 + (g % 5) }, g, (s, seat, kind) => {
      if (kind !== 'select') return;
      const p = s.players[seat];
      for (const a of ground.legal(s, seat).actions as SelectAction[]) {
        if (a.action === 'SOLVE') {
          const pr = s.problems[a.target!];
          assert.ok(
            pr.faceUp && !pr.denied && pr.claimedBy < 0 && p.hand[pr.suit] > 0,
            JSON.stringify({ a, pr, hand: p.hand }),
          );
          solves++;
        }
        if (a.action === 'SUPPORT' || a.action === 'ATTACK') assert.notEqual(a.target, seat);
        if (p.stress >= 4 && a.action !== 'ATTACK' && a.action !== 'GROUND')
          assert.ok(a.freedom && p.freedom === 'READY');
        if (p.stress < 4) assert.equal(a.freedom, false);
      }
    });
  }
  assert.ok(solves > 0);
});

test('[GR-R02, GR-R05] no view shows another seat its uncommitted-to-reveal choice, an unrevealed GROUND mode, another hand or an unseen Problem', () => {
  let checked = 0;
  for (let g = 0; g < 40; g++) {
    playRandom({ players: 3 + (g % 4) }, 500 + g, (s) => {
      for (let seat = -1; seat < s.n; seat++) {
        const who = seat < 0 ? null : seat;
        const text = canonicalJson(ground.view(s, who));
        for (const secret of ground.secrets!(s, who)) {
          const needle = typeof secret === 'string' ? secret : canonicalJson(secret);
          assert.ok(!text.includes(needle), `seat ${who} sees ${needle}`);
          checked++;
        }
      }
    });
  }
  assert.ok(checked > 1000);
});

test('[GR-R04, GR-R05] once every seat has committed, all choices are revealed in one event and shown in every view while GROUND decides', () => {
  let st = ground.setup({ players: 3 }, 9);
  const picks = [
    { type: 'select', action: 'GROUND', target: null, freedom: false },
    { type: 'select', action: 'ATTACK', target: 0, freedom: false },
    { type: 'select', action: 'ATTACK', target: 0, freedom: false },
  ];
  let events: GameEvent[] = [];
  for (let seat = 0; seat < 3; seat++) {
    const r = act(ground, st, seat, picks[seat]);
    assert.ok(r.ok);
    st = r.state;
    events = r.events;
    if (seat < 2)
      assert.equal(
        events.some((e) => e.type === 'revealed'),
        false,
      );
  }
  const rev = events.find((e) => e.type === 'revealed')!;
  assert.equal((rev.choices as Json[]).length, 3);
  assert.deepEqual(
    ground.pending(st).map((p) => [p.seat, p.kind]),
    [[0, 'ground']],
  );
  for (const who of [0, 1, 2, null]) {
    const v = ground.view(st, who) as { players: { choice?: { action: string } }[] };
    assert.deepEqual(
      v.players.map((p) => p.choice?.action),
      ['GROUND', 'ATTACK', 'ATTACK'],
    );
  }
});

test('[GR-S03, GR-S04] the same seed and inputs give the same event stream; another seed gives another', () => {
  const hashOf = (seed: number) =>
    hashText(canonicalJson(playRandom({ players: 4, mode: 'personal-edge' }, seed).events));
  assert.equal(hashOf(77), hashOf(77));
  assert.notEqual(hashOf(77), hashOf(78));
});

test('[GR-E02, GR-D01] metrics agree with the final state and count rule firings from events', () => {
  for (let g = 0; g < 30; g++) {
    const { state, events } = playRandom({ players: 4 }, 900 + g);
    const m = ground.metrics!(state, events);
    const out = ground.outcome(state)!;
    const detail = out.detail as Record<string, Json>;
    assert.equal(m.group_success, detail.success ? 1 : 0);
    assert.equal(m.total_claimed, detail.total);
    assert.equal(m.darvo_triggers, events.filter((e) => e.type === 'darvo_triggered').length);
    assert.equal(m['rule:GR-D01'] ?? 0, m.darvo_triggers);
    assert.equal(m['rule:GR-R04'], 5);
    assert.equal(m.denied_problems, state.problems.filter((p) => p.denied).length);
    assert.equal(m.mean_stress, state.players.reduce((a, p) => a + p.stress, 0) / 4);
  }
});

test('[GR-E01] the heuristic agent plays whole games in every mode from the menu, and its groups meet the threshold more often than random ones', async () => {
  const run = async (useHeuristic: boolean, mode: string, seed: number) => {
    let s = ground.setup({ players: 4, mode }, seed);
    const rnd = new SeededRandom(seed);
    const ag = [0, 1, 2, 3].map((seat) => agents.heuristic({}));
    while (ground.pending(s).length > 0) {
      const p = ground.pending(s)[0];
      const menu = ground.legal(s, p.seat);
      const choice = useHeuristic
        ? await ag[p.seat].choose({
            ruleset: ground,
            seat: p.seat,
            kind: p.kind,
            view: ground.view(s, p.seat),
            menu,
            state: s,
            random: rnd,
          })
        : menu.actions[rnd.int(menu.actions.length)];
      const r = act(ground, s, p.seat, choice);
      assert.ok(r.ok, `agent action refused: ${JSON.stringify(r)}`);
      s = r.state;
    }
    return (ground.outcome(s)!.detail as Record<string, Json>).success ? 1 : 0;
  };
  let h = 0;
  let r = 0;
  for (const mode of MODES) {
    for (let seed = 0; seed < 40; seed++) {
      h += await run(true, mode, seed);
      r += await run(false, mode, seed);
    }
  }
  assert.ok(h > r, `heuristic successes ${h} vs random ${r} of 120`);
});

test('[GR-F01, GR-R02, GR-P03] the transition contracts catch Stress moved without an event, a changed commitment and an undone claim', () => {
  const before = ground.setup({ players: 3 }, 5);
  before.players[1].choice = { seat: 1, action: 'ATTACK', target: 0, freedom: false };
  before.problems[0].claimedBy = 2;
  const after = ground.clone!(before);
  after.players[0].stress = 4;
  after.players[1].choice = { seat: 1, action: 'SUPPORT', target: 0, freedom: false };
  after.problems[0].claimedBy = -1;
  const bad = ground.checkTransition!(before, after, 2, {} as never, []);
  assert.equal(bad.length, 3, bad.join('; '));
  assert.match(bad.join(' '), /GR-F01.*GR-R02.*GR-P03/);
});

test('[GR-R04] the words for a reveal name every seat’s choice (players read them once the view has cleared the choices)', () => {
  const { events } = playRandom({ players: 4 }, 3);
  const reveal = events.find((e) => e.type === 'revealed');
  assert.ok(reveal, 'a game reveals at least once');
  const words = ground.describeEvent!(reveal);
  for (const c of reveal.choices as { seat: number; action: string }[])
    assert.match(words, new RegExp(`seat ${c.seat} ${c.action}`));
});
