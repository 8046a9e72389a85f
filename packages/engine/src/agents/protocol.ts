// The agent protocol: the five messages every transport carries (in-process agents, `cmd:`
// programs, `http:` services, model adapters). Versioned; `arbiter schema agent-protocol` prints
// the JSON Schema of each message from the zod definitions below, so docs and code cannot drift.

import { z } from 'zod';
import type { Json, JsonObject } from '../kernel/index.ts';
import { DEFAULT_REASONS, type DefaultReason } from '../engine/log.ts';

export const PROTOCOL = 'arbiter-agent/1';

const json: z.ZodType<Json> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(json), z.record(z.string(), json)]),
);
const jsonObject = z.record(z.string(), json);

const rejection = z.object({
  code: z.string().describe('bad_request, illegal, out_of_turn, game_over ... (packages/engine/src/kernel/errors.ts)'),
  reason: z.string(),
  detail: json.optional(),
});

/** Why a decision fell back to the ruleset's default action: the log's one list (engine/log.ts). */
export const FAILURE_REASONS = DEFAULT_REASONS;
export type FailureReason = DefaultReason;

export const matchStartSchema = z
  .object({
    type: z.literal('match_start'),
    protocol: z.literal(PROTOCOL),
    ruleset: z.string(),
    version: z.string(),
    seat: z.number().int().min(0),
    seats: z.number().int().min(1),
    config: jsonObject,
    rules: z.string().describe('the rules text, generated from the ruleset catalog (same source as `arbiter rules`)'),
    default_action: z.string().nullable().describe('action type played for this seat when a decision fails'),
    deadline_ms: z.number().int().min(1),
  })
  .describe('engine → agent, once before the first decision');

export const decisionRequestSchema = z
  .object({
    type: z.literal('decision_request'),
    request: z.string().describe('unique in the match; the decision must echo it'),
    seat: z.number().int().min(0),
    kind: z.string().describe('what the seat owes ("turn", "move" ...)'),
    view: json.describe("the seat's own view; nothing hidden from it"),
    view_text: z.string().describe('the same view in plain words'),
    menu: z.object({
      actions: z.array(json).describe('complete actions accepted verbatim'),
      templates: z
        .array(z.object({ family: z.string(), schema: jsonObject, example: json, description: z.string().optional() }))
        .optional(),
    }),
    events: z.array(jsonObject).describe('events this seat saw since its last decision'),
    deadline_ms: z.number().int().min(1),
    attempt: z.number().int().min(1).max(2),
    previous: z
      .object({ reason: z.enum(FAILURE_REASONS), rejection: rejection.optional(), answer: z.string().optional() })
      .optional()
      .describe('on a retry: why the first answer failed'),
  })
  .describe('engine → agent, one per decision attempt');

export const decisionSchema = z
  .object({
    type: z.literal('decision').optional(),
    request: z.string(),
    action: json,
  })
  .describe('agent → engine: the answer to one decision_request');

export const decisionResultSchema = z
  .object({
    type: z.literal('decision_result'),
    request: z.string(),
    accepted: z.boolean(),
    rejection: rejection.optional(),
    defaulted: z.object({ reason: z.enum(FAILURE_REASONS), action: json }).optional(),
  })
  .describe('engine → agent: what became of the decision (a notice; no answer expected)');

export const matchEndSchema = z
  .object({
    type: z.literal('match_end'),
    outcome: json,
  })
  .describe('engine → agent, once; the agent may exit');

export type MatchStart = z.infer<typeof matchStartSchema>;
export type DecisionRequest = z.infer<typeof decisionRequestSchema>;
export type DecisionResult = z.infer<typeof decisionResultSchema>;
export type MatchEnd = z.infer<typeof matchEndSchema>;

/** The JSON Schema document `arbiter schema agent-protocol` prints. */
export function protocolSchemas(): JsonObject {
  const one = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input' }) as JsonObject;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `Arbiter agent protocol ${PROTOCOL}`,
    protocol: PROTOCOL,
    messages: {
      match_start: one(matchStartSchema),
      decision_request: one(decisionRequestSchema),
      decision: one(decisionSchema),
      decision_result: one(decisionResultSchema),
      match_end: one(matchEndSchema),
    },
  };
}
