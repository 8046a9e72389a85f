// Config checking and the initial position (GR-O01, GR-S01..S04).

import { ArbiterError, checkSeed, createRng, nextInt, parseDeclared, shuffleInPlace } from '../../kernel/index.ts';
import { configSchema } from './schema.ts';
import { maxPriority, resolveEdition, type ScenarioCard } from './edition.ts';
import { SUITS, type GroundState, type ModeId, type PlayerState, type Problem, type RoundState } from './state.ts';

/** The documented defaults: the declared schema's, filled into an empty config. */
export const DEFAULT_CONFIG: { players: number; mode: ModeId; scenario: string } = configSchema.parse({});

type GroundConfig = {
  players: number;
  mode: ModeId;
  scenario: string;
  edition?: unknown;
};

function readConfig(config: unknown): GroundConfig {
  // the declared schema checks every field; the edition object itself goes on as given, so
  // resolveEdition's cache (keyed by the object) still spares a re-check of the same edition
  const c = parseDeclared<GroundConfig>(configSchema, config ?? {}, 'bad_config', 'GROUND config');
  const edition = config !== null && typeof config === 'object' ? (config as { edition?: unknown }).edition : undefined;
  // a literal of one fixed shape, not a spread of the parsed object: with the spread the heap grew
  // between young collections in fast random games and 2-player games ran at 0.7x (--trace-gc)
  return { players: c.players, mode: c.mode, scenario: c.scenario, edition };
}

export function setup(config: unknown, seed: number): GroundState {
  checkSeed(seed);
  const cfg = readConfig(config);
  const ed = resolveEdition(cfg.edition);
  const sc = ed.scenarios.find((s) => s.id === cfg.scenario);
  if (!sc) {
    throw new ArbiterError(
      'bad_config',
      `unknown scenario "${cfg.scenario}" in edition ${ed.id} (known: ${ed.scenarios.map((s) => s.id).join(', ')})`,
    );
  }
  const n = cfg.players;
  const rng = createRng(seed);

  // GR-S01: the Surface Problem face up, hidden Problems up to the player count's priority face down
  const cap = maxPriority(n);
  const problems: Problem[] = [
    {
      slot: 0,
      id: sc.surface.id,
      name: sc.surface.name,
      suit: SUITS.indexOf(sc.surface.suit),
      value: sc.surface.value,
      priority: 0,
      faceUp: true,
      denied: false,
      claimedBy: -1,
      known: true,
    },
  ];
  // face-down cards are laid out in a seeded order, so a slot number says nothing about the card
  // even to a player who knows the edition (U22); a stream of its own keeps deck and Lead stable
  const hidden = sc.hidden.filter((h) => h.priority <= cap);
  shuffleInPlace(rng, 'problems', hidden);
  for (const h of hidden) {
    problems.push({
      slot: problems.length,
      id: h.id,
      name: h.name,
      suit: SUITS.indexOf(h.suit),
      value: h.value,
      priority: h.priority,
      faceUp: false,
      denied: false,
      claimedBy: -1,
      known: false,
    });
  }

  // GR-S04: the 24 core Solutions shuffled from the seed; GR-S02: two dealt to each player
  const deck = ed.solutions.map((c) => SUITS.indexOf(c.suit));
  shuffleInPlace(rng, 'shuffle', deck);
  const players: PlayerState[] = [];
  for (let p = 0; p < n; p++) {
    const hand = [0, 0, 0, 0];
    hand[deck.pop()!]++;
    hand[deck.pop()!]++;
    players.push({
      stress: 2,
      freedom: 'READY',
      darvo: 'OFF',
      darvoEnding: false,
      reverseTarget: -1,
      token: { side: 'focus', at: -1 },
      hand,
      claimed: [],
      protection: 0,
      choice: null,
      ground: null,
    });
  }

  return {
    edition: ed.id,
    scenario: sc.id,
    mode: cfg.mode,
    n,
    threshold: thresholdFor(sc.thresholds, n),
    round: 1,
    lead: nextInt(rng, 'setup', n), // GR-S03
    phase: 'select',
    players,
    problems,
    deck,
    discard: [],
    rel: new Array(n * n).fill(0),
    rs: freshRound(),
    decision: null,
    rng,
  };
}

function thresholdFor(t: ScenarioCard['thresholds'], n: number): number {
  return n <= 2 ? t['2'] : n === 3 ? t['3'] : n === 4 ? t['4'] : n === 5 ? t['5'] : t['6'];
}

export function freshRound(): RoundState {
  return { step: 0, i: 0, newBonds: [], ouCancel: [], protectedSlots: [], ndReject: [] };
}
