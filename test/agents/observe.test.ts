// Observations a model can read (issue 12): every ruleset renders a seat's view in words
// (`viewText`) and, where information is hidden, says which events a seat perceives (`eventView`).
// Neither may reveal what the ruleset's `secrets` lists for that seat: checked with the kernel's
// one definition (`containsSecret`) over random matches of every ruleset.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  act,
  containsSecret,
  SeededRandom,
  type GameEvent,
  type Json,
  type Ruleset,
  type RulesetPackage,
} from '../../packages/engine/src/kernel/index.ts';
import { PACKAGES } from '../../packages/engine/src/registry.ts';
import { bncPackage } from '../../packages/engine/src/rulesets/bnc/index.ts';

type Leak = { seat: number; what: string; secret: Json };

/** Random play; after every submission, every seat's perception of its events and its view in words. */
function leaksOf(
  pkg: RulesetPackage,
  seeds: number[],
  maxSteps: number,
  eventView: Ruleset['eventView'] = pkg.ruleset.eventView,
): { leaks: Leak[]; events: number; seen: number } {
  const rs = pkg.ruleset;
  const leaks: Leak[] = [];
  let events = 0;
  let seen = 0;
  for (const seed of seeds) {
    const random = new SeededRandom(seed);
    let state = rs.setup(rs.defaultConfig, seed, []);
    const seats = rs.seats(state);
    for (let n = 0; n < maxSteps && rs.outcome(state) === null; n++) {
      const pending = rs.pending(state);
      if (pending.length === 0) break;
      const p = pending[random.int(pending.length)];
      const menu = rs.legal(state, p.seat);
      const res = act(rs, state, p.seat, random.pick(menu.actions));
      assert.ok(res.ok, `${rs.id}: a menu action was refused`);
      state = res.state;
      events += res.events.length;
      for (let seat = 0; seat < seats; seat++) {
        const secrets = rs.secrets?.(state, seat) ?? [];
        const perceived: GameEvent[] = [];
        for (const e of res.events) {
          const v = eventView ? eventView(e, seat) : pkg.gameType.information === 'perfect' ? e : null;
          if (v) perceived.push(v);
        }
        seen += perceived.length;
        const text = rs.viewText ? rs.viewText(rs.view(state, seat), seat) : '';
        for (const secret of secrets) {
          for (const e of perceived)
            if (containsSecret(e, secret)) leaks.push({ seat, what: JSON.stringify(e), secret });
          if (containsSecret(text, secret)) leaks.push({ seat, what: 'viewText', secret });
        }
      }
    }
  }
  return { leaks, events, seen };
}

for (const pkg of PACKAGES) {
  const rs = pkg.ruleset;
  test(`[AG-OBS] ${rs.id}: the view in words and the events a seat perceives reveal none of its secrets`, () => {
    assert.equal(typeof rs.viewText, 'function', `${rs.id} renders its view in words (no generic tree)`);
    if (pkg.gameType.information !== 'perfect')
      assert.equal(typeof rs.eventView, 'function', `${rs.id} hides information: it must say what each seat perceives`);
    const r = leaksOf(pkg, [1, 2, 3], 250);
    assert.deepEqual(r.leaks.slice(0, 3), [], `${rs.id} leaks`);
    assert.ok(r.seen > 0, `${rs.id}: seats perceive some events (${r.events} emitted)`);
    const setup = rs.setup(rs.defaultConfig, 1, []);
    const text = rs.viewText!(rs.view(setup, 0), 0);
    assert.ok(text.split('\n').length >= 3 && !text.startsWith('{'), text);
  });
}

test('[AG-OBS] the leak check has teeth: bnc events shown whole to every seat reveal whispers and private offers', () => {
  const r = leaksOf(bncPackage, [1, 2, 3], 250, (e) => e);
  assert.ok(r.leaks.length > 0, 'an identity eventView is caught');
});

test('[AG-OBS] bnc: a contestant perceives its own moves and speech it heard, not where others went', () => {
  const ev = bncPackage.ruleset.eventView!;
  assert.deepEqual(ev({ type: 'moved', seat: 1, from: 0, to: 1 }, 1), { type: 'moved', seat: 1, from: 0, to: 1 });
  assert.equal(ev({ type: 'moved', seat: 1, from: 0, to: 1 }, 0), null);
  assert.ok(ev({ type: 'said', seat: 1, zone: 0, text: 'hi', heard: [0, 2] }, 2));
  assert.equal(ev({ type: 'said', seat: 1, zone: 0, text: 'hi', heard: [0] }, 3), null);
  assert.equal(ev({ type: 'whispered', seat: 1, to: 2, text: 'psst' }, 0), null);
  assert.equal(ev({ type: 'beat', beat: 'first_pact', turn: 3, seats: [1, 2] }, 1), null, 'cut beats are for editors');
  assert.deepEqual(ev({ type: 'clock', turn: 2 }, 3), { type: 'clock', turn: 2 });
});

test('[AG-OBS] bnc: the view, its words, the pending entry and the menu agree on the turn being played', () => {
  const rs = bncPackage.ruleset;
  let s = rs.setup(rs.defaultConfig, 4, []);
  for (let turn = 1; turn <= 2; turn++) {
    const view = rs.view(s, 0);
    assert.ok(view.role === 'contestant');
    assert.equal(view.turn, turn);
    assert.equal(view.clock, turn - 1);
    assert.deepEqual(
      rs.pending(s).map((p) => p.turn),
      [turn, turn, turn, turn],
    );
    assert.match(rs.viewText!(view, 0), new RegExp(`turn ${turn} of 45 \\(${turn - 1} completed\\)`));
    const say = rs.legal(s, 0).actions.find((a) => (a as { type: string }).type === 'say') as { text: string };
    assert.match(say.text, new RegExp(`on turn ${turn}\\b`));
    for (const p of rs.pending(s)) {
      const r = act(rs, s, p.seat, { type: 'wait' });
      assert.ok(r.ok);
      s = r.state;
    }
  }
});
