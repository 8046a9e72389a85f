// The mines declared schemas: the config with the limits that keep setup, a view and a turn cheap
// (a board's cells bound the generator, the state copy each turn and the size of every view), every
// action family the menu offers, and the parts of the state a scenario writes by hand. setup checks
// its config here; `arbiter schema`, the server and model tools publish these same objects.

import { z } from 'zod';
import { FIXTURE_NAMES } from './fixtures.ts';

/**
 * Bounded work (rules.md "Limits"): a generated or given board is at most MAX_SIDE cells on a side
 * and MAX_CELLS cells in all. At that size setup (the no-guess generator included) takes tens of
 * milliseconds and a view a few kilobytes; a 2000 x 2000 board blocked a server for 20 s.
 */
const MAX_SIDE = 128;
const MAX_CELLS = 4096;
/** Intents in one batch. */
export const MAX_BATCH = 32;

const cellsLimit = `width x height must be at most ${MAX_CELLS} cells (the mines board limit)`;
const side = (what: string) =>
  z
    .int()
    .min(4)
    .max(MAX_SIDE, { error: `${what} must be at most ${MAX_SIDE} (the mines board limit)` });

const economy = z
  .strictObject({
    ap_per_round: z.int().min(1).max(1000).optional(),
    dig_ap_cost: z.int().min(0).max(1000).optional(),
    flag_place_ap_cost: z.int().min(0).max(1000).optional(),
    flag_pull_ap_cost: z.int().min(0).max(1000).optional(),
    rap_refresh_cost: z.int().min(0).max(1000).optional(),
  })
  .describe('overrides of the AP price table');

const int = z.int();
const cellPair = z.tuple([int.min(0), int.min(0)]);

/** A board handed in whole (the fixture format); its invariants are A2's check at install. */
const boardSchema = z
  .strictObject({
    id: z.string().max(200),
    w: int.min(3).max(MAX_SIDE, { error: `w must be at most ${MAX_SIDE} (the mines board limit)` }),
    h: int.min(3).max(MAX_SIDE, { error: `h must be at most ${MAX_SIDE} (the mines board limit)` }),
    spawn: cellPair,
    mines: z
      .string()
      .regex(/^[01]*$/)
      .max(MAX_CELLS),
    digits: z
      .string()
      .regex(/^[0-8*]*$/)
      .max(MAX_CELLS),
    variants: z.array(z.tuple([int.min(0), z.array(z.string().max(40)).max(8)])).max(MAX_CELLS),
  })
  .refine((b) => b.w * b.h <= MAX_CELLS, { error: cellsLimit, path: ['w'] });

export const configSchema = z
  .strictObject({
    board: z
      .union([z.enum(FIXTURE_NAMES as [string, ...string[]]), boardSchema])
      .optional()
      .meta({
        description:
          'a fixture board name (b_spawn, b_chain, b_fog, ...) or a board object, instead of a generated one',
        // the web lobby offers these names in a list
        examples: FIXTURE_NAMES,
      }),
    width: side('width').optional().meta({ default: 10, description: 'generated board width' }),
    height: side('height').optional().meta({ default: 10, description: 'generated board height' }),
    mines: int.min(1).max(MAX_CELLS).optional().meta({ default: 14, description: 'mine count' }),
    fog: int.min(0).max(MAX_CELLS).optional().meta({ default: 2, description: 'fog cells' }),
    spawn: cellPair.optional().describe('spawn centre [x, y] (default: the centre)'),
    no_guess: z
      .boolean()
      .optional()
      .meta({ default: true, description: 'repair generated boards until deduction clears them' }),
    boards: int.min(1).max(1000).optional().meta({ default: 1, description: 'boards to clear to win the run' }),
    max_rounds: int.min(1).max(100000).optional().meta({ default: 20, description: 'round cap of the run' }),
    economy: economy.optional(),
  })
  .refine((c) => (c.width ?? 10) * (c.height ?? 10) <= MAX_CELLS, { error: cellsLimit, path: ['width'] });

const cell = z.tuple([int.min(0).max(MAX_SIDE - 1), int.min(0).max(MAX_SIDE - 1)]);
const cellIntent = (type: 'dig' | 'flag_place' | 'flag_pull' | 'move') =>
  z.strictObject({ type: z.literal(type), cell });
const stop = z.strictObject({ type: z.literal('stop') });

export const actionSchemas = {
  dig: cellIntent('dig'),
  flag_place: cellIntent('flag_place'),
  flag_pull: cellIntent('flag_pull'),
  move: cellIntent('move'),
  stop,
  refresh: z.strictObject({ type: z.literal('refresh') }),
  batch: z.strictObject({
    type: z.literal('batch'),
    intents: z
      .array(z.union([cellIntent('dig'), cellIntent('flag_place'), cellIntent('flag_pull'), cellIntent('move'), stop]))
      .min(1)
      .max(MAX_BATCH),
  }),
};

const count = int.min(0);

/**
 * The state as far as a scenario writes it: the run (its fixture board above all) in full, the
 * board and ledger records by their fields. Outcomes and diagnostics are the engine's own records.
 */
export const stateSchema = z.strictObject({
  a2: z.strictObject({
    board: boardSchema.nullable(),
    board_state: z.enum(['none', 'installed', 'retired']),
    cover: z.string().regex(/^[.oF]*$/),
    pos: int.min(-1),
    rem: count,
  }),
  a3: z.strictObject({
    phase: z.enum(['Idle', 'Active', 'Waiting']),
    ap: count,
    rap: count,
    round: count,
    spent: count,
    table: z.record(z.string(), count),
    last_round_end: z.looseObject({}).nullable(),
  }),
  run: z.strictObject({
    boards_target: int.min(1),
    max_rounds: int.min(1),
    boards_cleared: count,
    boards_installed: count,
    fixture: boardSchema.nullable(),
    gen: z
      .strictObject({ width: count, height: count, mines: count, fog: count, spawn: cellPair, no_guess: z.boolean() })
      .nullable(),
    ended: z.enum(['cleared', 'round_cap']).nullable(),
    last: z.array(z.looseObject({})),
    diagnostics: z.array(z.looseObject({})),
    mines_dug: count,
  }),
  rng: z.strictObject({ seed: count, streams: z.record(z.string(), z.tuple([int, int, int, int])) }),
});
