// Which events a spectator receives in imperfect-information games with several seats: none,
// unless the ruleset keeps no secret from the spectator (bnc), when it gets every event.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GameEvent } from '../../src/kernel/index.ts';
import { bncPackage } from '../../src/rulesets/bnc/index.ts';
import { groundPackage } from '../../src/rulesets/ground/index.ts';
import { eventsFor } from '../../src/server/secrets.ts';

const events: GameEvent[] = [{ type: 'beat', beat: 'first_contact', turn: 1 }];

test('an omniscient spectator (bnc: no secrets for seat null) receives every event; seats receive none', () => {
  const r = bncPackage.ruleset;
  const s = r.setup(r.defaultConfig, 3);
  assert.deepEqual(r.secrets!(s, null), []);
  assert.deepEqual(eventsFor(bncPackage, s, null, events), events);
  assert.deepEqual(eventsFor(bncPackage, s, 0, events), []);
});

test('a spectator kept from secrets (ground: hands, hidden Problems) receives no event', () => {
  const r = groundPackage.ruleset;
  const s = r.setup(r.defaultConfig, 3);
  assert.ok(r.secrets!(s, null).length > 0);
  assert.deepEqual(eventsFor(groundPackage, s, null, events), []);
});
