// The ruleset's config: a fixture board (by name or as a board object) or generator parameters,
// plus the run length and economy overrides. Every field has a documented default.

import { ArbiterError, type JsonObject } from '../../kernel/index.ts';
import type { Board } from './board/geometry.ts';
import { economyTable, type EconomyTable } from './ledger/economy.ts';
import { type GenError, normaliseParams, type GenParams } from './generator/generator.ts';
import { FIXTURE_NAMES, fixture } from './fixtures.ts';

export const DEFAULT_CONFIG: JsonObject = {
  width: 10,
  height: 10,
  mines: 14,
  fog: 2,
  no_guess: true,
  boards: 1,
  max_rounds: 20,
};

type BoardSource = { kind: 'fixture'; board: Board } | { kind: 'generated'; params: Required<GenParams> };

type MinesConfig = {
  source: BoardSource;
  /** Boards to clear to win the run. */
  boards: number;
  /** The run ends (without a win) when this many rounds have been played. */
  max_rounds: number;
  economy: EconomyTable;
};

const KEYS = new Set([
  'board',
  'width',
  'height',
  'mines',
  'fog',
  'spawn',
  'no_guess',
  'boards',
  'max_rounds',
  'economy',
]);
const GEN_KEYS = ['width', 'height', 'mines', 'fog', 'spawn', 'no_guess'];

export function parseConfig(raw: unknown): MinesConfig {
  const bad = (msg: string): never => {
    throw new ArbiterError('bad_config', `mines config: ${msg}`);
  };
  const c = raw === undefined || raw === null ? {} : raw;
  if (typeof c !== 'object' || Array.isArray(c)) bad('must be an object');
  const o = c as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!KEYS.has(k)) bad(`unknown field "${k}" (known: ${[...KEYS].join(', ')})`);
  const int = (k: string, lo: number, hi: number): number => {
    const v = o[k] ?? DEFAULT_CONFIG[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi)
      bad(`${k} must be an integer from ${lo} to ${hi}`);
    return v as number;
  };
  let source: BoardSource;
  if (o.board !== undefined) {
    const given = GEN_KEYS.filter((k) => o[k] !== undefined);
    if (given.length) bad(`"board" and generator fields (${given.join(', ')}) exclude each other`);
    if (typeof o.board === 'string') {
      if (!FIXTURE_NAMES.includes(o.board))
        bad(`unknown fixture board "${o.board}" (known: ${FIXTURE_NAMES.join(', ')})`);
      source = { kind: 'fixture', board: fixture(o.board) };
    } else if (typeof o.board === 'object' && o.board !== null) {
      source = { kind: 'fixture', board: o.board as Board };
    } else source = bad('board must be a fixture name or a board object');
  } else {
    const p: Record<string, unknown> = {};
    for (const k of GEN_KEYS) p[k] = o[k] ?? DEFAULT_CONFIG[k];
    try {
      source = { kind: 'generated', params: normaliseParams(p as Partial<GenParams>) };
    } catch (e) {
      source = bad((e as GenError).message);
    }
  }
  let economy: EconomyTable;
  try {
    economy = economyTable(o.economy);
  } catch (e) {
    economy = bad((e as Error).message);
  }
  return { source, boards: int('boards', 1, 1000), max_rounds: int('max_rounds', 1, 100000), economy };
}

/** Named configs for `--preset` (ci: small enough for `arbiter explore` to exhaust). */
export const MINES_PRESETS: Record<string, JsonObject> = {
  ci: { board: 'b_chain', max_rounds: 1, economy: { ap_per_round: 3 } },
  beginner: { width: 9, height: 9, mines: 10, fog: 1 },
  intermediate: { width: 16, height: 16, mines: 40, fog: 3 },
  expert: { width: 30, height: 16, mines: 99, fog: 3, max_rounds: 40 },
};
