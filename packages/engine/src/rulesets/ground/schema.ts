// GROUND's declared schemas: the config (with the limits that keep setup and a turn cheap), every
// action family the menus offer, and the state a scenario may write by hand. setup checks its
// config here; `arbiter schema`, the server and model tools publish the JSON Schema of the same
// objects, so the published and the enforced rules cannot drift apart.

import { z } from 'zod';
import { editionSchema } from './edition.ts';
import { ACTIONS, MODES } from './state.ts';

/** Seats a config may ask for (GR-O01): what bounds a turn's menu and a round's resolution. */
const PLAYERS_MIN = 2;
const PLAYERS_MAX = 6;
/** Highest seat number or Problem slot an action may name (menus are interned up to it). */
export const MAX_TARGET = 16;

const players = `players must be an integer from ${PLAYERS_MIN} to ${PLAYERS_MAX} (GR-O01)`;

export const configSchema = z.strictObject({
  players: z
    .int({ error: players })
    .min(PLAYERS_MIN, { error: players })
    .max(PLAYERS_MAX, { error: players })
    .default(4)
    .describe('seats (GR-O01)'),
  mode: z
    .enum(MODES, { error: `mode must be one of ${MODES.join(', ')}` })
    .default('shared-ground')
    .describe('scoring mode'),
  scenario: z.string().max(200).default('kitchen-table').describe('Scenario card id of the edition'),
  edition: editionSchema
    .optional()
    .describe('an edition object (the CLI reads --edition PATH); default: the shipped SAMPLE edition'),
});

const index = z
  .int()
  .min(0)
  .max(MAX_TARGET - 1);

export const actionSchemas = {
  select: z.strictObject({
    type: z.literal('select'),
    action: z.enum(ACTIONS),
    target: index.nullable(),
    freedom: z.boolean(),
  }),
  ground: z.union([
    z.strictObject({ type: z.literal('ground'), mode: z.literal('GR'), option: z.null(), target: z.null() }),
    z.strictObject({
      type: z.literal('ground'),
      mode: z.literal('OU'),
      option: z.enum(['restore', 'cancel', 'protect']),
      target: index,
    }),
    z.strictObject({
      type: z.literal('ground'),
      mode: z.literal('ND'),
      option: z.enum(['remove_blame', 'break', 'reject_reverse']),
      target: index,
    }),
  ]),
  bond: z.strictObject({ type: z.literal('bond'), accept: z.boolean() }),
  rivalry: z.strictObject({ type: z.literal('rivalry'), choice: z.enum(['flip', 'break']) }),
  deny: z.strictObject({ type: z.literal('deny'), problem: index }),
  darvo_attack: z.strictObject({ type: z.literal('darvo_attack'), target: index }),
};

const int = z.int();
const seat = int.min(0).max(PLAYERS_MAX - 1);
const seatOrNone = int.min(-1).max(PLAYERS_MAX - 1);
const stream = z.tuple([int, int, int, int]);

const player = z.strictObject({
  stress: int.min(0).max(5),
  freedom: z.enum(['READY', 'SPENT']),
  darvo: z.enum(['OFF', 'DENY', 'ATTACK', 'REVERSE']),
  darvoEnding: z.boolean(),
  reverseTarget: seatOrNone,
  token: z.strictObject({ side: z.enum(['focus', 'blame']), at: seatOrNone }),
  hand: z.array(int.min(0)).length(4),
  claimed: z.array(index),
  protection: int.min(0),
  choice: z.strictObject({ seat, action: z.enum(ACTIONS), target: int.min(-1), freedom: z.boolean() }).nullable(),
  ground: z
    .strictObject({ seat, mode: z.enum(['GR', 'OU', 'ND']), option: z.string(), target: int.min(-1) })
    .nullable(),
});

const problem = z.strictObject({
  slot: index,
  id: z.string(),
  name: z.string(),
  suit: int.min(0).max(3),
  value: int.min(0),
  priority: int.min(0).max(4),
  faceUp: z.boolean(),
  denied: z.boolean(),
  claimedBy: seatOrNone,
  known: z.boolean(),
});

export const stateSchema = z.strictObject({
  edition: z.string(),
  scenario: z.string(),
  mode: z.enum(MODES),
  n: int.min(PLAYERS_MIN).max(PLAYERS_MAX),
  threshold: int.min(0),
  round: int.min(0),
  lead: seat,
  phase: z.enum(['select', 'ground', 'resolve', 'over']),
  players: z.array(player).min(PLAYERS_MIN).max(PLAYERS_MAX),
  problems: z.array(problem).max(MAX_TARGET),
  deck: z.array(int.min(0).max(3)),
  discard: z.array(int.min(0).max(3)),
  rel: z.array(int.min(0).max(2)),
  rs: z.strictObject({
    step: int.min(0),
    i: int.min(0),
    newBonds: z.array(int.min(0)),
    ouCancel: z.array(int.min(0)),
    protectedSlots: z.array(index),
    ndReject: z.array(int.min(0)),
  }),
  decision: z
    .strictObject({
      seat,
      kind: z.enum(['bond_accept', 'rivalry_choice', 'deny_target', 'darvo_attack_target']),
      from: seatOrNone,
      options: z.array(int.min(0)),
    })
    .nullable(),
  rng: z.strictObject({ seed: int.min(0), streams: z.record(z.string(), stream) }),
});
