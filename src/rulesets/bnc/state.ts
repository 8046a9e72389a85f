// The shape of a bnc match state: plain JSON only, arrays indexed by seat and zone so scenario
// overrides can address any field with a dotted path (contestants.0.zone, floor.3).

import type { RngState } from '../../kernel/index.ts';
import type { Action } from './schema.ts';

export type Status = 'active' | 'escaped' | 'eliminated';

export interface Contestant {
  seat: number;
  zone: number;
  health: number;
  items: string[];
  status: Status;
  /** Turn number of escape or elimination; null while active. */
  at: number | null;
  /** How the contestant escaped ('fragments' | 'vault'), else null. */
  route: string | null;
  reputation: number;
  guild: string | null;
  /** Items deposited into / withdrawn from the current guild's vault (for defection). */
  deposited: number;
  withdrawn: number;
  /** Ids of shortcuts this contestant has discovered. */
  known: string[];
  /** This turn's submission (hidden from everyone else); null until submitted. */
  submitted: Action | null;
}

export interface Shortcut { id: string; a: number; b: number }
export interface Offer { id: string; from: number; to: number; give: string[]; get: string[]; made: number; expiresAt: number }
export interface Proposal { id: string; from: number; to: number; turns: number; made: number; expiresAt: number }
export interface Pact { id: string; a: number; b: number; formed: number; expiresAt: number }
export interface Guild {
  id: string;
  home: number;
  members: number[];
  vault: string[];
  founded: number;
  expiresAt: number;
  claimSpent: boolean;
}
export interface Invitation { id: string; guild: string; from: number; to: number; made: number; expiresAt: number }
export interface Message {
  turn: number;
  from: number;
  /** Whisper recipient; null for a say. */
  to: number | null;
  zone: number;
  text: string;
  /** Seats that heard a say (active contestants in the zone then, speaker excluded). */
  heard: number[];
}

export interface BncConfig {
  contestants: number;
  turns: number;
  health: number;
  wardenHealth: number;
}

export interface BncState {
  config: BncConfig;
  /** Completed turns; the turn being played is turn + 1. */
  turn: number;
  over: boolean;
  endReason: string | null;
  shortcuts: Shortcut[];
  /** Items lying in each zone. */
  floor: string[][];
  contestants: Contestant[];
  warden: { zone: number; health: number; down: boolean };
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
}
