// Every bnc action defined once with zod. The engine validates untrusted input with these
// definitions and `arbiter schema bnc` prints the JSON Schema generated from the same objects,
// so the published schema cannot drift from what the engine accepts.

import { z } from 'zod';
import type { JsonObject } from '../../kernel/index.ts';
import {
  ALLIANCE_TURNS_MAX,
  GUILD_TERM_MAX,
  ITEM_IDS,
  OFFER_ITEMS_MAX,
  OFFER_TURNS_MAX,
  TEXT_MAX,
  ZONE_COUNT,
} from './constants.ts';

const seat = z.number().int().min(0).max(15);
const zone = z
  .number()
  .int()
  .min(0)
  .max(ZONE_COUNT - 1);
const item = z.enum(ITEM_IDS);
const items = z.array(item).max(OFFER_ITEMS_MAX);
// zod 4 measures string length in code points, matching the seed's limit (tested with astral text);
// the seed sets only a maximum, so an empty text is allowed (U26)
const text = z.string().max(TEXT_MAX);
const ref = (prefix: string) => z.string().regex(new RegExp(`^${prefix}[0-9]{1,6}$`));

export const ACTION_SCHEMAS = {
  wait: z.strictObject({ type: z.literal('wait') }),
  move: z.strictObject({ type: z.literal('move'), to: zone }),
  pickup: z.strictObject({ type: z.literal('pickup'), item }),
  use_chart: z.strictObject({ type: z.literal('use_chart') }),
  attack: z.strictObject({ type: z.literal('attack') }),
  say: z.strictObject({ type: z.literal('say'), text }),
  whisper: z.strictObject({ type: z.literal('whisper'), to: seat, text }),
  offer: z.strictObject({
    type: z.literal('offer'),
    to: seat,
    give: items,
    get: items,
    turns: z.number().int().min(1).max(OFFER_TURNS_MAX),
  }),
  accept_offer: z.strictObject({ type: z.literal('accept_offer'), offer: ref('O') }),
  reject_offer: z.strictObject({ type: z.literal('reject_offer'), offer: ref('O') }),
  propose_alliance: z.strictObject({
    type: z.literal('propose_alliance'),
    to: seat,
    turns: z.number().int().min(1).max(ALLIANCE_TURNS_MAX),
  }),
  accept_alliance: z.strictObject({ type: z.literal('accept_alliance'), proposal: ref('A') }),
  reject_alliance: z.strictObject({ type: z.literal('reject_alliance'), proposal: ref('A') }),
  break_alliance: z.strictObject({ type: z.literal('break_alliance'), pact: ref('P') }),
  found_guild: z.strictObject({ type: z.literal('found_guild'), term: z.number().int().min(1).max(GUILD_TERM_MAX) }),
  invite_guild: z.strictObject({ type: z.literal('invite_guild'), to: seat }),
  accept_guild: z.strictObject({ type: z.literal('accept_guild'), invitation: ref('I') }),
  reject_guild: z.strictObject({ type: z.literal('reject_guild'), invitation: ref('I') }),
  leave_guild: z.strictObject({ type: z.literal('leave_guild') }),
  deposit: z.strictObject({ type: z.literal('deposit'), item }),
  withdraw: z.strictObject({ type: z.literal('withdraw'), item }),
} as const;

export type ActionType = keyof typeof ACTION_SCHEMAS;
export const ACTION_TYPES: ActionType[] = [
  'wait',
  'move',
  'pickup',
  'use_chart',
  'attack',
  'say',
  'whisper',
  'offer',
  'accept_offer',
  'reject_offer',
  'propose_alliance',
  'accept_alliance',
  'reject_alliance',
  'break_alliance',
  'found_guild',
  'invite_guild',
  'accept_guild',
  'reject_guild',
  'leave_guild',
  'deposit',
  'withdraw',
];

export const actionSchema = z.discriminatedUnion('type', [
  ACTION_SCHEMAS.wait,
  ACTION_SCHEMAS.move,
  ACTION_SCHEMAS.pickup,
  ACTION_SCHEMAS.use_chart,
  ACTION_SCHEMAS.attack,
  ACTION_SCHEMAS.say,
  ACTION_SCHEMAS.whisper,
  ACTION_SCHEMAS.offer,
  ACTION_SCHEMAS.accept_offer,
  ACTION_SCHEMAS.reject_offer,
  ACTION_SCHEMAS.propose_alliance,
  ACTION_SCHEMAS.accept_alliance,
  ACTION_SCHEMAS.reject_alliance,
  ACTION_SCHEMAS.break_alliance,
  ACTION_SCHEMAS.found_guild,
  ACTION_SCHEMAS.invite_guild,
  ACTION_SCHEMAS.accept_guild,
  ACTION_SCHEMAS.reject_guild,
  ACTION_SCHEMAS.leave_guild,
  ACTION_SCHEMAS.deposit,
  ACTION_SCHEMAS.withdraw,
]);

export type Action = z.infer<typeof actionSchema>;

export const configSchema = z.strictObject({
  contestants: z.number().int().min(2).max(6).optional(),
  turns: z.number().int().min(1).max(200).optional(),
  health: z.number().int().min(1).max(100).optional(),
  wardenHealth: z.number().int().min(1).max(500).optional(),
});

type JsonSchema = JsonObject;
const cache = new Map<string, JsonSchema>();

/** zod's JSON Schema output is plain JSON by construction; its declared type is wider. */
function toJson(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema) as JsonSchema;
}

// menus hand the cached schema out on every call, so nobody may change it in place
function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/** The JSON Schema of one action family (generated from its zod definition, cached). */
export function jsonSchemaOf(type: ActionType): JsonSchema {
  let s = cache.get(type);
  if (!s) {
    s = deepFreeze(toJson(ACTION_SCHEMAS[type]));
    cache.set(type, s);
  }
  return s;
}

/** All action schemas, keyed by type, plus the union, for `arbiter schema bnc`. */
export function allJsonSchemas(): { actions: Record<string, JsonSchema>; union: JsonSchema; config: JsonSchema } {
  const actions: Record<string, JsonSchema> = {};
  for (const t of ACTION_TYPES) actions[t] = jsonSchemaOf(t);
  return {
    actions,
    union: toJson(actionSchema),
    config: toJson(configSchema),
  };
}
