// The shape of a bnc match state and the read-only questions asked of it. Plain JSON data only,
// arrays indexed by seat and zone so scenario overrides can address any field with a dotted path
// (contestants.0.zone, floor.3). Records are type aliases so they are assignable to Json.

import type { RngState } from '../../kernel/index.ts';
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
