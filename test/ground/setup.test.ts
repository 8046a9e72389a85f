import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArbiterError } from '../../packages/engine/src/kernel/index.ts';
import { ground } from '../../packages/engine/src/rulesets/ground/index.ts';
import {
  parseEdition,
  SAMPLE_EDITION,
  valueInPlay,
  type Edition,
} from '../../packages/engine/src/rulesets/ground/edition.ts';
import { SUITS } from '../../packages/engine/src/rulesets/ground/state.ts';

function throwsBadConfig(fn: () => unknown, pattern: RegExp): void {
  assert.throws(
    fn,
    (err: unknown) => err instanceof ArbiterError && err.code === 'bad_config' && pattern.test(err.message),
  );
}

test('[GR-O01] setup seats 2 to 6 players and refuses other counts, unknown modes, scenarios and fields', () => {
  for (const players of [2, 3, 4, 5, 6]) assert.equal(ground.setup({ players }, 1).players.length, players);
  throwsBadConfig(() => ground.setup({ players: 1 }, 1), /players must be an integer from 2 to 6/);
  throwsBadConfig(() => ground.setup({ players: 7 }, 1), /players/);
  throwsBadConfig(() => ground.setup({ players: 2.5 }, 1), /players/);
  throwsBadConfig(() => ground.setup({ mode: 'solo' }, 1), /mode must be one of/);
  throwsBadConfig(() => ground.setup({ scenario: 'nowhere' }, 1), /unknown scenario "nowhere"/);
  throwsBadConfig(() => ground.setup({ rounds: 7 }, 1), /GROUND config: \(root\): Unrecognized key: "rounds"/);
  throwsBadConfig(() => ground.setup('four', 1), /\(root\): .*expected object/);
});

test('[GR-S01, GR-E01] every sample Scenario puts 6 / 9 / 12 points in play for 2 / 3-4 / 5-6 players against thresholds 5 / 7 / 9', () => {
  const want: Record<number, [number, number]> = { 2: [6, 5], 3: [9, 7], 4: [9, 7], 5: [12, 9], 6: [12, 9] };
  assert.ok(SAMPLE_EDITION.scenarios.length >= 2);
  for (const sc of SAMPLE_EDITION.scenarios) {
    for (const n of [2, 3, 4, 5, 6]) {
      assert.equal(valueInPlay(sc, n), want[n][0], `${sc.id} at ${n} players`);
      const s = ground.setup({ players: n, scenario: sc.id }, 3);
      assert.equal(
        s.problems.reduce((a, p) => a + p.value, 0),
        want[n][0],
      );
      assert.equal(s.threshold, want[n][1]);
      const cap = n <= 2 ? 2 : n <= 4 ? 3 : 4;
      assert.ok(s.problems.slice(1).every((p) => p.priority >= 1 && p.priority <= cap && !p.faceUp));
      assert.ok(s.problems[0].faceUp && s.problems[0].priority === 0);
    }
  }
});

test('[GR-S02, GR-S04] the deck and the two-card hands together hold the 24 core Solutions, 6 of each suit', () => {
  for (let seed = 0; seed < 50; seed++) {
    const s = ground.setup({ players: 2 + (seed % 5) }, seed);
    const bySuit = [0, 0, 0, 0];
    for (const c of s.deck) bySuit[c]++;
    for (const p of s.players) {
      assert.equal(
        p.hand.reduce((a, b) => a + b, 0),
        2,
      );
      assert.deepEqual([p.stress, p.freedom, p.darvo, p.token.at], [2, 'READY', 'OFF', -1]);
      p.hand.forEach((k, i) => (bySuit[i] += k));
    }
    assert.deepEqual(bySuit, [6, 6, 6, 6]);
  }
});

test('[GR-S03, GR-S04] the Lead and the deck order come from the seed: equal seeds agree, and every seat leads for some seed', () => {
  assert.deepEqual(ground.setup({}, 42), ground.setup({}, 42));
  const leads = new Set<number>();
  const decks = new Set<string>();
  for (let seed = 0; seed < 100; seed++) {
    const s = ground.setup({}, seed);
    leads.add(s.lead);
    decks.add(s.deck.join(''));
    assert.equal(s.round, 1);
  }
  assert.deepEqual([...leads].sort(), [0, 1, 2, 3]);
  assert.ok(decks.size > 90, `only ${decks.size} distinct deck orders in 100 seeds`);
});

test('[GR-S04] an edition with the wrong Solution counts, an unknown suit or duplicate ids is refused with a clear bad_config', () => {
  const copy = (): Edition => JSON.parse(JSON.stringify(SAMPLE_EDITION));
  const sixth = copy();
  sixth.solutions[0].suit = 'Repair';
  throwsBadConfig(() => parseEdition(sixth), /5 Clarify cards, the core deck has 6 per suit/);
  const badSuit = copy() as unknown as { scenarios: { surface: { suit: string } }[] };
  badSuit.scenarios[0].surface.suit = 'Patience';
  throwsBadConfig(() => parseEdition(badSuit), /scenarios\.0\.surface\.suit/);
  const dup = copy();
  dup.scenarios[1].id = dup.scenarios[0].id;
  throwsBadConfig(() => parseEdition(dup), /duplicate scenario id/);
  const extra = { ...copy(), rounds: 9 };
  throwsBadConfig(() => parseEdition(extra), /not a valid GROUND edition/);
  throwsBadConfig(() => ground.setup({ edition: 'sample' }, 1), /GROUND config: edition: .*expected object/);
  // a valid edition handed in through config is used as given
  const alt = copy();
  alt.id = 'alt-edition';
  alt.scenarios[0].thresholds['4'] = 8;
  const s = ground.setup({ edition: alt }, 1);
  assert.equal(s.edition, 'alt-edition');
  assert.equal(s.threshold, 8);
  assert.deepEqual([...SUITS], ['Clarify', 'Repair', 'Boundary', 'Change']);
});
