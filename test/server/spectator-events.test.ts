// Which events seats and spectators receive in imperfect-information games with several seats: a
// spectator the ruleset keeps no secret from (bnc) gets every event; otherwise a seat gets what the
// ruleset's eventView says it perceives, and a spectator the events every seat perceives whole.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GameEvent } from '../../packages/engine/src/kernel/index.ts';
import { bncPackage } from '../../packages/engine/src/rulesets/bnc/index.ts';
import { groundPackage } from '../../packages/engine/src/rulesets/ground/index.ts';
import { eventsFor } from '../../packages/engine/src/engine/audience.ts';

const events: GameEvent[] = [{ type: 'beat', beat: 'first_contact', turn: 1 }];

test('an omniscient spectator (bnc: no secrets for seat null) receives every event; a seat what it perceives', () => {
  const r = bncPackage.ruleset;
  const s = r.setup(r.defaultConfig, 3);
  assert.deepEqual(r.secrets!(s, null), []);
  const whisper: GameEvent = { type: 'whispered', seat: 0, to: 1, text: 'north' };
  const all = [...events, whisper];
  assert.deepEqual(eventsFor(bncPackage, s, null, all), all);
  assert.deepEqual(eventsFor(bncPackage, s, 0, all), [whisper], 'a beat is for the audience only');
  assert.deepEqual(eventsFor(bncPackage, s, 1, all), [whisper]);
  assert.deepEqual(eventsFor(bncPackage, s, 2, all), [], 'nobody else hears a whisper');
});

test('a spectator kept from secrets (ground: hands, hidden Problems) receives the events every seat perceives whole', () => {
  const r = groundPackage.ruleset;
  const s = r.setup(r.defaultConfig, 3);
  assert.ok(r.secrets!(s, null).length > 0);
  // GROUND's events carry no hidden value: every seat perceives each one whole, so all are public
  assert.deepEqual(eventsFor(groundPackage, s, null, events), events);
  assert.deepEqual(eventsFor(groundPackage, s, 2, events), events);
  // a ruleset whose seats perceive an event differently: the spectator gets only the public ones
  const redacting = {
    ...groundPackage,
    ruleset: {
      ...r,
      eventView: (e: GameEvent, seat: number): GameEvent | null =>
        e.type === 'own' ? (e.seat === seat ? e : null) : e.type === 'drew' ? (seat === 0 ? e : { type: 'drew' }) : e,
    },
  };
  const mixed: GameEvent[] = [{ type: 'own', seat: 1 }, { type: 'drew', seat: 0, card: 'Anchor' }, { type: 'open' }];
  assert.deepEqual(eventsFor(redacting, s, null, mixed), [{ type: 'open' }]);
  assert.deepEqual(eventsFor(redacting, s, 0, mixed), [mixed[1], mixed[2]]);
  assert.deepEqual(eventsFor(redacting, s, 1, mixed), [mixed[0], { type: 'drew' }, mixed[2]]);
});

test('without an eventView a seat of a hidden-information game receives no event', () => {
  const r = groundPackage.ruleset;
  const s = r.setup(r.defaultConfig, 3);
  const blind = { ...groundPackage, ruleset: { ...r, eventView: undefined } };
  assert.deepEqual(eventsFor(blind, s, 0, events), []);
  assert.deepEqual(eventsFor(blind, s, null, events), []);
});
