// Line-ups: a YAML file assigning each seat a model (provider, model, temperature, system prompt)
// or any other agent spec, with the user's price table. Named line-ups ship inside the package in
// lineups/<ruleset>/<id>.yaml; `--lineup ID` finds a shipped id first and a path second.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
import { ArbiterError, type RulesetPackage } from '@arbiter/engine/kernel';
import { rulesText, type SeatHeader } from '@arbiter/engine/match';
import { type LlmSeat, promptHash, systemPrompt } from './llm/llm.ts';
import { PROVIDERS } from './llm/providers.ts';

const price = z
  .object({
    input: z.number().min(0),
    output: z.number().min(0),
    cached_input: z.number().min(0).optional(),
    cache_write: z.number().min(0).optional(),
  })
  .strict()
  .describe('US dollars per million tokens');

const seatSchema = z
  .object({
    agent: z.string().min(1).optional().describe('any agent spec (random, cmd:..., http:...) instead of a model'),
    provider: z.enum(PROVIDERS).optional(),
    model: z.string().min(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
    system: z.string().optional(),
    base_url: z.string().optional(),
    api_key_env: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/)
      .optional()
      .describe('name of the environment variable holding the key'),
    max_tokens: z.number().int().min(1).max(65536).optional(),
    reasoning: z
      .boolean()
      .optional()
      .describe('a reasoning model: max_completion_tokens instead of max_tokens, no temperature'),
  })
  .strict()
  .refine((s) => (s.agent !== undefined) !== (s.provider !== undefined && s.model !== undefined), {
    message: 'a seat names either agent, or provider and model',
  });

export const lineupSchema = z
  .object({
    id: z.string().min(1),
    version: z.union([z.string().min(1), z.number()]).optional(),
    ruleset: z.string().min(1),
    description: z.string().optional(),
    defaults: z
      .object({ temperature: z.number().min(0).max(2).optional(), system: z.string().optional() })
      .strict()
      .optional(),
    statements: z.array(z.string()).optional().describe('paragraphs stated in every prompt'),
    prices: z.record(z.string(), price).optional().describe("per model name: the user's own prices"),
    seats: z.array(seatSchema).min(1),
  })
  .strict();

export type Lineup = z.infer<typeof lineupSchema>;

/** A line-up seat resolved: an agent spec, or a model seat. */
export type LineupSeat = { spec: string } | { llm: LlmSeat };

/** The package's own lineups/ folder, found from this module (src/agents or a bundle in dist/). */
function shippedLineupsDir(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, 'lineups');
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return null;
}

/** Shipped line-ups: ruleset, id and file of each. */
export function shippedLineups(): { ruleset: string; id: string; file: string }[] {
  const root = shippedLineupsDir();
  if (!root) return [];
  const out: { ruleset: string; id: string; file: string }[] = [];
  for (const ruleset of readdirSync(root).sort())
    for (const f of readdirSync(join(root, ruleset)).sort())
      if (f.endsWith('.yaml')) out.push({ ruleset, id: f.slice(0, -5), file: join(root, ruleset, f) });
  return out;
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function findLineupFile(nameOrPath: string, rulesetId: string): string {
  // a shipped id first (wherever the command runs), a path second
  const root = shippedLineupsDir();
  if (root && SAFE_ID.test(nameOrPath)) {
    const shipped = join(root, rulesetId, `${nameOrPath}.yaml`);
    if (existsSync(shipped)) return shipped;
  }
  if (existsSync(nameOrPath)) return nameOrPath;
  const ids = shippedLineups()
    .filter((l) => l.ruleset === rulesetId)
    .map((l) => l.id);
  throw new ArbiterError(
    'not_found',
    `no line-up "${nameOrPath}": not a shipped ${rulesetId} line-up (${ids.join(', ') || 'none'}; \`arbiter lineups\` lists them) and not a file`,
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

export function loadLineup(nameOrPath: string, rulesetId: string): Lineup;
export function loadLineup(nameOrPath: string, rulesetId: string, withText: true): { lineup: Lineup; text: string };
export function loadLineup(
  nameOrPath: string,
  rulesetId: string,
  withText?: boolean,
): Lineup | { lineup: Lineup; text: string } {
  const file = findLineupFile(nameOrPath, rulesetId);
  const text = readFileSync(file, 'utf8');
  const lineup = parseLineup(text, file);
  if (lineup.ruleset !== rulesetId)
    throw new ArbiterError('bad_config', `line-up ${lineup.id} is for ${lineup.ruleset}, not ${rulesetId}`);
  return withText ? { lineup, text } : lineup;
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
    if (temperature !== undefined && !s.reasoning) llm.temperature = temperature;
    const system = s.system ?? lineup.defaults?.system;
    if (system !== undefined) llm.system = system;
    if (lineup.statements?.length) llm.statements = lineup.statements;
    if (s.base_url) llm.baseURL = s.base_url;
    // the variable's name only: the transport reads it (an unset one is an error, never a fallback)
    if (s.api_key_env) llm.apiKeyEnv = s.api_key_env;
    if (s.max_tokens) llm.maxTokens = s.max_tokens;
    if (s.reasoning) llm.reasoning = true;
    const p = lineup.prices?.[llm.model];
    if (p) llm.price = p;
    return { llm };
  });
}

/** The version a log header records: the file's own, or a hash of its text when it names none. */
export function lineupVersion(lineup: Lineup, text: string): string {
  return lineup.version !== undefined ? String(lineup.version) : `sha:${promptHash(text)}`;
}

/**
 * The log header's `seats`: each seat's agent spec, and for a model seat its provider, model,
 * temperature and the hash of the whole system prompt it reads. `play` and `serve` write the same.
 */
export function seatHeaders(pkg: RulesetPackage, seated: ({ llm: LlmSeat } | { agent: string })[]): SeatHeader[] {
  const rs = pkg.ruleset;
  const rules = rulesText(rs, pkg);
  return seated.map((s, seat): SeatHeader => {
    if ('agent' in s) return { agent: s.agent };
    const cfg = s.llm;
    const system = systemPrompt(cfg, {
      ruleset: rs.id,
      version: rs.version,
      seat,
      seats: seated.length,
      rules,
      default_action: pkg.gameType.defaultAction ?? null,
    });
    return {
      agent: `llm:${cfg.provider}:${cfg.model}`,
      provider: cfg.provider,
      model: cfg.model,
      temperature: cfg.reasoning ? null : (cfg.temperature ?? 0),
      system_hash: promptHash(system),
    };
  });
}

/**
 * A line-up named without its ruleset (`arbiter serve --lineup ID|FILE`): a shipped id of any
 * ruleset first, a file second (its own `ruleset` field says which).
 */
export function loadAnyLineup(nameOrPath: string): { lineup: Lineup; text: string } {
  const shipped = SAFE_ID.test(nameOrPath) ? shippedLineups().find((l) => l.id === nameOrPath) : undefined;
  if (shipped) return loadLineup(nameOrPath, shipped.ruleset, true);
  if (!existsSync(nameOrPath))
    throw new ArbiterError(
      'not_found',
      `no line-up "${nameOrPath}": not a shipped line-up (${shippedLineups()
        .map((l) => l.id)
        .join(', ')}; \`arbiter lineups\` lists them) and not a file`,
    );
  const text = readFileSync(nameOrPath, 'utf8');
  return { lineup: parseLineup(text, nameOrPath), text };
}
