// Rules checked over many random menu games (every menu action is fair game).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act, SeededRandom, type GameEvent } from '../../packages/engine/src/kernel/index.ts';
import { bnc, type BncState } from '../../packages/engine/src/rulesets/bnc/index.ts';

function randomGame(seed: number, onTurn: (before: BncState, events: GameEvent[]) => void): BncState {
  let s = bnc.setup({}, seed);
  // push contestants towards the Exit so the Warden is busy
  for (const c of s.contestants) c.zone = 3 + (c.seat % 3);
  const rnd = new SeededRandom(seed);
  while (bnc.outcome(s) === null) {
    const p = bnc.pending(s)[0];
    const menu = bnc.legal(s, p.seat).actions;
    const r = act(bnc, s, p.seat, menu[rnd.int(menu.length)]);
    assert.ok(r.ok);
    if (!r.ok) break;
    if (r.events.some((e) => e.type === 'clock')) onTurn(s, r.events);
    s = r.state;
  }
  return s;
}

test('[BNC-W02, BNC-W03, BNC-W04] the Warden strikes the lowest active seat in its zone after the clock, for 1–3 on a hit, and lands about two in three', () => {
  let strikes = 0;
  let hits = 0;
  for (let seed = 1; seed <= 40; seed++) {
    randomGame(seed, (before, events) => {
      const clock = events.findIndex((e) => e.type === 'clock');
      const strike = events.findIndex((e) => e.type === 'warden_strike');
      if (strike < 0) return;
      assert.ok(strike > clock, 'the Warden acts after the clock');
      const escape = events.findIndex((e) => e.type === 'beat' && e.beat === 'escape');
      if (escape >= 0) assert.ok(escape > strike, 'the Warden acts before the escape check');
      const e = events[strike];
      strikes++;
      if (e.hit) {
        hits++;
        assert.ok((e.damage as number) >= 1 && (e.damage as number) <= 3, `damage ${e.damage}`);
      } else assert.equal(e.damage, 0);
      // the target is the lowest seat that was active in the Warden's zone once the moves resolved
      const moved = new Map<number, number>();
      for (const ev of events) if (ev.type === 'moved') moved.set(ev.seat as number, ev.to as number);
      const there = before.contestants
        .filter((c) => c.status === 'active' && (moved.get(c.seat) ?? c.zone) === before.warden.zone)
        .map((c) => c.seat);
      assert.equal(e.target, Math.min(...there));
    });
  }
  assert.ok(strikes > 100, `only ${strikes} strikes`);
  const rate = hits / strikes;
  assert.ok(rate > 0.55 && rate < 0.78, `hit rate ${rate}`);
});

test('[BNC-M06, BNC-E03, BNC-M07] random matches never exceed 45 turns, and eliminated contestants never act again', () => {
  for (let seed = 1; seed <= 30; seed++) {
    const s = randomGame(seed, (before, events) => {
      for (const e of events) {
        if (e.type === 'submitted') assert.equal(before.contestants[e.seat as number].status, 'active');
      }
    });
    assert.ok(s.turn <= 45);
    assert.ok(s.turn === 45 || s.contestants.every((c) => c.status !== 'active'));
    assert.deepEqual(bnc.invariants!(s), []);
  }
});
