// The shape of a bnc match state and the read-only questions asked of it. Plain JSON data only,
// arrays indexed by seat and zone so scenario overrides can address any field with a dotted path
// (contestants.0.zone, floor.3). Records are type aliases so they are assignable to Json.

import { cloneJson, cloneRng, type RngState } from '../../kernel/index.ts';
import { EXIT, FRAGMENTS, ZONE_COUNT, type ItemId } from './constants.ts';
import type { Action } from './schema.ts';

type Status = 'active' | 'escaped' | 'eliminated';
export type Route = 'fragments' | 'vault';

export type Contestant = {
  seat: number;
  zone: number;
  health: number;
  items: ItemId[];
  status: Status;
  /** Turn number of escape or elimination; null while active. */
  at: number | null;
  /** How the contestant escaped, else null. */
  route: Route | null;
  reputation: number;
  guild: string | null;
  /** Items deposited into / withdrawn from the current guild's vault (for defection). */
  deposited: number;
  withdrawn: number;
  /** Ids of shortcuts this contestant has discovered. */
  known: string[];
  /**
   * Zones this contestant has searched by waiting there (U03), sorted. A search finds every
   * shortcut with an end there, so a searched zone is known to hold no other: the seat's own
   * knowledge, kept so that its view (and a state sampled from that view) can say so.
   */
  searched: number[];
  /**
   * True once this contestant has read the survey chart (U04): the reading revealed every shortcut,
   * so it knows its `known` list to be the whole map. Its own knowledge, kept for its view and sampler.
   */
  chartRead: boolean;
  /** This turn's submission (hidden from everyone else); null until submitted. */
  submitted: Action | null;
};

export type Shortcut = { id: string; a: number; b: number };
type Offer = { id: string; from: number; to: number; give: ItemId[]; get: ItemId[]; made: number; expiresAt: number };
type Proposal = { id: string; from: number; to: number; turns: number; made: number; expiresAt: number };
type Pact = { id: string; a: number; b: number; formed: number; expiresAt: number };
export type Guild = {
  id: string;
  home: number;
  members: number[];
  vault: ItemId[];
  founded: number;
  expiresAt: number;
  claimSpent: boolean;
};
type Invitation = { id: string; guild: string; from: number; to: number; made: number; expiresAt: number };
type Message = {
  turn: number;
  from: number;
  /** Whisper recipient; null for a say. */
  to: number | null;
  zone: number;
  text: string;
  /** Seats that heard it (a say: active contestants in the zone then, speaker excluded). */
  heard: number[];
};

export type BncConfig = {
  contestants: number;
  turns: number;
  health: number;
  wardenHealth: number;
};

export type BncState = {
  config: BncConfig;
  /** 'bnc-1.1' for the released match; a variant label when the config departs from it (U24). */
  edition: string;
  /** Completed turns; the turn being played is turn + 1. */
  turn: number;
  over: boolean;
  endReason: string | null;
  shortcuts: Shortcut[];
  /** Items lying in each zone. */
  floor: ItemId[][];
  contestants: Contestant[];
  warden: { zone: number; health: number; down: boolean };
  /** The seat the Warden struck on the last completed turn, null when it struck nobody (BNC-B10). */
  wardenEngaged: number | null;
  offers: Offer[];
  proposals: Proposal[];
  pacts: Pact[];
  guilds: Guild[];
  invitations: Invitation[];
  messages: Message[];
  /** Serial counters for ids (O1, A1, P1, G1, I1). */
  serial: { offer: number; proposal: number; pact: number; guild: number; invitation: number };
  /** Pairs "a-b" (a<b) that have had first contact. */
  contacts: string[];
  firstPact: boolean;
  silentRun: number;
  rng: RngState;
};

export function isActive(s: BncState, seat: number): boolean {
  const c = s.contestants[seat];
  return c !== undefined && c.status === 'active';
}

/** Zones one move away from `zone` for a contestant knowing `known`: spine neighbours plus known shortcuts. */
export function neighbours(s: BncState, c: { zone: number; known: readonly string[] }): number[] {
  const out: number[] = [];
  if (c.zone > 0) out.push(c.zone - 1);
  if (c.zone < ZONE_COUNT - 1) out.push(c.zone + 1);
  for (const sc of s.shortcuts) {
    if (!c.known.includes(sc.id)) continue;
    if (sc.a === c.zone && !out.includes(sc.b)) out.push(sc.b);
    else if (sc.b === c.zone && !out.includes(sc.a)) out.push(sc.a);
  }
  return out.sort((x, y) => x - y);
}

export function guildOf(s: BncState, c: Contestant): Guild | undefined {
  return c.guild === null ? undefined : s.guilds.find((g) => g.id === c.guild);
}

export function isFragment(item: ItemId): boolean {
  return item !== 'chart';
}

export function holdsAllFragments(items: readonly ItemId[]): boolean {
  return FRAGMENTS.every((f) => items.includes(f));
}

export function pairKey(a: number, b: number): string {
  return a < b ? `${a}-${b}` : `${b}-${a}`;
}

export function pactBetween(s: BncState, a: number, b: number): Pact | undefined {
  return s.pacts.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a));
}

/** The route by which `c` would escape at the escape check, or null. */
export function canEscape(s: BncState, c: Contestant): Route | null {
  if (c.status !== 'active' || c.zone !== EXIT) return null;
  if (holdsAllFragments(c.items)) return 'fragments';
  const g = guildOf(s, c);
  if (g && !g.claimSpent && holdsAllFragments(g.vault)) return 'vault';
  return null;
}

/**
 * A field-by-field deep copy. The kernel's generic JSON copy runs on every checked submission and
 * was half the cost of a bnc turn (its property loads see every record shape and go megamorphic);
 * this one names every field, so each load site sees one shape. Key order matches setup's, so a
 * copy serialises byte-for-byte like the original (checked by the conformance suite).
 */
export function clone(s: BncState): BncState {
  const c = s.config;
  const w = s.warden;
  const n = s.serial;
  return {
    config: { contestants: c.contestants, turns: c.turns, health: c.health, wardenHealth: c.wardenHealth },
    edition: s.edition,
    turn: s.turn,
    over: s.over,
    endReason: s.endReason,
    shortcuts: s.shortcuts.map(cloneShortcut),
    floor: s.floor.map(copyItems),
    contestants: s.contestants.map(cloneContestant),
    warden: { zone: w.zone, health: w.health, down: w.down },
    wardenEngaged: s.wardenEngaged,
    offers: s.offers.map(cloneOffer),
    proposals: s.proposals.map(cloneProposal),
    pacts: s.pacts.map(clonePact),
    guilds: s.guilds.map(cloneGuild),
    invitations: s.invitations.map(cloneInvitation),
    messages: s.messages.map(cloneMessage),
    serial: { offer: n.offer, proposal: n.proposal, pact: n.pact, guild: n.guild, invitation: n.invitation },
    contacts: s.contacts.slice(),
    firstPact: s.firstPact,
    silentRun: s.silentRun,
    rng: cloneRng(s.rng),
  };
}

const copyItems = (xs: ItemId[]): ItemId[] => xs.slice();
const cloneShortcut = (x: Shortcut): Shortcut => ({ id: x.id, a: x.a, b: x.b });
/** An offer's own fields, copied (a view's offer carries one more, which this drops). */
export const cloneOffer = (o: Offer): Offer => ({
  id: o.id,
  from: o.from,
  to: o.to,
  give: o.give.slice(),
  get: o.get.slice(),
  made: o.made,
  expiresAt: o.expiresAt,
});
const cloneProposal = (p: Proposal): Proposal => ({
  id: p.id,
  from: p.from,
  to: p.to,
  turns: p.turns,
  made: p.made,
  expiresAt: p.expiresAt,
});
const clonePact = (p: Pact): Pact => ({ id: p.id, a: p.a, b: p.b, formed: p.formed, expiresAt: p.expiresAt });
const cloneGuild = (g: Guild): Guild => ({
  id: g.id,
  home: g.home,
  members: g.members.slice(),
  vault: g.vault.slice(),
  founded: g.founded,
  expiresAt: g.expiresAt,
  claimSpent: g.claimSpent,
});
const cloneInvitation = (i: Invitation): Invitation => ({
  id: i.id,
  guild: i.guild,
  from: i.from,
  to: i.to,
  made: i.made,
  expiresAt: i.expiresAt,
});
const cloneMessage = (m: Message): Message => ({
  turn: m.turn,
  from: m.from,
  to: m.to,
  zone: m.zone,
  text: m.text,
  heard: m.heard.slice(),
});

function cloneContestant(c: Contestant): Contestant {
  return {
    seat: c.seat,
    zone: c.zone,
    health: c.health,
    items: c.items.slice(),
    status: c.status,
    at: c.at,
    route: c.route,
    reputation: c.reputation,
    guild: c.guild,
    deposited: c.deposited,
    withdrawn: c.withdrawn,
    known: c.known.slice(),
    searched: c.searched.slice(),
    chartRead: c.chartRead,
    // actions are small flat records of many shapes (an offer carries two item lists)
    submitted: c.submitted === null ? null : cloneJson(c.submitted),
  };
}
