// Configuration: documented defaults (the full-size profile), the small "ci" preset for exhaustive
// exploration, and validation that turns a bad config into a clear bad_config error.

import { ArbiterError, type JsonObject } from '../../kernel/index.ts';
import { CARDS } from './cards.ts';
import type { Variant } from './state.ts';

/** The reference profiles a config can start from (U-PROFILE): each gives the defaults of the fields not set. */
export type Profile = '0.3' | '0.4';

type DuelConfig = {
  /** The profile whose defaults fill the fields not given (default the ruleset version's, 0.4). */
  profile: Profile;
  /** Clicks gained at the start of each turn: [corp, runner]. */
  clicks: number[];
  /** Starting credits per seat. */
  credits: number[];
  /** Starting hand size per seat. */
  hand: number[];
  /** Base maximum hand size per seat (the runner's is lowered by core damage). */
  maxHand: number[];
  /** Deck lists per seat (card names from the pool). */
  decks: string[][];
  /** Shuffle the decks at setup (false keeps the listed order: the hand is the first cards). */
  shuffle: boolean;
  /** Objective points each seat starts with (a seeded token in its score area). */
  startPoints: number[];
  /** Turn frames before the game ends in a draw by the turn bound. */
  turns: number;
  /** A deliberately broken engine behaviour (tests of the checkers only). */
  variant: Variant | null;
};

const rep = (name: string, n: number) => Array.from({ length: n }, () => name);

type ProfileDefaults = Omit<DuelConfig, 'profile' | 'variant'>;

/** Profile 0.3 (duel-refprofile-0.3): the defaults logs of that version were played with. */
const PROFILE_03: ProfileDefaults = {
  clicks: [3, 4],
  credits: [5, 5],
  hand: [5, 5],
  maxHand: [5, 5],
  decks: [
    [
      ...rep('ledger', 4),
      ...rep('spike', 2),
      ...rep('burn', 2),
      ...rep('stop', 2),
      'venture',
      ...rep('toll', 2),
      ...rep('bell', 2),
      ...rep('wall', 2),
      ...rep('barb', 2),
    ],
    [...rep('dayoff', 3), ...rep('coffee', 3), ...rep('gamble', 6)],
  ],
  shuffle: true,
  startPoints: [0, 0],
  turns: 40,
};

/** Profile 0.4 (duel-refprofile-0.4, U-DECKS): see rules.md F-2 for the measured rates. */
const PROFILE_04: ProfileDefaults = {
  ...PROFILE_03,
  decks: [
    [...rep('ledger', 7), 'spike', ...rep('burn', 2), 'stop', 'venture', 'bell', ...rep('wall', 3), ...rep('barb', 2)],
    [...rep('dayoff', 3), ...rep('coffee', 5), ...rep('gamble', 11)],
  ],
};

export const PROFILES: Record<Profile, ProfileDefaults> = { '0.3': PROFILE_03, '0.4': PROFILE_04 };
const DEFAULT_PROFILE: Profile = '0.4';

export const DEFAULT_CONFIG: DuelConfig = { profile: DEFAULT_PROFILE, ...PROFILE_04, variant: null };

/**
 * The CI configuration: small enough to explore exhaustively, rich enough that every contract
 * branch (directed end, skipped discard, negative-limit loss, damage loss, decking, simultaneous
 * win) is reachable.
 */
const ci = {
  clicks: [2, 2],
  credits: [2, 1],
  hand: [5, 2],
  maxHand: [5, 0],
  decks: [
    ['stop', 'spike', 'burn', 'venture', 'toll', 'ledger', 'bell', 'ledger'],
    ['dayoff', 'dayoff', 'gamble', 'coffee'],
  ],
  shuffle: false,
  startPoints: [5, 5],
  turns: 4,
} satisfies Partial<DuelConfig>;

/**
 * The second CI configuration: reaches what `ci` cannot (the corp scoring an agenda it advanced,
 * a "when your turn begins" ability, a reaction window holding two abilities at once). Explored
 * together with `ci` by `arbiter explore duel`; the goals are judged over both.
 */
const ciReact = {
  clicks: [2, 1],
  credits: [3, 1],
  hand: [4, 2],
  maxHand: [5, 5],
  decks: [
    ['ledger', 'bell', 'bell', 'toll', 'ledger', 'stop'],
    ['coffee', 'gamble', 'dayoff', 'gamble'],
  ],
  shuffle: false,
  startPoints: [5, 0],
  turns: 4,
} satisfies Partial<DuelConfig>;

/** The third CI configuration: ICE on the remote (break, end the run, damage, success past ICE). */
const ciIce = {
  clicks: [2, 2],
  credits: [2, 4],
  hand: [4, 3],
  maxHand: [5, 5],
  decks: [
    ['wall', 'barb', 'ledger', 'stop', 'ledger', 'wall'],
    ['gamble', 'dayoff', 'gamble', 'coffee'],
  ],
  shuffle: false,
  startPoints: [5, 5],
  turns: 3,
} satisfies Partial<DuelConfig>;

/**
 * The fourth CI configuration: the corp scores an agenda that does not win (its "when scored"
 * ability must reach a checkpoint at once) and the corp's turn begins while the runner has two
 * "when your turn begins" cards installed (neither may fire for the corp).
 */
const ciScore = {
  clicks: [2, 2],
  credits: [3, 2],
  hand: [3, 2],
  maxHand: [5, 5],
  decks: [
    ['ledger', 'toll', 'bell', 'ledger', 'stop'],
    ['coffee', 'coffee', 'gamble'],
  ],
  shuffle: false,
  startPoints: [3, 0],
  turns: 3,
} satisfies Partial<DuelConfig>;

export const PRESETS: Record<string, JsonObject> = { ci, 'ci-react': ciReact, 'ci-ice': ciIce, 'ci-score': ciScore };

const VARIANTS: readonly Variant[] = [
  'handoff_resets_counts',
  'return_any_receipt',
  'neg_limit_before_skip',
  'effects_before_drain',
  'effects_skip_reactions',
  'winners_after_drain',
  'directed_skips_checkpoint',
  'damage_not_strict',
  'done_without_complete',
  'steal_opens_window',
  'windows_before_checkpoint',
  'decking_not_fatal',
  'react_window_closes_early',
  'free_advance',
  'points_ignore_tokens',
  'free_break',
  'score_checkpoint_if_winning',
  'begin_trigger_second_copy',
];

const pair = (lo: number, hi: number, description: string) => ({
  type: 'array',
  items: { type: 'integer', minimum: lo, maximum: hi },
  minItems: 2,
  maxItems: 2,
  description,
});

/** JSON Schema of the config (for docs and --help); resolveConfig is the authority. */
export const CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    profile: {
      type: 'string',
      enum: Object.keys(PROFILES),
      description: 'the reference profile whose defaults fill the fields not given (default 0.4)',
    },
    clicks: pair(1, 9, 'clicks gained per turn [corp, runner] (default [3, 4])'),
    credits: pair(0, 99, 'starting credits (default [5, 5])'),
    hand: pair(0, 60, 'starting hand sizes (default [5, 5])'),
    maxHand: pair(0, 20, 'base maximum hand sizes (default [5, 5])'),
    decks: {
      type: 'array',
      minItems: 2,
      maxItems: 2,
      items: { type: 'array', maxItems: 60, items: { type: 'string', enum: Object.keys(CARDS).sort() } },
      description: 'deck lists [corp, runner]',
    },
    shuffle: { type: 'boolean', description: 'shuffle decks at setup (default true)' },
    startPoints: pair(0, 6, 'objective points each seat starts with (default [0, 0])'),
    turns: {
      type: 'integer',
      minimum: 1,
      maximum: 500,
      description: 'turn frames before a draw by the turn bound (default 40)',
    },
    variant: {
      type: ['string', 'null'],
      description: 'a deliberately broken engine behaviour, for checker tests only (default null)',
    },
  },
};

function bad(msg: string, detail?: JsonObject): never {
  throw new ArbiterError('bad_config', `duel config: ${msg}`, detail);
}

function intPair(v: unknown, field: string, lo: number, hi: number): number[] {
  if (!Array.isArray(v) || v.length !== 2 || !v.every((n) => Number.isInteger(n) && n >= lo && n <= hi)) {
    bad(`${field} must be two integers from ${lo} to ${hi} ([corp, runner])`);
  }
  return (v as number[]).slice();
}

/** The elements of a value already checked to be an array. */
function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function resolveConfig(input: unknown): DuelConfig {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) bad('config must be an object');
  const raw = input as Record<string, unknown>;
  for (const k of Object.keys(raw))
    if (!(k in DEFAULT_CONFIG)) bad(`unknown field "${k}"`, { known: Object.keys(DEFAULT_CONFIG) });
  const profile = raw.profile === undefined ? DEFAULT_PROFILE : raw.profile;
  if (typeof profile !== 'string' || !Object.hasOwn(PROFILES, profile))
    bad(`unknown profile ${JSON.stringify(profile)}`, { known: Object.keys(PROFILES) });
  const base: DuelConfig = { profile: profile as Profile, ...PROFILES[profile as Profile], variant: null };
  const get = (k: keyof DuelConfig) => (raw[k] === undefined ? base[k] : raw[k]);
  const decksRaw = get('decks');
  if (!Array.isArray(decksRaw) || decksRaw.length !== 2) bad('decks must be [corpDeck, runnerDeck]');
  const decks = list(decksRaw).map((d, side) => {
    if (!Array.isArray(d) || d.length > 60) bad(`deck ${side} must be a list of at most 60 card names`);
    return list(d).map((c): string => {
      if (typeof c !== 'string' || !(c in CARDS))
        bad(`unknown card ${JSON.stringify(c)} in deck ${side}`, { cards: Object.keys(CARDS) });
      if (CARDS[c].side !== side) bad(`card "${c}" belongs to the other seat's deck`);
      return c;
    });
  });
  const cfg: DuelConfig = {
    profile: profile as Profile,
    clicks: intPair(get('clicks'), 'clicks', 1, 9),
    credits: intPair(get('credits'), 'credits', 0, 99),
    hand: intPair(get('hand'), 'hand', 0, 60),
    maxHand: intPair(get('maxHand'), 'maxHand', 0, 20),
    decks,
    shuffle: get('shuffle') as boolean,
    startPoints: intPair(get('startPoints'), 'startPoints', 0, 6),
    turns: get('turns') as number,
    variant: get('variant') as Variant | null,
  };
  if (typeof cfg.shuffle !== 'boolean') bad('shuffle must be true or false');
  if (!Number.isInteger(cfg.turns) || cfg.turns < 1 || cfg.turns > 500) bad('turns must be an integer from 1 to 500');
  if (cfg.variant !== null && !VARIANTS.includes(cfg.variant))
    bad(`unknown variant ${JSON.stringify(cfg.variant)}`, { known: [...VARIANTS] });
  for (let s = 0; s < 2; s++)
    if (cfg.hand[s] > decks[s].length) bad(`hand ${cfg.hand[s]} is larger than deck ${s} (${decks[s].length} cards)`);
  return cfg;
}
