// bnc determinization (issue 15): a sampled state redraws what the contestant cannot see.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom } from '../../packages/engine/src/kernel/index.ts';
import { bnc } from '../../packages/engine/src/rulesets/bnc/index.ts';

test("[U19] a sampled state redraws undiscovered shortcuts, unseen item places and others' positions: over 50 samples they differ from the real ones", () => {
  const s = bnc.setup({}, 3);
  // a few turns of everyone moving forward, so the others spread out of sight
  const rnd = new SeededRandom(9);
  for (let turn = 0; turn < 3; turn++) {
    for (const p of bnc.pending(s)) {
      const moves = bnc.legal(s, p.seat).actions.filter((a) => a.type === 'move');
      bnc.apply(s, p.seat, moves.length > 0 ? moves[rnd.int(moves.length)] : { type: 'wait' }, []);
    }
  }
  const seat = 0;
  const view = bnc.view(s, seat);
  const hiddenShortcuts = (x: typeof s) =>
    JSON.stringify(x.shortcuts.filter((sc) => !s.contestants[seat].known.includes(sc.id)));
  const items = (x: typeof s) => JSON.stringify([x.floor, x.contestants.map((c) => c.items)]);
  const zones = (x: typeof s) => x.contestants.map((c) => c.zone).join();
  let shortcutsDiffer = 0;
  let itemsDiffer = 0;
  let zonesDiffer = 0;
  for (let k = 0; k < 50; k++) {
    const t = bnc.sampleState!(view, seat, new SeededRandom(300 + k));
    assert.deepEqual(bnc.view(t, seat), view);
    assert.deepEqual(bnc.legal(t, seat), bnc.legal(s, seat));
    if (hiddenShortcuts(t) !== hiddenShortcuts(s)) shortcutsDiffer++;
    if (items(t) !== items(s)) itemsDiffer++;
    if (zones(t) !== zones(s)) zonesDiffer++;
  }
  assert.ok(shortcutsDiffer >= 25, `undiscovered shortcuts differed in ${shortcutsDiffer}/50 samples`);
  assert.ok(itemsDiffer >= 25, `item places differed in ${itemsDiffer}/50 samples`);
  assert.ok(zonesDiffer >= 25, `the others' zones differed in ${zonesDiffer}/50 samples`);
});

test('[BNC-G02] a sampled state keeps the guild that invited the seat, so accepting works in the sample', () => {
  const s = bnc.setup({}, 4);
  s.guilds.push({ id: 'G1', home: 0, members: [1], vault: [], founded: 0, expiresAt: 20, claimSpent: false });
  s.contestants[1].guild = 'G1';
  s.invitations.push({ id: 'I1', guild: 'G1', from: 1, to: 0, made: 0, expiresAt: 15 });
  s.serial.guild = 1;
  s.serial.invitation = 1;
  const view = bnc.view(s, 0);
  const t = bnc.sampleState!(view, 0, new SeededRandom(7));
  assert.deepEqual(bnc.view(t, 0), view);
  assert.deepEqual(t.guilds.find((g) => g.id === 'G1')?.members, [1]);
  const accept = bnc.legal(t, 0).actions.find((a) => a.type === 'accept_guild');
  assert.ok(accept, 'accept_guild is on the sampled menu');
  bnc.apply(t, 0, accept, []);
  for (const p of bnc.pending(t)) bnc.apply(t, p.seat, { type: 'wait' }, []); // the turn resolves
  assert.equal(t.contestants[0].guild, 'G1');
});

test('[BNC-G02] a sampled state keeps the guild the seat invited someone to after leaving it, so the invitee can accept in the sample', () => {
  const s = bnc.setup({}, 4);
  // seat 0 invited seat 2 to G1, then left G1; seat 1 stays in it
  s.guilds.push({ id: 'G1', home: 0, members: [1], vault: [], founded: 0, expiresAt: 20, claimSpent: false });
  s.contestants[1].guild = 'G1';
  s.invitations.push({ id: 'I1', guild: 'G1', from: 0, to: 2, made: 0, expiresAt: 15 });
  s.serial.guild = 1;
  s.serial.invitation = 1;
  const view = bnc.view(s, 0);
  for (let k = 0; k < 10; k++) {
    const t = bnc.sampleState!(view, 0, new SeededRandom(40 + k));
    assert.deepEqual(bnc.view(t, 0), view);
    const g = t.guilds.find((x) => x.id === 'G1');
    assert.ok(g, 'the guild exists in the sample');
    assert.equal(g.members.length, 1);
    assert.equal(t.contestants[g.members[0]].guild, 'G1');
    // the invitee accepts and the turn resolves without a crash
    const accept = { type: 'accept_guild' as const, invitation: 'I1' };
    if (t.contestants[2].guild === null) {
      bnc.apply(t, 2, accept, []);
      for (const p of bnc.pending(t)) bnc.apply(t, p.seat, { type: 'wait' }, []);
      assert.equal(t.contestants[2].guild, 'G1');
    }
  }
});

test('[BNC-U03] a seat’s view lists the zones it searched, and no sample puts an unfound shortcut there', () => {
  const s = bnc.setup({}, 5);
  const seat = 0;
  const WAIT = { type: 'wait' as const };
  // seat 0 walks up the spine waiting once in each zone (each wait searches it) until it has
  // searched three: the zones beyond are still open to an unfound shortcut
  const rnd = new SeededRandom(11);
  for (let turn = 0; turn < 10 && s.contestants[seat].searched.length < 3; turn++) {
    for (const p of bnc.pending(s)) {
      const menu = bnc.legal(s, p.seat).actions;
      const mine = p.seat === seat;
      const c = s.contestants[seat];
      const a = mine
        ? c.searched.includes(c.zone)
          ? (menu.find((x) => x.type === 'move' && x.to === c.zone + 1) ?? WAIT)
          : WAIT
        : menu[rnd.int(menu.length)];
      bnc.apply(s, p.seat, a, []);
    }
  }
  const me = s.contestants[seat];
  assert.deepEqual(me.searched, [0, 1, 2]);
  const view = bnc.view(s, seat) as { me: { searched: number[] }; shortcuts: { a: number; b: number }[] };
  assert.deepEqual(view.me.searched, me.searched);
  const unfoundEnds = (t: typeof s) =>
    t.shortcuts.filter((sc) => !me.known.includes(sc.id)).flatMap((sc) => [sc.a, sc.b]);
  assert.ok(
    unfoundEnds(s).every((z) => !me.searched.includes(z)),
    'the real layout agrees: a search finds every shortcut ending there',
  );
  let unfoundSampled = 0;
  for (let k = 0; k < 200; k++) {
    const t = bnc.sampleState!(view as never, seat, new SeededRandom(500 + k));
    assert.deepEqual(bnc.view(t, seat), view);
    const ends = unfoundEnds(t);
    unfoundSampled += ends.length;
    assert.deepEqual(
      ends.filter((z) => me.searched.includes(z)),
      [],
      `sample ${k} hides a shortcut in a searched zone`,
    );
  }
  assert.ok(unfoundSampled > 0, 'some samples do place unfound shortcuts (elsewhere)');
  // a view from before contestants kept their searches (no `searched`) still samples, as if none
  const { searched: _old, ...olderMe } = view.me;
  const t = bnc.sampleState!({ ...view, me: olderMe } as never, seat, new SeededRandom(9));
  assert.deepEqual(t.contestants[seat].searched, []);
});

test('[BNC-U04] a seat that has read the survey chart has it in its view, and every sample keeps exactly the real shortcuts', () => {
  // a layout with shortcuts the seat has not found: seed 5 starts with more than one
  const s = bnc.setup({}, 5);
  const seat = 0;
  const chartZone = s.floor.findIndex((items) => items.includes('chart'));
  assert.ok(chartZone > 0, 'the chart lies on a middle zone');
  // hand the chart to seat 0 where it stands (items move; nothing else changes), then it reads it
  s.floor[chartZone] = s.floor[chartZone].filter((i) => i !== 'chart');
  s.contestants[seat].items = ['chart'];
  s.floor[s.contestants[seat].zone] = [...s.floor[s.contestants[seat].zone]];
  const before = bnc.view(s, seat) as { me: { chartRead: boolean } };
  assert.equal(before.me.chartRead, false);
  const rnd = new SeededRandom(3);
  for (const p of bnc.pending(s)) {
    const menu = bnc.legal(s, p.seat).actions;
    const a = p.seat === seat ? menu.find((x) => x.type === 'use_chart')! : menu[rnd.int(menu.length)];
    assert.ok(a, 'reading the held chart is on the menu');
    bnc.apply(s, p.seat, a, []);
  }
  const me = s.contestants[seat];
  assert.equal(me.chartRead, true);
  assert.deepEqual(
    me.known,
    s.shortcuts.map((sc) => sc.id),
  );
  const view = bnc.view(s, seat) as { me: { chartRead: boolean } };
  assert.equal(view.me.chartRead, true);
  for (let k = 0; k < 100; k++) {
    const t = bnc.sampleState!(view as never, seat, new SeededRandom(700 + k));
    assert.deepEqual(bnc.view(t, seat), view);
    assert.deepEqual(t.shortcuts, s.shortcuts, `sample ${k} invents a shortcut the chart would have shown`);
  }
  // a view from before the reading was kept (no `chartRead`) still samples, as not read
  const { chartRead: _old, ...olderMe } = view.me;
  const t = bnc.sampleState!({ ...view, me: olderMe } as never, seat, new SeededRandom(9));
  assert.equal(t.contestants[seat].chartRead, false);
});
