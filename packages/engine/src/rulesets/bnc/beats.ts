// The cut beats: the taxonomy the seed names (v1 plus this ruleset's four), with the definition
// the engine gives each — the seed names them only, so every definition here is engine-defined
// (BNC-U27) — and the list of beats in a match log.

import type { GameEvent, Json } from '../../kernel/index.ts';

export type BeatName =
  | 'first_contact'
  | 'first_pact'
  | 'pact_expired'
  | 'pact_broken'
  | 'fragment_taken'
  | 'chart_read'
  | 'gate_unlocked'
  | 'escape'
  | 'attack'
  | 'warden_engaged'
  | 'elimination'
  | 'silence'
  | 'collapse'
  | 'guild_formed'
  | 'guild_dissolved'
  | 'vault_deposit'
  | 'defection';

type BeatDefinition = { id: string; beat: BeatName; definition: string };

export const BEATS: readonly BeatDefinition[] = [
  {
    id: 'BNC-B01',
    beat: 'first_contact',
    definition:
      'the first time two contestants address each other (a say one of them hears, a whisper, an offer, an alliance proposal or a guild invitation); once per pair',
  },
  { id: 'BNC-B02', beat: 'first_pact', definition: 'the first alliance formed in the match; once per match' },
  {
    id: 'BNC-B03',
    beat: 'pact_expired',
    definition: 'a pact reached the end of its term unbroken (both members gain a point)',
  },
  {
    id: 'BNC-B04',
    beat: 'pact_broken',
    definition: 'a member broke a pact with break_alliance (the breaker loses a point)',
  },
  { id: 'BNC-B05', beat: 'fragment_taken', definition: 'a contestant picked an access fragment up from a zone floor' },
  {
    id: 'BNC-B06',
    beat: 'chart_read',
    definition:
      'a contestant read the survey chart and learned at least one shortcut it did not know (a reading that teaches nothing is only a chart_used event)',
  },
  {
    id: 'BNC-B07',
    beat: 'gate_unlocked',
    definition:
      'the three access fragments came together: one contestant came to hold all three (pickup, trade or withdrawal), or a deposit completed them in a guild vault whose exit claim is unspent; it marks when an escape became possible, usually turns before the escape',
  },
  { id: 'BNC-B08', beat: 'escape', definition: 'a contestant left the match through the Exit' },
  { id: 'BNC-B09', beat: 'attack', definition: 'a contestant struck the Stage Warden' },
  {
    id: 'BNC-B10',
    beat: 'warden_engaged',
    definition:
      'the Stage Warden turned on a contestant: its first strike (landed or not) at a contestant it did not strike on the previous turn; the strikes of a continuing fight are warden_strike events only',
  },
  { id: 'BNC-B11', beat: 'elimination', definition: 'a contestant fell to 0 health and left the match for good' },
  {
    id: 'BNC-B12',
    beat: 'silence',
    definition: 'five completed turns in a row passed with no say or whisper by anyone; the run then restarts',
  },
  { id: 'BNC-B13', beat: 'collapse', definition: 'the final turn completed with somebody still inside' },
  { id: 'BNC-B14', beat: 'guild_formed', definition: 'a contestant founded a guild' },
  {
    id: 'BNC-B15',
    beat: 'guild_dissolved',
    definition: 'a guild ended: its last member left, or its term ran out; its vault dropped at home',
  },
  { id: 'BNC-B16', beat: 'vault_deposit', definition: 'a member put an item into its guild vault' },
  {
    id: 'BNC-B17',
    beat: 'defection',
    definition: 'a member left or escaped after taking more items out of the vault than it put in',
  },
];

type BeatLine = { seq: number; turn: number; beat: string; detail: { [key: string]: Json } };

/** `entries` are a log's submission lines; every beat keeps the seq of the submission that caused it. */
export function beatsOf(entries: readonly { seq: number; events: readonly GameEvent[] }[]): BeatLine[] {
  const out: BeatLine[] = [];
  for (const e of entries) {
    for (const ev of e.events) {
      if (ev.type !== 'beat') continue;
      const { type: _t, beat, turn, ...detail } = ev;
      out.push({ seq: e.seq, turn: typeof turn === 'number' ? turn : -1, beat: String(beat), detail });
    }
  }
  return out;
}
