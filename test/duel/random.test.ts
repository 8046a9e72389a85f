// Random traces over the full-size profile with fast-check: a game is a list of choice indices
// (each taken modulo the current menu's length). Every transition must satisfy its contracts and
// every state the invariants. A broken variant is found and shrunk to a minimal choice sequence.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { duel } from '../../packages/engine/src/rulesets/duel/index.ts';
import type { DuelState } from '../../packages/engine/src/rulesets/duel/state.ts';

/** Plays the choices (then the first menu element) until the game ends; returns the first violation. */
function play(config: Record<string, unknown>, seed: number, choices: number[], maxSteps = 400): string[] {
  const s: DuelState = duel.setup(config, seed);
  for (let i = 0; i < maxSteps && duel.outcome(s) === null; i++) {
    const [p] = duel.pending(s);
    if (p === undefined) return ['deadlock: no outcome and nobody to move'];
    const menu = duel.legal(s, p.seat).actions;
    const action = menu[(choices[i] ?? 0) % menu.length];
    const before = duel.clone!(s);
    const events: never[] = [];
    duel.apply(s, p.seat, action, events);
    const bad = [...duel.checkTransition!(before, s, p.seat, action, events), ...duel.invariants!(s)];
    if (bad.length) return bad;
  }
  return [];
}

const choices = fc.array(fc.nat({ max: 50 }), { maxLength: 200 });

test('[TurnFormalBegin5, TurnFormalEnd5, TurnHandoff5, ActionEffectsBegin5, ActionNestedReturn5, DoCheckpoint, DoFatal, DiscardStep] random full-size games satisfy every contract', () => {
  fc.assert(
    fc.property(fc.nat({ max: 1_000_000 }), choices, (seed, cs) => {
      assert.deepEqual(play({}, seed, cs), []);
    }),
    { seed: 20261129, numRuns: 60 },
  );
});

test('[TurnHandoff5] fast-check finds the reset-counts handoff and shrinks it to a minimal choice sequence', () => {
  const r = fc.check(
    fc.property(
      fc.nat({ max: 1_000_000 }),
      choices,
      (seed, cs) => play({ variant: 'handoff_resets_counts' }, seed, cs).length === 0,
    ),
    { seed: 7, numRuns: 50 },
  );
  assert.equal(r.failed, true);
  const [, cs] = r.counterexample!;
  // the first handoff already breaks the contract, so any sequence fails: the shrinker reaches []
  assert.deepEqual(cs, []);
});

test('[ActionNestedReturn5] fast-check finds the loose child return in full-size games and shrinks the choices', () => {
  const r = fc.check(
    fc.property(fc.constant(3), choices, (seed, cs) => play({ variant: 'return_any_receipt' }, seed, cs).length === 0),
    { seed: 11, numRuns: 300 },
  );
  assert.equal(r.failed, true);
  const [seed, cs] = r.counterexample!;
  const why = play({ variant: 'return_any_receipt' }, seed, cs);
  assert.match(why[0], /^ActionNestedReturn5: conjunct "completedId = before.child"/);
  // shrunk from up to 200 random choices to a handful (6 with these seeds)
  assert.ok(cs.length <= 8, `counterexample of ${cs.length} choices`);
});
