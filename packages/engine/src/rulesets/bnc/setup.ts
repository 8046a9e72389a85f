// Config validation and the seeded initial position: the shortcuts (U02) and the item layout
// (U05) are drawn from the 'map' stream, so they depend on the seed only.

import {
  checkSeed,
  parseDeclared,
  createRng,
  nextInt,
  shuffleInPlace,
  type GameEvent,
  type JsonObject,
} from '../../kernel/index.ts';
import {
  CONTESTANTS,
  VERSION,
  EXIT,
  INTAKE,
  ITEM_IDS,
  MIDDLE_ZONES,
  START_HEALTH,
  STREAM_MAP,
  TURNS,
  WARDEN_HEALTH,
  ZONE_COUNT,
  type ItemId,
} from './constants.ts';
import { configSchema } from './schema.ts';
import type { BncConfig, BncState, Contestant, Shortcut } from './state.ts';

export const DEFAULT_CONFIG: BncConfig = {
  contestants: CONTESTANTS,
  turns: TURNS,
  health: START_HEALTH,
  wardenHealth: WARDEN_HEALTH,
};

function parseConfig(config: unknown): BncConfig {
  if (config === undefined || config === null) return { ...DEFAULT_CONFIG };
  const data = parseDeclared<Partial<BncConfig>>(configSchema, config, 'bad_config', 'bnc config');
  // a literal of one fixed shape, not a spread (as GROUND's readConfig: the spread slowed the fast path)
  return {
    contestants: data.contestants ?? DEFAULT_CONFIG.contestants,
    turns: data.turns ?? DEFAULT_CONFIG.turns,
    health: data.health ?? DEFAULT_CONFIG.health,
    wardenHealth: data.wardenHealth ?? DEFAULT_CONFIG.wardenHealth,
  };
}

/**
 * U24: the released match is exactly the default config; any other config is a variant of it and
 * says so ("bnc-1.1-variant(contestants=3)"), so a result of a variant is never taken for bnc-1.1.
 */
function editionOf(cfg: BncConfig): { edition: string; differs: JsonObject } {
  const differs: JsonObject = {};
  for (const k of ['contestants', 'turns', 'health', 'wardenHealth'] as const)
    if (cfg[k] !== DEFAULT_CONFIG[k]) differs[k] = cfg[k];
  const parts = Object.entries(differs).map(([k, v]) => `${k}=${String(v)}`);
  return { edition: parts.length === 0 ? VERSION : `${VERSION}-variant(${parts.join(',')})`, differs };
}

/** U02: every pair of zones two or more steps apart, except Intake Yard–Exit Vault. */
export function shortcutCandidates(): [number, number][] {
  const out: [number, number][] = [];
  for (let a = 0; a < ZONE_COUNT; a++) {
    for (let b = a + 2; b < ZONE_COUNT; b++) if (!(a === INTAKE && b === EXIT)) out.push([a, b]);
  }
  return out;
}

export function setup(config: unknown, seed: number, events?: GameEvent[]): BncState {
  checkSeed(seed);
  const cfg = parseConfig(config);
  const { edition, differs } = editionOf(cfg);
  events?.push({ type: 'edition', edition, variant: edition !== VERSION, differs });
  const rng = createRng(seed);
  const count = 1 + nextInt(rng, STREAM_MAP, 3);
  const pairs = shuffleInPlace(rng, STREAM_MAP, shortcutCandidates()).slice(0, count);
  pairs.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const shortcuts: Shortcut[] = pairs.map(([a, b], i) => ({ id: `S${i + 1}`, a, b }));
  const items = shuffleInPlace(rng, STREAM_MAP, [...ITEM_IDS]);
  const floor: ItemId[][] = Array.from({ length: ZONE_COUNT }, () => []);
  MIDDLE_ZONES.forEach((z, i) => floor[z].push(items[i]));
  const contestants: Contestant[] = Array.from({ length: cfg.contestants }, (_, seat) => ({
    seat,
    zone: INTAKE,
    health: cfg.health,
    items: [],
    status: 'active',
    at: null,
    route: null,
    reputation: 0,
    guild: null,
    deposited: 0,
    withdrawn: 0,
    known: [],
    searched: [],
    chartRead: false,
    submitted: null,
  }));
  return {
    config: cfg,
    edition,
    turn: 0,
    over: false,
    endReason: null,
    shortcuts,
    floor,
    contestants,
    warden: { zone: EXIT, health: cfg.wardenHealth, down: false },
    wardenEngaged: null,
    offers: [],
    proposals: [],
    pacts: [],
    guilds: [],
    invitations: [],
    messages: [],
    serial: { offer: 0, proposal: 0, pact: 0, guild: 0, invitation: 0 },
    contacts: [],
    firstPact: false,
    silentRun: 0,
    rng,
  };
}
