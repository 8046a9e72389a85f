// Determinization for fair search agents (issue 15): a full bnc state consistent with what one
// contestant observes. Public and own parts are read back from the view; the rest is drawn from
// `random`: where the others stand, their health, items, shortcut knowledge and this turn's hidden
// submissions; items lying in unseen zones; the Warden's health when out of sight; the shortcuts the
// seat has not discovered (respecting the ids it knows); and fresh RNG streams.
//
// Approximations (the seat cannot know them and they do not change its view or menu): offers,
// proposals, pacts, invitations and messages not involving the seat are left out, and so are other
// guilds (membership is private, U25); first-contact pairs are those the seat took part in visibly.

import { ArbiterError, createRng, type AgentRandom } from '../../kernel/index.ts';
import { EXIT, ITEM_IDS, ZONE_COUNT, type ItemId } from './constants.ts';
import { legal } from './menu.ts';
import { shortcutCandidates } from './setup.ts';
import type { BncSeatView, BncView } from './view.ts';
import { cloneOffer, type BncState, type Contestant, type Guild, type Shortcut } from './state.ts';

type Offer = BncState['offers'][number];

/** A contestant's view (the sampler and the fair agents read it). */
export type SeatView = BncSeatView;

function idNumber(id: string): number {
  const n = Number(id.slice(1));
  return Number.isInteger(n) ? n : 0;
}

function shuffle<T>(items: T[], random: AgentRandom): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  return items;
}

/**
 * 1–3 shortcuts sorted by zone pair, numbered S1.., keeping the known ones at their ids. An unknown
 * one never ends in a zone the seat has searched: that search would have found it (U03). A seat that
 * has read the survey chart knows them all (U04): its known ones are the whole layout.
 */
function sampleShortcuts(
  known: Shortcut[],
  searched: readonly number[],
  chartRead: boolean,
  random: AgentRandom,
): Shortcut[] {
  if (chartRead) return known.map((sc) => ({ id: sc.id, a: sc.a, b: sc.b }));
  const maxIdx = known.reduce((m, sc) => Math.max(m, idNumber(sc.id)), 0);
  const isKnown = (a: number, b: number) => known.some((sc) => sc.a === a && sc.b === b);
  const rest = shortcutCandidates().filter(
    ([a, b]) => !isKnown(a, b) && !searched.includes(a) && !searched.includes(b),
  );
  for (let tries = 0; tries < 500; tries++) {
    const lo = Math.max(1, maxIdx, known.length);
    const hi = 3;
    if (lo > hi) break;
    const k = lo + random.int(hi - lo + 1);
    const extra = shuffle(rest.slice(), random).slice(0, k - known.length);
    const pairs: [number, number][] = [...known.map((sc): [number, number] => [sc.a, sc.b]), ...extra];
    pairs.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    const out = pairs.map(([a, b], i) => ({ id: `S${i + 1}`, a, b }));
    if (known.every((sc) => out.some((o) => o.id === sc.id && o.a === sc.a && o.b === sc.b))) return out;
  }
  throw new ArbiterError('bad_request', 'bnc sample: no shortcut layout fits the known shortcuts');
}

export function sampleState(view: BncView, seat: number, random: AgentRandom): BncState {
  if (view.role !== 'contestant') throw new ArbiterError('bad_request', 'bnc sample: needs a contestant view');
  const v: SeatView = view;
  const cfg = { ...v.config };
  const here = v.me.zone;
  // a view made before contestants kept their searches lists none: nothing known to be searched
  const searched: number[] = Array.isArray(v.me.searched) ? v.me.searched : [];
  // likewise a view from before the chart reading was kept: not known to have been read
  const chartRead = v.me.chartRead === true;
  const shortcuts = sampleShortcuts(v.shortcuts, searched, chartRead, random);
  const myGuild = v.guild;
  const guilds: Guild[] =
    myGuild === null ? [] : [{ ...myGuild, members: myGuild.members.slice(), vault: myGuild.vault.slice() }];
  const guildSerial = [...guilds.map((g) => g.id), ...v.invitations.map((i) => i.guild)].reduce(
    (m, id) => Math.max(m, idNumber(id)),
    0,
  );
  const holds = new Map<number, boolean>(); // offerer seat → holds the goods of its offer to me
  for (const o of v.offers) if (o.offererHolds !== undefined) holds.set(o.from, o.offererHolds);

  const contestants: Contestant[] = v.contestants.map((pc): Contestant => {
    if (pc.seat === seat) {
      const m = v.me;
      return {
        seat,
        zone: here,
        health: m.health,
        items: m.items.slice(),
        status: m.status,
        at: pc.at,
        route: m.route,
        reputation: m.reputation,
        guild: m.guild,
        deposited: m.deposited,
        withdrawn: m.withdrawn,
        known: v.shortcuts.map((sc) => sc.id),
        searched: searched.slice(),
        chartRead,
        submitted: m.submitted,
      };
    }
    const seen = v.here.others.find((o) => o.seat === pc.seat);
    let zone: number;
    if (seen || holds.has(pc.seat)) zone = here;
    else if (pc.status === 'escaped' && here !== EXIT) zone = EXIT;
    else zone = [...Array(ZONE_COUNT).keys()].filter((z) => z !== here)[random.int(ZONE_COUNT - 1)];
    const health = seen ? seen.health : pc.status === 'eliminated' ? 0 : 1 + random.int(cfg.health);
    // membership of other guilds is private (U25): only the seat's own guild and the guilds that
    // invited it (their inviters are members) are known to exist
    const invitedBy = v.invitations.find((i) => i.to === seat && i.from === pc.seat && i.guild !== myGuild?.id);
    const guild = myGuild?.members.includes(pc.seat) ? myGuild.id : invitedBy ? invitedBy.guild : null;
    const known = shortcuts.filter(() => random.int(4) === 0).map((sc) => sc.id);
    return {
      seat: pc.seat,
      zone,
      health,
      items: [],
      status: pc.status,
      at: pc.at,
      route: pc.status === 'escaped' ? ('fragments' as const) : null,
      reputation: pc.reputation,
      guild,
      deposited: 0,
      withdrawn: 0,
      known,
      // where the others have searched is theirs to know; a sample leaves it empty
      searched: [],
      // so is whether they read the chart; a sample says they did not
      chartRead: false,
      submitted: null,
    };
  });

  // a guild that invited the seat must exist for accept_guild to work: rebuilt from what the seat
  // knows (its id and inviters), home and term drawn, vault unknown (empty)
  for (const inv of v.invitations) {
    if (inv.to !== seat || inv.guild === myGuild?.id) continue;
    let g = guilds.find((x) => x.id === inv.guild);
    if (!g) {
      g = {
        id: inv.guild,
        home: random.int(ZONE_COUNT),
        members: [],
        vault: [],
        founded: inv.made,
        expiresAt: v.clock + 1 + random.int(30),
        claimSpent: false,
      };
      guilds.push(g);
    }
    if (!g.members.includes(inv.from)) g.members = [...g.members, inv.from].sort((a, b) => a - b);
  }

  // an invitation the seat sent outlives its leaving the guild, so that guild still exists (one left
  // empty dissolves and takes its invitations along) with members the seat cannot see: one is drawn
  for (const inv of v.invitations) {
    if (inv.from !== seat || guilds.some((g) => g.id === inv.guild)) continue;
    const free = contestants.filter((c) => c.seat !== seat && c.status === 'active' && c.guild === null);
    const members = free.length > 0 ? [free[random.int(free.length)].seat] : [];
    for (const m of members) contestants[m].guild = inv.guild;
    guilds.push({
      id: inv.guild,
      home: random.int(ZONE_COUNT),
      members,
      vault: [],
      founded: inv.made,
      expiresAt: v.clock + 1 + random.int(30),
      claimSpent: false,
    });
  }

  // items the seat cannot locate go to unseen floors and other active contestants, at random,
  // honouring what an offer to the seat says about its offerer's goods
  const floor: ItemId[][] = Array.from({ length: ZONE_COUNT }, () => []);
  floor[here] = v.here.floor.slice();
  const located = new Set<ItemId>([...v.me.items, ...v.here.floor, ...(myGuild?.vault ?? [])]);
  const unseen = ITEM_IDS.filter((it) => !located.has(it));
  const holders = contestants.filter((c) => c.seat !== seat && c.status === 'active');
  const places = ZONE_COUNT - 1 + holders.length;
  for (let tries = 0; ; tries++) {
    for (let z = 0; z < ZONE_COUNT; z++) if (z !== here) floor[z] = [];
    for (const c of contestants) if (c.seat !== seat) c.items = [];
    const forced = new Map<ItemId, number>();
    for (const o of v.offers) if (o.offererHolds === true) for (const it of o.give) forced.set(it, o.from);
    for (const it of unseen) {
      const to = forced.get(it);
      if (to !== undefined) {
        contestants[to].items.push(it);
        continue;
      }
      const k = random.int(places);
      if (k < holders.length) holders[k].items.push(it);
      else floor[[...Array(ZONE_COUNT).keys()].filter((z) => z !== here)[k - holders.length]].push(it);
    }
    const fits = v.offers.every(
      (o) => o.offererHolds !== false || !o.give.every((it) => contestants[o.from].items.includes(it)),
    );
    if (fits) break;
    if (tries > 200) throw new ArbiterError('bad_request', 'bnc sample: no item placement fits the offers');
  }

  const offers: Offer[] = v.offers.map(cloneOffer);
  const contacts = new Set<string>();
  const touch = (a: number, b: number) => {
    if (a !== b && b >= 0) contacts.add(`${Math.min(a, b)}-${Math.max(a, b)}`);
  };
  for (const m of v.messages) {
    touch(m.from, m.to ?? seat);
  }
  for (const o of offers) touch(o.from, o.to);
  for (const p of v.proposals) touch(p.from, p.to);
  for (const p of v.pacts) touch(p.a, p.b);
  const top = (ids: string[]) => ids.reduce((m, id) => Math.max(m, idNumber(id)), 0);

  const s: BncState = {
    config: cfg,
    edition: v.edition,
    turn: v.clock,
    over: v.over,
    endReason: null,
    shortcuts,
    floor,
    contestants,
    warden: {
      zone: EXIT,
      health: v.here.warden ? v.here.warden.health : v.warden.down ? 0 : 1 + random.int(cfg.wardenHealth),
      down: v.warden.down,
    },
    // who the Warden struck last: read from the sampled positions (only beats depend on it)
    wardenEngaged: v.warden.down
      ? null
      : (contestants.find((c) => c.status === 'active' && c.zone === EXIT)?.seat ?? null),
    offers,
    proposals: v.proposals.map((p) => ({ ...p })),
    pacts: v.pacts.map((p) => ({ ...p })),
    guilds,
    invitations: v.invitations.map((i) => ({ ...i })),
    // a whisper's recipient does not see where it was spoken: the speaker's sampled zone stands in
    messages: v.messages.map((m) => ({
      turn: m.turn,
      from: m.from,
      to: m.to,
      zone: m.zone ?? contestants[m.from].zone,
      text: m.text,
      heard: m.heard.slice(),
    })),
    serial: {
      offer: top(offers.map((o) => o.id)),
      proposal: top(v.proposals.map((p) => p.id)),
      pact: top(v.pacts.map((p) => p.id)),
      guild: guildSerial,
      invitation: top(v.invitations.map((i) => i.id)),
    },
    contacts: [...contacts].sort(),
    firstPact: v.pacts.length > 0,
    silentRun: 0,
    rng: createRng(random.int(0x3fffffff)),
  };

  // others' submissions this turn are hidden: each active one has submitted (a random entry of its
  // menu) or not, half and half; someone besides a seat that already submitted stays owing
  if (!s.over) {
    const others = contestants.filter((c) => c.seat !== seat && c.status === 'active');
    for (const c of others) {
      if (random.int(2) === 0) continue;
      const menu = legal(s, c.seat).actions;
      if (menu.length > 0) c.submitted = random.pick(menu);
    }
    if (v.me.submitted !== null && others.length > 0 && others.every((c) => c.submitted !== null))
      random.pick(others).submitted = null;
  }
  return s;
}
