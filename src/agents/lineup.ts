// Line-ups: a YAML file assigning each seat a model (provider, model, temperature, system prompt)
// or any other agent spec. Named line-ups ship in lineups/<ruleset>/<id>.yaml.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { ArbiterError } from '../kernel/index.ts';
import type { LlmSeat } from './llm/llm.ts';

const seatSchema = z
  .object({
    agent: z.string().min(1).optional().describe('any agent spec (random, cmd:..., http:...) instead of a model'),
    provider: z.enum(['openai', 'anthropic']).optional(),
    model: z.string().min(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
    system: z.string().optional(),
    base_url: z.string().optional(),
    api_key_env: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/)
      .optional()
      .describe('name of the environment variable holding the key'),
    max_tokens: z.number().int().min(1).max(32768).optional(),
  })
  .strict()
  .refine((s) => (s.agent !== undefined) !== (s.provider !== undefined && s.model !== undefined), {
    message: 'a seat names either agent, or provider and model',
  });

export const lineupSchema = z
  .object({
    id: z.string().min(1),
    ruleset: z.string().min(1),
    description: z.string().optional(),
    defaults: z
      .object({ temperature: z.number().min(0).max(2).optional(), system: z.string().optional() })
      .strict()
      .optional(),
    statements: z.array(z.string()).optional().describe('paragraphs stated in every prompt'),
    seats: z.array(seatSchema).min(1),
  })
  .strict();

export type Lineup = z.infer<typeof lineupSchema>;

/** A line-up seat resolved: an agent spec, or a model seat. */
export type LineupSeat = { spec: string } | { llm: LlmSeat };

function findLineupFile(nameOrPath: string, rulesetId: string, root = process.cwd()): string {
  if (existsSync(nameOrPath)) return nameOrPath;
  const named = join(root, 'lineups', rulesetId, `${nameOrPath}.yaml`);
  if (existsSync(named)) return named;
  throw new ArbiterError(
    'not_found',
    `no line-up "${nameOrPath}" (not a file, and not lineups/${rulesetId}/${nameOrPath}.yaml)`,
  );
}

function parseLineup(text: string, source = 'line-up'): Lineup {
  let raw: unknown;
  try {
    raw = parse(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new ArbiterError('bad_config', `${source}: not YAML (${(err as Error).message})`);
  }
  const r = lineupSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new ArbiterError('bad_config', `${source}: ${i.path.join('.') || '(root)'}: ${i.message}`);
  }
  return r.data;
}

export function loadLineup(nameOrPath: string, rulesetId: string): Lineup {
  const file = findLineupFile(nameOrPath, rulesetId);
  const lineup = parseLineup(readFileSync(file, 'utf8'), file);
  if (lineup.ruleset !== rulesetId)
    throw new ArbiterError('bad_config', `line-up ${lineup.id} is for ${lineup.ruleset}, not ${rulesetId}`);
  return lineup;
}

export function lineupSeats(lineup: Lineup, seats: number): LineupSeat[] {
  if (lineup.seats.length !== seats)
    throw new ArbiterError(
      'bad_config',
      `line-up ${lineup.id} names ${lineup.seats.length} seats; the match has ${seats}`,
    );
  return lineup.seats.map((s) => {
    if (s.agent) return { spec: s.agent };
    const llm: LlmSeat = { provider: s.provider!, model: s.model! };
    const temperature = s.temperature ?? lineup.defaults?.temperature;
    if (temperature !== undefined) llm.temperature = temperature;
    const system = s.system ?? lineup.defaults?.system;
    if (system !== undefined) llm.system = system;
    if (lineup.statements?.length) llm.statements = lineup.statements;
    if (s.base_url) llm.baseURL = s.base_url;
    if (s.api_key_env) llm.apiKey = process.env[s.api_key_env];
    if (s.max_tokens) llm.maxTokens = s.max_tokens;
    return { llm };
  });
}
