// Configuration: documented defaults (the full-size profile), the small "ci" preset for exhaustive
// exploration, and validation that turns a bad config into a clear bad_config error.

import { ArbiterError, cloneJson, parseDeclared, type JsonObject } from '../../kernel/index.ts';
import { CARDS } from './cards.ts';
import { configSchema } from './schema.ts';
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

function bad(msg: string, detail?: JsonObject): never {
  throw new ArbiterError('bad_config', `duel config: ${msg}`, detail);
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function resolveConfig(input: unknown): DuelConfig {
  const raw = parseDeclared<Partial<DuelConfig>>(configSchema, input ?? {}, 'bad_config', 'duel config');
  // the profile's defaults fill what the config does not set (U-PROFILE); a fresh copy: setup may
  // work on the config's lists
  const profile: Profile = raw.profile ?? DEFAULT_PROFILE;
  const base: DuelConfig = { profile, ...cloneJson(PROFILES[profile]), variant: null };
  const cfg: DuelConfig = { ...base, ...withoutUndefined(raw) };
  cfg.decks.forEach((deck, side) => {
    for (const c of deck) if (CARDS[c].side !== side) bad(`card "${c}" belongs to the other seat's deck`);
  });
  for (let s = 0; s < 2; s++)
    if (cfg.hand[s] > cfg.decks[s].length)
      bad(`hand ${cfg.hand[s]} is larger than deck ${s} (${cfg.decks[s].length} cards)`);
  return cfg;
}
