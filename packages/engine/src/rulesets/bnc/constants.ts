// Fixed facts of bnc-1.1 (from the seed) and the engine's defaults for what the seed leaves open.
// Every number here is named in the catalog; see rules.md for the U-items behind the defaults.

/** The released version this engine implements (the directory rulesets/bnc-1.1/ holds its release). */
export const VERSION = 'bnc-1.1';

/** U01: the seed names only the two ends of the spine; the middle names are the engine's. */
export const ZONE_NAMES = [
  'Intake Yard',
  'Sorting Floor',
  'Pump Hall',
  'Signal Gallery',
  'Cold Store',
  'Exit Vault',
] as const;
export const ZONE_COUNT = 6;
export const INTAKE = 0;
export const EXIT = 5;
export const MIDDLE_ZONES = [1, 2, 3, 4] as const;

/** U13: items have stable ids so offers and vault moves can name them. */
export const FRAGMENTS = ['F1', 'F2', 'F3'] as const;
export const CHART = 'chart';
export const ITEM_IDS = [...FRAGMENTS, CHART] as const;

export const START_HEALTH = 10;
export const WARDEN_HEALTH = 20;
export const TURNS = 45;
export const CONTESTANTS = 4;

export const TEXT_MAX = 240;
export const OFFER_ITEMS_MAX = 5;
export const OFFER_TURNS_MAX = 15;
export const ALLIANCE_TURNS_MAX = 30;
export const GUILD_TERM_MAX = 30;
export const INVITATION_TURNS = 15;
/** U15: an unanswered alliance proposal lapses like an invitation. */
export const PROPOSAL_TURNS = 15;
/** U14: a contestant may have at most this many open offers (keeps state bounded). */
export const OPEN_OFFERS_MAX = 3;
/** U06: the Warden lands a strike on WARDEN_HIT_IN of WARDEN_HIT_OF draws. */
export const WARDEN_HIT_IN = 2;
export const WARDEN_HIT_OF = 3;
/** U12: this many completed turns in a row without say or whisper make a silence beat. */
export const SILENCE_TURNS = 5;

/** Named RNG streams: one per purpose so a draw in one never shifts another. */
export const STREAM_MAP = 'map';
export const STREAM_WARDEN = 'warden';
export const STREAM_STRIKES = 'strikes';
export type ItemId = (typeof ITEM_IDS)[number];
