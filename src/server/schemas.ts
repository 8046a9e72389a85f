// The wire shapes, as zod schemas: requests are parsed with them, tests check answers against them,
// and the OpenAPI document is generated from them (z.toJSONSchema), so the three never drift.

import { z } from 'zod';
import { canonicalJson, findPrototypeKey, isPlainJson, type Json } from '@arbiter/engine/kernel';

const json = z.json();
const code = z.enum([
  'bad_request',
  'illegal',
  'out_of_turn',
  'game_over',
  'bad_config',
  'corrupt_log',
  'not_found',
  'too_large',
  'too_many_requests',
  'internal',
]);

export const ErrorBody = z.object({
  ok: z.literal(false),
  error: z.object({ code, reason: z.string(), detail: json.optional() }),
});

export const CreateBody = z
  .object({
    ruleset: z.string().min(1).max(64),
    config: z.record(z.string(), json).optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .optional(),
    /** One entry per seat from seat 0; `{}` (or a missing entry) is an open seat, `{agent}` a built-in agent. */
    seats: z
      .array(z.object({ agent: z.string().min(1).max(200).optional() }).strict())
      .max(64)
      .optional(),
    /** Makes the match private: spectators need this password. */
    spectatePassword: z.string().min(1).max(256).optional(),
    /** Spectators see the match this many submissions (turns) or seconds late. */
    spectateDelay: z
      .union([
        z.object({ turns: z.number().int().min(1).max(100_000) }).strict(),
        z.object({ seconds: z.number().int().min(1).max(86_400) }).strict(),
      ])
      .optional(),
    /** Anyone may watch live, even a ruleset whose spectators see every seat's secrets (bnc). */
    spectatePublic: z.literal(true).optional(),
    /** A seat that owes a decision this long gets the ruleset's default action, recorded as defaulted. */
    turnDeadlineMs: z.number().int().min(50).max(86_400_000).optional(),
    /** Built-in agents wait this long before each move, so people can watch an agents-only match unfold. */
    agentDelayMs: z.number().int().min(0).max(60_000).optional(),
    /** Seat every seat from a line-up this server offers, by id (`GET /api/lineups`); excludes `seats`. */
    lineup: z.string().min(1).max(128).optional(),
  })
  .strict();

export const JoinBody = z
  .object({ name: z.string().min(1).max(64), seat: z.number().int().min(0).max(63).optional() })
  .strict();

export const ActBody = z.object({ action: json, idempotencyKey: z.string().min(1).max(128).optional() }).strict();

export const ListQuery = z
  .object({
    ruleset: z.string().min(1).max(64).optional(),
    status: z.enum(['waiting', 'running', 'finished']).optional(),
    limit: z.coerce.number().int().min(1).max(500).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
    /** `include`: list expired matches too (src/server/expiry.ts). */
    expired: z.enum(['include']).optional(),
  })
  .strict();

export const AccessQuery = z
  .object({
    token: z.string().max(256).optional(),
    password: z.string().max(1024).optional(),
    /** On the WebSocket: a seat token's holder plays the seat as an agent (docs/agents.md). */
    protocol: z.literal('arbiter-agent/1').optional(),
  })
  .strict();

const seatInfo = z.object({
  seat: z.number().int(),
  kind: z.enum(['open', 'player', 'agent']),
  name: z.string().nullable(),
});
const pendingPublic = z.object({ seat: z.number().int(), kind: z.string() });

export const MatchRecord = z.object({
  id: z.string(),
  ruleset: z.string(),
  version: z.string(),
  title: z.string().optional(),
  status: z.enum(['waiting', 'running', 'finished']),
  private: z.boolean(),
  /** How spectators may watch while it runs: live, password, public, after_end, or {delay}. */
  watch: z
    .union([
      z.enum(['live', 'password', 'public', 'after_end']),
      z.object({ delay: z.union([z.object({ turns: z.number() }), z.object({ seconds: z.number() })]) }),
    ])
    .optional(),
  seats: z.union([z.array(seatInfo), z.number().int()]),
  seq: z.number().int(),
  pending: z.array(pendingPublic).optional(),
  outcome: json,
  turnDeadlineMs: z.number().int().nullable().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  seed: z.number().int().optional(),
  problem: z.string().optional(),
  /** The line-up the seats came from. */
  lineup: z.object({ id: z.string(), version: z.string() }).optional(),
});

const OfferedLineup = z.object({
  id: z.string(),
  ruleset: z.string(),
  version: z.string(),
  description: z.string().nullable(),
  seats: z.array(z.string()),
  source: z.enum(['server', 'shipped']),
  allowed: z.boolean(),
});
const TranscriptSeats = z.object({ seats: z.array(z.number().int()) });
const Transcript = z.object({
  match: z.string(),
  seat: z.number().int(),
  records: z.array(json),
  text: z.string(),
});

export const Snapshot = z.object({
  match: z.string(),
  seq: z.number().int(),
  status: z.enum(['waiting', 'running', 'finished']),
  seat: z.number().int().nullable(),
  view: json,
  pending: z.array(pendingPublic),
  /** The caller's own pending entries, with their details. */
  yours: z.array(z.record(z.string(), json)),
  menu: json,
  events: z.array(z.record(z.string(), json)),
  outcome: json,
  /** A delayed spectator's frame: the delay it is seen with. */
  delayed: json.optional(),
});

const JoinResult = z.object({ match: z.string(), seat: z.number().int(), token: z.string() });

export const ActResult = z.object({
  ok: z.literal(true),
  seq: z.number().int(),
  events: z.array(z.record(z.string(), json)),
  outcome: json,
  replayed: z.boolean(),
});

const RulesetSummary = z.object({
  id: z.string(),
  version: z.string(),
  title: z.string(),
  rules: z.number().int(),
  uItems: z.number().int(),
  gameType: json,
  agents: z.array(z.object({ name: z.string(), description: z.string(), reads: z.string() })),
});

const RulesetDetail = RulesetSummary.extend({
  catalog: json,
  configSchema: json,
  defaultConfig: json,
  presets: json,
});

/** WebSocket frames the server sends (`state` after every change, answers to `act`, errors). */
export const ServerFrame = z.discriminatedUnion('type', [
  // a state frame that answers a `switch` carries that frame's id
  Snapshot.extend({ type: z.literal('state'), id: json.optional() }),
  z.object({
    type: z.literal('ack'),
    id: json.optional(),
    seq: z.number().int(),
    events: z.array(z.record(z.string(), json)),
    outcome: json,
    replayed: z.boolean(),
  }),
  z.object({ type: z.literal('error'), id: json.optional(), code, reason: z.string(), detail: json.optional() }),
  z.object({ type: z.literal('pong'), id: json.optional() }),
]);

/** WebSocket messages a client sends. */
export const ClientFrame = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('act'),
      id: json.optional(),
      action: json,
      idempotencyKey: z.string().min(1).max(128).optional(),
    })
    .strict(),
  z.object({ type: z.literal('ping'), id: json.optional() }).strict(),
  // moves this socket to another match (or another seat): a player's one connection across the
  // matches they play, as a kept HTTP connection is across requests
  z
    .object({
      type: z.literal('switch'),
      id: json.optional(),
      match: z.string().min(1).max(64),
      token: z.string().min(1).max(256).optional(),
      password: z.string().max(1024).optional(),
    })
    .strict(),
]);

// The two shapes every action arrives in, checked by hand on the hot path: a value the hand check
// takes is one the zod schema above accepts and gives back unchanged (zod rebuilds objects and drops
// `__proto__` keys, so values holding a prototype key are left to zod). Anything else goes to zod,
// which accepts or refuses it with its worded issues. test/server/schemas.test.ts compares the two.

type ActFrame = { type: 'act'; id?: Json; action: Json; idempotencyKey?: string };
type ActInput = { action: Json; idempotencyKey?: string };

const validKey = (k: unknown) => k === undefined || (typeof k === 'string' && k.length >= 1 && k.length <= 128);

function plainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Own keys all among `allowed` (zod's strict objects refuse any other). */
function onlyKeys(v: Record<string, unknown>, allowed: readonly string[]): boolean {
  for (const k of Object.keys(v)) if (!allowed.includes(k)) return false;
  return true;
}

const ACT_FRAME_KEYS = ['type', 'id', 'action', 'idempotencyKey'] as const;
const ACT_BODY_KEYS = ['action', 'idempotencyKey'] as const;

/** The checks an act frame and an action body share: a plain object with only `keys`, a JSON action, a valid key. */
function usualAction(v: unknown, keys: readonly string[]): v is Record<string, unknown> {
  return (
    plainObject(v) && v.action !== undefined && onlyKeys(v, keys) && isPlainJson(v.action) && validKey(v.idempotencyKey)
  );
}

/** A string whose length (in UTF-16 units, as zod counts) is within [min, max]. */
const sized = (v: unknown, min: number, max: number) => typeof v === 'string' && v.length >= min && v.length <= max;
/** Absent, or a whole number within [min, max] (zod's `.int().min().max()`). */
const wholeIn = (v: unknown, min: number, max: number) =>
  v === undefined || (Number.isInteger(v) && (v as number) >= min && (v as number) <= max);

const SWITCH_FRAME_KEYS = ['type', 'id', 'match', 'token', 'password'] as const;

/** A `switch` frame of the schema's shape (each kept seat socket sends one per match). */
function usualSwitch(v: unknown): boolean {
  return (
    plainObject(v) &&
    v.type === 'switch' &&
    onlyKeys(v, SWITCH_FRAME_KEYS) &&
    sized(v.match, 1, 64) &&
    (v.token === undefined || sized(v.token, 1, 256)) &&
    (v.password === undefined || sized(v.password, 0, 1024)) &&
    (v.id === undefined || isPlainJson(v.id)) &&
    findPrototypeKey(v) === null
  );
}

/** A parsed WebSocket message as a client frame (`ClientFrame.safeParse`, with fast paths for `act` and `switch`). */
export function parseClientFrame(msg: unknown): ReturnType<typeof ClientFrame.safeParse> {
  if (
    (usualAction(msg, ACT_FRAME_KEYS) &&
      msg.type === 'act' &&
      (msg.id === undefined || isPlainJson(msg.id)) &&
      findPrototypeKey(msg) === null) ||
    usualSwitch(msg)
  )
    return { success: true, data: msg as ActFrame } as ReturnType<typeof ClientFrame.safeParse>;
  return ClientFrame.safeParse(msg);
}

type JoinInput = { name: string; seat?: number };
type CreateInput = { ruleset: string; seed?: number };

/** A join body (`JoinBody.parse`, checked by hand when it has the schema's shape: every join of a match). */
export function parseJoinBody(body: unknown): JoinInput {
  if (plainObject(body) && onlyKeys(body, ['name', 'seat']) && sized(body.name, 1, 64) && wholeIn(body.seat, 0, 63))
    return body as JoinInput;
  return JoinBody.parse(body);
}

/**
 * A create body (`CreateBody.parse`): the usual one, a ruleset and maybe a seed, is checked by hand;
 * any other field (config, seats, watching, deadlines, line-ups) goes to zod.
 */
export function parseCreateBody(body: unknown): z.infer<typeof CreateBody> {
  if (
    plainObject(body) &&
    onlyKeys(body, ['ruleset', 'seed']) &&
    sized(body.ruleset, 1, 64) &&
    wholeIn(body.seed, 0, 2 ** 32 - 1)
  )
    return body as CreateInput;
  return CreateBody.parse(body);
}

/** A request body as an action submission (`ActBody.parse`, with a fast path for the usual body). */
export function parseActBody(body: unknown): ActInput {
  if (usualAction(body, ACT_BODY_KEYS) && findPrototypeKey(body) === null) return body as ActInput;
  return ActBody.parse(body);
}

/** `/api/health`: whether the store answered a query just now (and, PostgreSQL, hears other servers). */
const Health = z.object({
  ok: z.boolean(),
  store: z.enum(['sqlite', 'postgres']),
  storeOk: z.boolean(),
  matches: z.number().int(),
  listening: z.boolean().optional(),
  problem: z.string().optional(),
});

type Schema = Record<string, unknown>;

/**
 * JSON Schemas for one OpenAPI document. zod writes each schema on its own, with the definitions it
 * shares (the recursive JSON value) under that schema's own `$defs` and `$ref`s to `#/$defs/...`;
 * inside an OpenAPI document such a reference is read from the document's root, where there is no
 * `$defs`. So each schema's definitions move to `components.schemas` (one entry per distinct
 * definition) and its references are rewritten to point there.
 */
class SchemaSet {
  readonly components: Record<string, Schema> = {};
  private readonly names = new Map<string, string>();

  of(s: z.ZodType): Schema {
    const { $defs, $schema: _, ...rest } = z.toJSONSchema(s, { unrepresentable: 'any', io: 'input' }) as Schema;
    const local = new Map<string, string>();
    const defs = Object.entries(($defs ?? {}) as Record<string, Schema>);
    for (const [name, def] of defs) {
      const key = canonicalJson(def);
      let shared = this.names.get(key);
      if (!shared) {
        shared = `Def${this.names.size}`;
        this.names.set(key, shared);
      }
      local.set(name, shared);
    }
    for (const [name, def] of defs) this.components[local.get(name)!] ??= relink(def, local) as Schema;
    return relink(rest, local) as Schema;
  }

  /** A named schema in `components.schemas`, referred to by `$ref`. */
  named(name: string, s: z.ZodType): Schema {
    this.components[name] = this.of(s);
    return { $ref: `#/components/schemas/${name}` };
  }
}

function relink(v: unknown, local: Map<string, string>): unknown {
  if (Array.isArray(v)) return v.map((x) => relink(x, local));
  if (v === null || typeof v !== 'object') return v;
  const out: Schema = {};
  for (const [k, x] of Object.entries(v)) {
    const target =
      k === '$ref' && typeof x === 'string' && x.startsWith('#/$defs/') ? local.get(x.slice(8)) : undefined;
    out[k] = target ? `#/components/schemas/${target}` : relink(x, local);
  }
  return out;
}

/** The OpenAPI 3.1 document served at /api/openapi.json. */
export function openApi(): Record<string, unknown> {
  const set = new SchemaSet();
  const js = (s: z.ZodType) => set.of(s);
  const body = (s: z.ZodType) => ({ required: true, content: { 'application/json': { schema: js(s) } } });
  const ok = (s: z.ZodType, what: string) => ({
    description: what,
    content: { 'application/json': { schema: js(s) } },
  });
  const err = {
    description: 'a typed refusal (code as in the drive protocol)',
    content: { 'application/json': { schema: set.named('ErrorBody', ErrorBody) } },
  };
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  const auth = [{ seatToken: [] }];
  const spectate = [
    {
      name: 'password',
      in: 'query',
      required: false,
      schema: { type: 'string' },
      description: 'spectate password of a private match (or header x-spectate-password)',
    },
  ];
  const paths = {
    '/api/health': {
      get: {
        summary: 'liveness and the store: answered after a query reached it (503 when it did not)',
        responses: { 200: ok(Health, 'the server and its store answer'), 503: ok(Health, 'the store does not answer') },
      },
    },
    '/api/openapi.json': {
      get: {
        summary: 'this document',
        responses: { 200: { description: 'the OpenAPI 3.1 document', content: { 'application/json': {} } } },
      },
    },
    '/api/rulesets': {
      get: { summary: 'registered rulesets', responses: { 200: ok(z.array(RulesetSummary), 'rulesets') } },
    },
    '/api/rulesets/{id}': {
      get: {
        summary: 'one ruleset: catalog, config schema, defaults, agents, game type',
        parameters: [id],
        responses: { 200: ok(RulesetDetail, 'ruleset'), 404: err },
      },
    },
    '/api/rulesets/{id}/actions': {
      get: {
        summary: 'the JSON Schema of every action family (as `arbiter schema RULESET` prints it)',
        parameters: [id],
        responses: {
          200: ok(
            z.object({
              ruleset: z.string(),
              version: z.string(),
              actions: z.record(z.string(), z.record(z.string(), z.unknown())),
              sources: z.record(z.string(), z.enum(['template', 'declared', 'menus'])),
            }),
            'action schemas',
          ),
          404: err,
        },
      },
    },
    '/api/matches': {
      get: {
        summary: 'list matches',
        parameters: ['ruleset', 'status', 'limit', 'offset'].map((n) => ({
          name: n,
          in: 'query',
          required: false,
          schema: { type: 'string' },
        })),
        responses: { 200: ok(z.array(MatchRecord), 'matches'), 400: err },
      },
      post: {
        summary: 'create a match',
        requestBody: body(CreateBody),
        responses: { 201: ok(MatchRecord, 'the new match'), 400: err, 404: err },
      },
    },
    '/api/matches/{id}': {
      get: {
        summary: "a match's public record",
        parameters: [id],
        responses: { 200: ok(MatchRecord, 'match'), 404: err },
      },
    },
    '/api/matches/{id}/join': {
      post: {
        summary: 'take an open seat; the token is returned once',
        parameters: [id],
        requestBody: body(JoinBody),
        responses: { 201: ok(JoinResult, 'seat and token'), 404: err, 409: err },
      },
    },
    '/api/matches/{id}/view': {
      get: {
        summary: "the caller's view, pending and menu (a seat with its token, else a spectator)",
        parameters: [id, ...spectate],
        responses: { 200: ok(Snapshot, 'snapshot'), 401: err, 404: err },
      },
    },
    '/api/matches/{id}/pending': {
      get: {
        summary: 'who owes a decision (seat and kind)',
        parameters: [id, ...spectate],
        responses: {
          200: ok(z.object({ pending: z.array(pendingPublic), yours: z.array(z.record(z.string(), json)) }), 'pending'),
          401: err,
          404: err,
        },
      },
    },
    '/api/matches/{id}/menu': {
      get: {
        summary: "the caller's menu (empty when it owes nothing)",
        security: auth,
        parameters: [id],
        responses: { 200: ok(z.object({ seat: z.number(), menu: json }), 'menu'), 401: err, 404: err },
      },
    },
    '/api/matches/{id}/actions': {
      post: {
        summary: 'submit an action; answered only after it is stored',
        security: auth,
        parameters: [id, { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } }],
        requestBody: body(ActBody),
        responses: {
          200: ok(ActResult, 'accepted and stored'),
          400: err,
          401: err,
          404: err,
          409: err,
          422: err,
          429: err,
        },
      },
    },
    '/api/matches/{id}/leave': {
      post: {
        summary: 'give the seat back (the token stops working)',
        security: auth,
        parameters: [id],
        responses: { 200: ok(z.object({ seat: z.number() }), 'left'), 401: err },
      },
    },
    '/api/matches/{id}/log': {
      get: {
        summary: 'the JSON Lines match log (a running match: what a spectator may see)',
        parameters: [id, ...spectate],
        responses: { 200: { description: 'application/x-ndjson' }, 401: err, 404: err },
      },
    },
    '/api/matches/{id}/transcripts': {
      get: {
        summary: 'the seats of a match that have a transcript (models and programs played by this server)',
        parameters: [id, ...spectate],
        responses: { 200: ok(TranscriptSeats, 'seats'), 401: err, 404: err },
      },
    },
    '/api/matches/{id}/transcripts/{seat}': {
      get: {
        summary:
          "one seat's transcript (every decision attempt: prompt, answer, tokens); while the match runs only to live spectators of a match nobody contests",
        parameters: [
          id,
          { name: 'seat', in: 'path', required: true, schema: { type: 'integer', minimum: 0 } },
          { name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['json', 'text'] } },
          ...spectate,
        ],
        responses: {
          200: ok(Transcript, 'the transcript (text/plain with format=text)'),
          401: err,
          403: err,
          404: err,
        },
      },
    },
    '/api/lineups': {
      get: {
        summary: 'the line-ups a match creator may pick (shipped, and those the operator named with --lineup)',
        parameters: [{ name: 'ruleset', in: 'query', required: false, schema: { type: 'string' } }],
        responses: { 200: ok(z.array(OfferedLineup), 'line-ups'), 404: err },
      },
    },
    '/api/matches/{id}/ws': {
      get: {
        summary:
          'WebSocket: a `state` frame now and after every change, as the seat (?token=) or a spectator (?password= when private) may see it; send `act` frames to play',
        parameters: [id, { name: 'token', in: 'query', required: false, schema: { type: 'string' } }, ...spectate],
        responses: { 101: { description: 'switching protocols' }, 401: err, 404: err },
        // the frames each side sends, as named schemas
        'x-frames': {
          server: set.named('ServerFrame', ServerFrame),
          client: set.named('ClientFrame', ClientFrame),
        },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Arbiter match server',
      version: '1',
      description: 'Matches of any registered ruleset over HTTP and WebSocket. See docs/server.md.',
    },
    paths,
    components: {
      schemas: set.components,
      securitySchemes: {
        seatToken: { type: 'http', scheme: 'bearer', description: 'the seat token `join` returned (once)' },
      },
    },
  };
}
