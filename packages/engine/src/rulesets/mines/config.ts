// The ruleset's config: a fixture board (by name or as a board object) or generator parameters,
// plus the run length and economy overrides. Every field has a documented default.

import type { z } from 'zod';
import { ArbiterError, parseDeclared, type JsonObject } from '../../kernel/index.ts';
import type { Board } from './board/geometry.ts';
import { economyTable, type EconomyTable } from './ledger/economy.ts';
import { type GenError, normaliseParams, type GenParams } from './generator/generator.ts';
import { fixture } from './fixtures.ts';
import { configSchema } from './schema.ts';

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

const GEN_KEYS = ['width', 'height', 'mines', 'fog', 'spawn', 'no_guess'] as const;

type Declared = z.infer<typeof configSchema>;

export function parseConfig(raw: unknown): MinesConfig {
  const bad = (msg: string): never => {
    throw new ArbiterError('bad_config', `mines config: ${msg}`);
  };
  // shapes, ranges and the board limits are the declared schema's; what it cannot say (a board
  // excludes the generator's fields, the mines must leave the spawn square free) is checked here
  const o = parseDeclared<Declared>(configSchema, raw ?? {}, 'bad_config', 'mines config');
  let source: BoardSource;
  if (o.board !== undefined) {
    const given = GEN_KEYS.filter((k) => o[k] !== undefined);
    if (given.length) bad(`"board" and generator fields (${given.join(', ')}) exclude each other`);
    source = { kind: 'fixture', board: typeof o.board === 'string' ? fixture(o.board) : (o.board as Board) };
  } else {
    const p: Record<string, unknown> = {};
    for (const k of GEN_KEYS) p[k] = o[k] ?? DEFAULT_CONFIG[k];
    try {
      source = { kind: 'generated', params: normaliseParams(p as Partial<GenParams>) };
    } catch (e) {
      source = bad((e as GenError).message);
    }
  }
  return {
    source,
    boards: o.boards ?? (DEFAULT_CONFIG.boards as number),
    max_rounds: o.max_rounds ?? (DEFAULT_CONFIG.max_rounds as number),
    economy: economyTable(o.economy),
  };
}

/** Named configs for `--preset` (ci: small enough for `arbiter explore` to exhaust). */
export const MINES_PRESETS: Record<string, JsonObject> = {
  ci: { board: 'b_chain', max_rounds: 1, economy: { ap_per_round: 3 } },
  beginner: { width: 9, height: 9, mines: 10, fog: 1 },
  intermediate: { width: 16, height: 16, mines: 40, fog: 3 },
  expert: { width: 30, height: 16, mines: 99, fog: 3, max_rounds: 40 },
};
