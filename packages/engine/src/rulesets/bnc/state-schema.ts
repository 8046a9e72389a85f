// The declared shape of a bnc state, for states written by hand (scenario overrides): a missing or
// mistyped field is refused with its path before the engine reads it, instead of a TypeError deep
// in a copy or a rule. Field for field the type in state.ts; the engine never checks its own states
// with it (they are right by construction).

import { z } from 'zod';
import { ITEM_IDS, ZONE_COUNT } from './constants.ts';
import { actionSchema } from './schema.ts';

const int = z.number().int();
const count = int.min(0);
const seat = int.min(0).max(15);
const zone = int.min(0).max(ZONE_COUNT - 1);
const item = z.enum(ITEM_IDS);
const items = z.array(item);
const id = z.string();

const contestant = z.strictObject({
  seat,
  zone,
  health: int,
  items,
  status: z.enum(['active', 'escaped', 'eliminated']),
  at: count.nullable(),
  route: z.enum(['fragments', 'vault']).nullable(),
  reputation: int,
  guild: id.nullable(),
  deposited: count,
  withdrawn: count,
  known: z.array(id),
  searched: z.array(zone),
  chartRead: z.boolean(),
  submitted: actionSchema.nullable(),
});

const stream = z.tuple([int, int, int, int]);

export const stateSchema = z.strictObject({
  config: z.strictObject({ contestants: count, turns: count, health: count, wardenHealth: count }),
  edition: z.string(),
  turn: count,
  over: z.boolean(),
  endReason: z.string().nullable(),
  shortcuts: z.array(z.strictObject({ id, a: zone, b: zone })),
  floor: z.array(items).length(ZONE_COUNT),
  contestants: z.array(contestant).min(2),
  warden: z.strictObject({ zone, health: int, down: z.boolean() }),
  wardenEngaged: seat.nullable(),
  offers: z.array(z.strictObject({ id, from: seat, to: seat, give: items, get: items, made: count, expiresAt: count })),
  proposals: z.array(z.strictObject({ id, from: seat, to: seat, turns: count, made: count, expiresAt: count })),
  pacts: z.array(z.strictObject({ id, a: seat, b: seat, formed: count, expiresAt: count })),
  guilds: z.array(
    z.strictObject({
      id,
      home: zone,
      members: z.array(seat),
      vault: items,
      founded: count,
      expiresAt: count,
      claimSpent: z.boolean(),
    }),
  ),
  invitations: z.array(z.strictObject({ id, guild: id, from: seat, to: seat, made: count, expiresAt: count })),
  messages: z.array(
    z.strictObject({ turn: count, from: seat, to: seat.nullable(), zone, text: z.string(), heard: z.array(seat) }),
  ),
  serial: z.strictObject({ offer: count, proposal: count, pact: count, guild: count, invitation: count }),
  contacts: z.array(z.string()),
  firstPact: z.boolean(),
  silentRun: count,
  rng: z.strictObject({ seed: count, streams: z.record(z.string(), stream) }),
});
