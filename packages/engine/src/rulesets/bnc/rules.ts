// The transition: a submission is stored; once every active contestant has submitted, the turn
// resolves — actions in ascending seat order (U10), the clock, expiries (U17), the Warden (W04),
// the escape check, the end. Randomness only through the named streams in the state.

import { nextInt, nextRange, type GameEvent, type Json } from '../../kernel/index.ts';
import {
  EXIT,
  FRAGMENTS,
  INVITATION_TURNS,
  PROPOSAL_TURNS,
  SILENCE_TURNS,
  STREAM_STRIKES,
  STREAM_WARDEN,
  WARDEN_HIT_IN,
  WARDEN_HIT_OF,
} from './constants.ts';
import type { BeatName } from './beats.ts';
import { check } from './conditions.ts';
import type { Action } from './schema.ts';
import {
  canEscape,
  guildOf,
  holdsAllFragments,
  isFragment,
  pairKey,
  type BncState,
  type Contestant,
  type Guild,
  type Route,
} from './state.ts';

function beat(s: BncState, events: GameEvent[], name: BeatName, fields: Record<string, Json>): void {
  events.push({ type: 'beat', beat: name, turn: s.turn, ...fields });
}

/** Store one submission; resolve the turn once every active contestant has submitted. */
export function apply(s: BncState, seat: number, action: Action, events: GameEvent[]): void {
  s.contestants[seat].submitted = action;
  events.push({ type: 'submitted', seat, turn: s.turn + 1 });
  for (const c of s.contestants) if (c.status === 'active' && c.submitted === null) return;
  resolveTurn(s, events);
}

function resolveTurn(s: BncState, events: GameEvent[]): void {
  const n = s.turn + 1;
  // the resolution is atomic, so the turn number is set first for every event it stamps; the
  // 'clock' event still marks the seed's point where the clock advances (after all actions)
  s.turn = n;
  let spoke = false;
  for (const c of s.contestants) {
    const a = c.submitted;
    if (a === null) continue;
    c.submitted = null;
    if (c.status !== 'active') continue;
    const bad = check(s, c.seat, a);
    if (bad) {
      events.push({ type: 'fizzled', seat: c.seat, action: a.type, reason: bad.reason });
      continue;
    }
    if (a.type === 'say' || a.type === 'whisper') spoke = true;
    perform(s, c, a, events);
  }
  events.push({ type: 'clock', turn: n });
  expire(s, events);
  wardenActs(s, events);
  escapeCheck(s, events);
  if (spoke) s.silentRun = 0;
  else if (++s.silentRun >= SILENCE_TURNS) {
    events.push({ type: 'beat', beat: 'silence', turn: n, turns: s.silentRun });
    s.silentRun = 0;
  }
  if (!s.contestants.some((c) => c.status === 'active')) end(s, 'empty', events);
  else if (n >= s.config.turns) {
    events.push({
      type: 'beat',
      beat: 'collapse',
      turn: n,
      survivors: s.contestants.filter((c) => c.status === 'active').map((c) => c.seat),
    });
    end(s, 'collapse', events);
  }
}

function end(s: BncState, reason: string, events: GameEvent[]): void {
  s.over = true;
  s.endReason = reason;
  events.push({ type: 'match_over', turn: s.turn, reason });
}

function contact(s: BncState, a: number, b: number, via: string, events: GameEvent[]): void {
  const key = pairKey(a, b);
  if (s.contacts.includes(key)) return;
  s.contacts.push(key);
  beat(s, events, 'first_contact', { seats: [Math.min(a, b), Math.max(a, b)], via });
}

/** Returns how many of `ids` were new to `c`. */
function discover(s: BncState, c: Contestant, ids: string[], how: string, events: GameEvent[]): number {
  let n = 0;
  for (const id of ids) {
    if (c.known.includes(id)) continue;
    c.known.push(id);
    n++;
    events.push({ type: 'shortcut_discovered', seat: c.seat, shortcut: id, how });
  }
  c.known.sort();
  return n;
}

/**
 * BNC-B07: the gate is unlocked when the three fragments come together — in one contestant's
 * hands, or in a guild vault whose exit claim is unspent. It marks when an escape became
 * possible, which is usually turns before anyone walks out.
 */
function gateForHolder(s: BncState, c: Contestant, hadAll: boolean, events: GameEvent[]): void {
  if (!hadAll && holdsAllFragments(c.items))
    beat(s, events, 'gate_unlocked', { seat: c.seat, route: 'fragments', zone: c.zone });
}

function perform(s: BncState, c: Contestant, a: Action, events: GameEvent[]): void {
  const seat = c.seat;
  const n = s.turn;
  switch (a.type) {
    case 'wait': {
      // U03: waiting searches the zone and finds every shortcut that ends here
      events.push({ type: 'waited', seat, zone: c.zone });
      if (!c.searched.includes(c.zone)) {
        c.searched.push(c.zone);
        c.searched.sort((x, y) => x - y);
      }
      const here = s.shortcuts.filter((sc) => sc.a === c.zone || sc.b === c.zone).map((sc) => sc.id);
      discover(s, c, here, 'search', events);
      return;
    }
    case 'move':
      events.push({ type: 'moved', seat, from: c.zone, to: a.to });
      c.zone = a.to;
      return;
    case 'pickup': {
      const hadAll = holdsAllFragments(c.items);
      s.floor[c.zone].splice(s.floor[c.zone].indexOf(a.item), 1);
      c.items.push(a.item);
      c.items.sort();
      events.push({ type: 'picked_up', seat, item: a.item, zone: c.zone });
      if (isFragment(a.item)) beat(s, events, 'fragment_taken', { seat, item: a.item, zone: c.zone });
      gateForHolder(s, c, hadAll, events);
      return;
    }
    case 'use_chart': {
      // U04: reading is always allowed while held; the beat marks a reading that taught something
      const learned = discover(
        s,
        c,
        s.shortcuts.map((sc) => sc.id),
        'chart',
        events,
      );
      c.chartRead = true;
      events.push({ type: 'chart_used', seat, learned });
      if (learned > 0) beat(s, events, 'chart_read', { seat, learned });
      return;
    }
    case 'attack': {
      const damage = nextRange(s.rng, STREAM_STRIKES, 1, 3);
      s.warden.health = Math.max(0, s.warden.health - damage);
      events.push({ type: 'warden_hit', seat, damage, health: s.warden.health });
      beat(s, events, 'attack', { seat, damage });
      if (s.warden.health === 0) {
        s.warden.down = true;
        events.push({ type: 'warden_fallen', seat, zone: s.warden.zone });
      }
      return;
    }
    case 'say': {
      const heard = s.contestants
        .filter((o) => o.seat !== seat && o.status === 'active' && o.zone === c.zone)
        .map((o) => o.seat);
      s.messages.push({ turn: n, from: seat, to: null, zone: c.zone, text: a.text, heard });
      events.push({ type: 'said', seat, zone: c.zone, text: a.text, heard });
      for (const h of heard) contact(s, seat, h, 'say', events);
      return;
    }
    case 'whisper':
      s.messages.push({ turn: n, from: seat, to: a.to, zone: c.zone, text: a.text, heard: [a.to] });
      events.push({ type: 'whispered', seat, to: a.to, text: a.text });
      contact(s, seat, a.to, 'whisper', events);
      return;
    case 'offer': {
      const id = `O${++s.serial.offer}`;
      s.offers.push({
        id,
        from: seat,
        to: a.to,
        give: [...a.give].sort(),
        get: [...a.get].sort(),
        made: n,
        expiresAt: n + a.turns,
      });
      events.push({
        type: 'offer_made',
        offer: id,
        from: seat,
        to: a.to,
        give: [...a.give].sort(),
        get: [...a.get].sort(),
        expiresAt: n + a.turns,
      });
      contact(s, seat, a.to, 'offer', events);
      return;
    }
    case 'accept_offer': {
      const o = s.offers.find((x) => x.id === a.offer)!;
      const from = s.contestants[o.from];
      const [fromHad, toHad] = [holdsAllFragments(from.items), holdsAllFragments(c.items)];
      for (const it of o.give) moveItem(from.items, c.items, it);
      for (const it of o.get) moveItem(c.items, from.items, it);
      s.offers = s.offers.filter((x) => x.id !== o.id);
      events.push({ type: 'offer_accepted', offer: o.id, from: o.from, to: seat, give: o.give, get: o.get });
      gateForHolder(s, from, fromHad, events);
      gateForHolder(s, c, toHad, events);
      return;
    }
    case 'reject_offer': {
      const o = s.offers.find((x) => x.id === a.offer)!;
      s.offers = s.offers.filter((x) => x.id !== o.id);
      events.push({ type: 'offer_rejected', offer: o.id, by: seat });
      return;
    }
    case 'propose_alliance': {
      const id = `A${++s.serial.proposal}`;
      s.proposals.push({ id, from: seat, to: a.to, turns: a.turns, made: n, expiresAt: n + PROPOSAL_TURNS });
      events.push({ type: 'alliance_proposed', proposal: id, from: seat, to: a.to, turns: a.turns });
      contact(s, seat, a.to, 'proposal', events);
      return;
    }
    case 'accept_alliance': {
      const p = s.proposals.find((x) => x.id === a.proposal)!;
      s.proposals = s.proposals.filter((x) => x.id !== p.id);
      const id = `P${++s.serial.pact}`;
      s.pacts.push({ id, a: p.from, b: seat, formed: n, expiresAt: n + p.turns });
      events.push({ type: 'pact_formed', pact: id, seats: [p.from, seat], expiresAt: n + p.turns });
      if (!s.firstPact) {
        s.firstPact = true;
        beat(s, events, 'first_pact', { pact: id, seats: [p.from, seat] });
      }
      return;
    }
    case 'reject_alliance': {
      const p = s.proposals.find((x) => x.id === a.proposal)!;
      s.proposals = s.proposals.filter((x) => x.id !== p.id);
      events.push({ type: 'alliance_rejected', proposal: p.id, by: seat });
      return;
    }
    case 'break_alliance': {
      const p = s.pacts.find((x) => x.id === a.pact)!;
      s.pacts = s.pacts.filter((x) => x.id !== p.id);
      c.reputation -= 1;
      events.push({ type: 'reputation', seat, delta: -1, why: 'betrayal' });
      beat(s, events, 'pact_broken', { pact: p.id, breaker: seat, partner: p.a === seat ? p.b : p.a });
      return;
    }
    case 'found_guild': {
      const id = `G${++s.serial.guild}`;
      s.guilds.push({
        id,
        home: c.zone,
        members: [seat],
        vault: [],
        founded: n,
        expiresAt: n + a.term,
        claimSpent: false,
      });
      joinGuild(c, id);
      beat(s, events, 'guild_formed', { guild: id, founder: seat, home: c.zone, expiresAt: n + a.term });
      return;
    }
    case 'invite_guild': {
      const id = `I${++s.serial.invitation}`;
      s.invitations.push({ id, guild: c.guild!, from: seat, to: a.to, made: n, expiresAt: n + INVITATION_TURNS });
      events.push({ type: 'guild_invited', invitation: id, guild: c.guild!, from: seat, to: a.to });
      contact(s, seat, a.to, 'invitation', events);
      return;
    }
    case 'accept_guild': {
      const inv = s.invitations.find((x) => x.id === a.invitation)!;
      s.invitations = s.invitations.filter((x) => x.id !== inv.id);
      const g = s.guilds.find((x) => x.id === inv.guild)!;
      g.members.push(seat);
      g.members.sort((x, y) => x - y);
      joinGuild(c, g.id);
      events.push({ type: 'guild_joined', guild: g.id, seat });
      return;
    }
    case 'reject_guild': {
      const inv = s.invitations.find((x) => x.id === a.invitation)!;
      s.invitations = s.invitations.filter((x) => x.id !== inv.id);
      events.push({ type: 'guild_declined', invitation: inv.id, by: seat });
      return;
    }
    case 'leave_guild':
      leaveGuild(s, c, 'left', true, events);
      return;
    case 'deposit': {
      const g = guildOf(s, c)!;
      const hadAll = holdsAllFragments(g.vault);
      moveItem(c.items, g.vault, a.item);
      c.deposited++;
      beat(s, events, 'vault_deposit', { guild: g.id, seat, item: a.item });
      if (!hadAll && !g.claimSpent && holdsAllFragments(g.vault))
        beat(s, events, 'gate_unlocked', { seat, guild: g.id, route: 'vault', zone: g.home });
      return;
    }
    case 'withdraw': {
      const g = guildOf(s, c)!;
      const hadAll = holdsAllFragments(c.items);
      moveItem(g.vault, c.items, a.item);
      c.withdrawn++;
      events.push({ type: 'vault_withdrawal', guild: g.id, seat, item: a.item });
      gateForHolder(s, c, hadAll, events);
      return;
    }
  }
}

function moveItem(from: string[], to: string[], item: string): void {
  from.splice(from.indexOf(item), 1);
  to.push(item);
  to.sort();
}

function joinGuild(c: Contestant, id: string): void {
  c.guild = id;
  c.deposited = 0;
  c.withdrawn = 0;
}

/** A member leaves (by choice, escape or elimination); G08 defection only when `judged`. */
function leaveGuild(s: BncState, c: Contestant, why: string, judged: boolean, events: GameEvent[]): void {
  const g = guildOf(s, c);
  if (!g) return;
  if (judged && c.withdrawn > c.deposited) {
    c.reputation -= 1;
    events.push({ type: 'reputation', seat: c.seat, delta: -1, why: 'defection' });
    beat(s, events, 'defection', {
      seat: c.seat,
      guild: g.id,
      deposited: c.deposited,
      withdrawn: c.withdrawn,
      on: why,
    });
  }
  g.members = g.members.filter((m) => m !== c.seat);
  c.guild = null;
  c.deposited = 0;
  c.withdrawn = 0;
  events.push({ type: 'guild_left', guild: g.id, seat: c.seat, why });
  if (g.members.length === 0) dissolve(s, g, 'last_member_left', events);
}

function dissolve(s: BncState, g: Guild, reason: string, events: GameEvent[]): void {
  const dropped = g.vault.slice();
  for (const it of dropped) s.floor[g.home].push(it);
  s.floor[g.home].sort();
  g.vault = [];
  for (const m of g.members) {
    const c = s.contestants[m];
    c.guild = null;
    c.deposited = 0;
    c.withdrawn = 0;
  }
  s.guilds = s.guilds.filter((x) => x.id !== g.id);
  s.invitations = s.invitations.filter((i) => i.guild !== g.id);
  beat(s, events, 'guild_dissolved', { guild: g.id, reason, home: g.home, dropped });
}

/** U17: terms end when the clock reaches their expiry, before the Warden acts. */
function expire(s: BncState, events: GameEvent[]): void {
  const n = s.turn;
  for (const o of s.offers) if (o.expiresAt <= n) events.push({ type: 'offer_expired', offer: o.id });
  s.offers = s.offers.filter((o) => o.expiresAt > n);
  for (const p of s.proposals) if (p.expiresAt <= n) events.push({ type: 'proposal_expired', proposal: p.id });
  s.proposals = s.proposals.filter((p) => p.expiresAt > n);
  for (const i of s.invitations) if (i.expiresAt <= n) events.push({ type: 'invitation_expired', invitation: i.id });
  s.invitations = s.invitations.filter((i) => i.expiresAt > n);
  for (const p of s.pacts) {
    if (p.expiresAt > n) continue;
    // S07: a pact that runs its full term unbroken is honoured
    for (const m of [p.a, p.b]) {
      s.contestants[m].reputation += 1;
      events.push({ type: 'reputation', seat: m, delta: 1, why: 'pact_honoured' });
    }
    beat(s, events, 'pact_expired', { pact: p.id, seats: [p.a, p.b] });
  }
  s.pacts = s.pacts.filter((p) => p.expiresAt > n);
  for (const g of s.guilds.slice()) {
    if (g.expiresAt > n) continue;
    if (g.members.length >= 2) {
      for (const m of g.members) {
        s.contestants[m].reputation += 1;
        events.push({ type: 'reputation', seat: m, delta: 1, why: 'guild_term' });
      }
    }
    dissolve(s, g, 'term', events);
  }
}

function wardenActs(s: BncState, events: GameEvent[]): void {
  const target = s.warden.down
    ? undefined
    : s.contestants.find((c) => c.status === 'active' && c.zone === s.warden.zone);
  // BNC-B10: an engagement starts when the Warden turns on a contestant it did not strike last turn
  const engaged = s.wardenEngaged;
  s.wardenEngaged = target ? target.seat : null;
  if (!target) return;
  const hit = nextInt(s.rng, STREAM_WARDEN, WARDEN_HIT_OF) < WARDEN_HIT_IN;
  const damage = hit ? nextRange(s.rng, STREAM_WARDEN, 1, 3) : 0;
  target.health = Math.max(0, target.health - damage);
  events.push({ type: 'warden_strike', target: target.seat, hit, damage, health: target.health });
  if (engaged !== target.seat) beat(s, events, 'warden_engaged', { seat: target.seat, hit, damage });
  if (target.health === 0) depart(s, target, 'eliminated', null, events);
}

function escapeCheck(s: BncState, events: GameEvent[]): void {
  for (const c of s.contestants) {
    const route = canEscape(s, c);
    if (!route) continue;
    if (route === 'vault') guildOf(s, c)!.claimSpent = true;
    depart(s, c, 'escaped', route, events);
  }
}

/** U16: what leaving the match does to items, offers, pacts and guild membership. */
function depart(
  s: BncState,
  c: Contestant,
  status: 'escaped' | 'eliminated',
  route: Route | null,
  events: GameEvent[],
): void {
  c.status = status;
  c.at = s.turn;
  c.route = route;
  c.submitted = null;
  let keep = c.items;
  if (route === 'fragments' && holdsAllFragments(c.items)) keep = c.items.filter((it) => !isFragment(it));
  for (const it of keep) s.floor[c.zone].push(it);
  s.floor[c.zone].sort();
  const spent = route === 'fragments' ? [...FRAGMENTS] : [];
  c.items = [];
  if (status === 'escaped') beat(s, events, 'escape', { seat: c.seat, route, zone: EXIT, spent });
  else beat(s, events, 'elimination', { seat: c.seat, zone: c.zone });
  s.offers = s.offers.filter((o) => o.from !== c.seat && o.to !== c.seat);
  s.proposals = s.proposals.filter((p) => p.from !== c.seat && p.to !== c.seat);
  s.invitations = s.invitations.filter((i) => i.to !== c.seat);
  for (const p of s.pacts)
    if (p.a === c.seat || p.b === c.seat) events.push({ type: 'pact_ended', pact: p.id, why: status });
  s.pacts = s.pacts.filter((p) => p.a !== c.seat && p.b !== c.seat);
  leaveGuild(s, c, status, status === 'escaped', events);
}
