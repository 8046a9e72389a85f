// Profile-level properties: config validation, the readable log, views against secrets, and the
// step order of a whole turn as seen by the tracer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ArbiterError, SeededRandom, type GameEvent, type Ruleset } from '../../packages/engine/src/kernel/index.ts';
import { rulesetAt } from '../../packages/engine/src/registry.ts';
import { verifyLogText } from '../../src/runners/replay.ts';
import { duel } from '../../packages/engine/src/rulesets/duel/index.ts';
import { withTracer } from '../../packages/engine/src/rulesets/duel/rules.ts';
import type { DuelState } from '../../packages/engine/src/rulesets/duel/state.ts';

test('[DUEL-CARDS] bad configs are refused with bad_config and a message naming the field', () => {
  const cases: [unknown, RegExp][] = [
    [{ clicks: [0, 4] }, /duel config: clicks\.0: Too small/],
    [{ decks: [['spike'], ['ledger']] }, /card "ledger" belongs to the other seat's deck/],
    [{ decks: [['nope'], []] }, /duel config: decks\.0\.0: Invalid option/],
    [{ hand: [20, 5] }, /hand 20 is larger than deck 0/],
    [{ turns: 0 }, /duel config: turns: Too small/],
    [{ variant: 'fast' }, /duel config: variant: Invalid option/],
    [{ colour: 'red' }, /duel config: \(root\): Unrecognized key: "colour"/],
    ['big', /duel config: \(root\): .*expected object/],
  ];
  for (const [cfg, msg] of cases) {
    assert.throws(
      () => duel.setup(cfg, 1),
      (e: unknown) => e instanceof ArbiterError && e.code === 'bad_config' && msg.test(e.message),
    );
  }
});

test('[DUEL-STEPS] a corp turn runs its micro-steps in the profile order, each claiming its contract', () => {
  const s = duel.setup({ shuffle: false, hand: [4, 5] }, 1) as DuelState; // 4 + the required draw: no discard decision
  const claims: string[] = [];
  // three credits end the corp's turn; record every micro-step claim up to the runner's begin
  withTracer(
    (claim, b) => claims.push(`${b.step}:${claim}`),
    () => {
      for (let i = 0; i < 3; i++) duel.apply(s, 0, { type: 'credit' }, []);
    },
  );
  const order = claims.filter(
    (c) => !c.includes(':Window') && !c.includes(':Effect') && !c.startsWith('A3:') && !c.includes('DoCheckpoint'),
  );
  // the fixed skeleton after the last action
  const tail = order.slice(order.lastIndexOf('A2:ActionStart') + 1);
  assert.deepEqual(tail, [
    'A2:PhaseEndOrdinary',
    'A5:PhaseEndComplete',
    'D1:DiscardStep',
    'D3:LoseClicks',
    'D4:TurnFormalEnd5',
    'D5:TurnHandoff5',
    'R1:GainClicks',
    'R4:TurnFormalBegin5',
  ]);
});

test('[DUEL-VIEW] views in random full-size games never contain the other hand or a deck order', () => {
  for (let g = 0; g < 20; g++) {
    const rnd = new SeededRandom(g);
    const s = duel.setup({}, g) as DuelState;
    for (let i = 0; i < 300 && s.result === null; i++) {
      for (const seat of [0, 1, null]) {
        const text = JSON.stringify(duel.view(s, seat));
        for (const secret of duel.secrets!(s, seat))
          assert.ok(!text.includes(JSON.stringify(secret)), `seat ${seat} sees ${JSON.stringify(secret)}`);
        if (seat !== 0 && s.remote !== null)
          assert.equal((duel.view(s, seat) as { remote: { card: unknown } }).remote.card, null);
      }
      const menu = duel.legal(s, s.ask!.seat).actions;
      duel.apply(s, s.ask!.seat, menu[rnd.int(menu.length)], []);
    }
  }
});

test('[DUEL-STEPS] every event of random games has a readable line (no raw event types in the play log)', () => {
  const seen = new Set<string>();
  for (let g = 0; g < 40; g++) {
    const rnd = new SeededRandom(g);
    const s = duel.setup({}, g) as DuelState;
    const events: GameEvent[] = [];
    while (s.result === null) {
      const menu = duel.legal(s, s.ask!.seat).actions;
      duel.apply(s, s.ask!.seat, menu[rnd.int(menu.length)], events);
    }
    for (const e of events) {
      seen.add(e.type);
      assert.notEqual(duel.describeEvent!(e), e.type, `no description for ${e.type}`);
    }
  }
  assert.ok(seen.size >= 20, `only ${seen.size} event types seen`);
});

test('[DUEL-LOG] the readable log numbers turns 1, 2, 3 …, shows the standing at each turn end, and never names a face-down agenda', () => {
  const rnd = new SeededRandom(5);
  const events: GameEvent[] = [];
  // pinned to profile 0.3: the same random game as before 0.4 (the first turn begins during setup)
  const s = duel.setup({ profile: '0.3' }, 5, events) as DuelState;
  const headers: string[] = [];
  while (s.result === null) {
    const menu = duel.legal(s, s.ask!.seat).actions;
    const a = menu[rnd.int(menu.length)];
    headers.push(duel.describeAction!(a, s.ask!.seat));
    duel.apply(s, s.ask!.seat, a, events);
  }
  const lines = events.map((e) => duel.describeEvent!(e));
  const begins = lines
    .filter((l) => /turn \d+ \(frame #\d+\): \w+'s turn formally begins/.test(l))
    .map((l) => Number(/turn (\d+)/.exec(l)![1]));
  assert.deepEqual(
    begins,
    begins.map((_, i) => i + 1),
  );
  const ends = lines.filter((l) => l.includes('turn formally ends'));
  assert.ok(
    ends.length > 0 &&
      ends.every((l) => /standing: points corp \d+ – runner \d+; credits \d+ \/ \d+; cards in hand \d+ \/ \d+/.test(l)),
  );
  assert.ok(!headers.some((h) => h.includes('ledger')), 'a step header names the face-down agenda');
  assert.ok(headers.includes('install a card face down in the remote'));
});

test('[DUEL-LOG, DoFatal] a flatline prints its damage line before the game-over line', () => {
  const s = duel.setup(
    {
      shuffle: false,
      decks: [
        ['spike', 'ledger', 'bell', 'toll', 'stop', 'burn'],
        ['gamble', 'gamble', 'coffee'],
      ],
      hand: [5, 2],
    },
    1,
  ) as DuelState;
  const events: GameEvent[] = [];
  duel.apply(s, 0, { type: 'play', card: 'spike' }, events);
  const lines = events.map((e) => duel.describeEvent!(e));
  const i = lines.findIndex((l) => l.includes('runner takes 3 net damage with 2 card(s) in hand: flatlined'));
  assert.ok(i >= 0, lines.join('\n'));
  assert.match(lines[i + 1], /GAME OVER: corp wins \(flatline\)/);
});

test('[U-PROFILE] a duel-refprofile-0.3 log (written before 0.4) still replays under 0.3; the 0.4 defaults would not reproduce it', () => {
  const text = readFileSync(new URL('./fixtures/duel-0.3-seed3.jsonl', import.meta.url), 'utf8');
  assert.match(text, /"version":"duel-refprofile-0\.3"/);
  assert.equal(duel.version, 'duel-refprofile-0.4');
  // as `arbiter replay` resolves it: the package's earlier version named by the header
  const ok = verifyLogText(text, { resolve: (id, version) => rulesetAt(id, version) as Ruleset<unknown> });
  assert.equal(ok.status, 'verified', ok.message);
  // without the earlier version the log is refused as another version, not mis-replayed
  const refused = verifyLogText(text, { resolve: () => duel as unknown as Ruleset<unknown> });
  assert.equal(refused.status, 'version');
  // and played on 0.4's defaults (the header relabelled) it diverges: the profile decides the decks
  const relabelled = text.replace('"version":"duel-refprofile-0.3"', '"version":"duel-refprofile-0.4"');
  const diverged = verifyLogText(relabelled, { resolve: () => duel as unknown as Ruleset<unknown> });
  assert.equal(diverged.status, 'diverged', diverged.message);
  // the 0.3 profile stays selectable in a config
  const s03 = duel.setup({ profile: '0.3' }, 3) as DuelState;
  assert.equal(s03.cfg.cards[0] + s03.cfg.cards[1], 19 + 12);
  const s04 = duel.setup({}, 3) as DuelState;
  assert.equal(s04.cfg.cards[0] + s04.cfg.cards[1], 18 + 19);
  assert.throws(
    () => duel.setup({ profile: '0.1' }, 1),
    (e: unknown) => e instanceof ArbiterError && e.code === 'bad_config' && /profile: .*"0.3"|"0.4"/.test(e.message),
  );
});
