// Edition data (Scenario cards, Solution cards, thresholds) is data, not code: the sample edition
// ships as JSON beside this file, and `--edition PATH` can hand in another. This module checks an
// edition's shape and the counts the rules fix, and refuses a bad one with a clear bad_config.

import { z } from 'zod';
import { ArbiterError } from '../../kernel/index.ts';
import { SUITS } from './state.ts';
import sampleEdition from './editions/sample-0.1.json' with { type: 'json' };

const suit = z.enum(SUITS);
const text = z.string().min(1).max(200);

const problemCard = z.strictObject({ id: text, name: text, suit, value: z.int().min(1).max(20) });
const hiddenCard = z.strictObject({
  id: text,
  name: text,
  suit,
  value: z.int().min(1).max(20),
  priority: z.int().min(1).max(4),
});
const thresholds = z.strictObject({
  '2': z.int().min(0).max(200),
  '3': z.int().min(0).max(200),
  '4': z.int().min(0).max(200),
  '5': z.int().min(0).max(200),
  '6': z.int().min(0).max(200),
});

export const editionSchema = z.strictObject({
  id: text,
  title: text,
  sample: z.boolean().optional(),
  note: z.string().max(2000).optional(),
  scenarios: z
    .array(
      z.strictObject({
        id: text,
        name: text,
        thresholds,
        surface: problemCard,
        hidden: z.array(hiddenCard).min(1).max(20),
      }),
    )
    .min(1)
    .max(50),
  solutions: z.array(z.strictObject({ id: text, suit, name: text })).length(24),
});

export type Edition = z.infer<typeof editionSchema>;
export type ScenarioCard = Edition['scenarios'][number];

/** Check an edition; throws ArbiterError('bad_config') naming every problem found. */
export function parseEdition(input: unknown, source = 'edition'): Edition {
  const res = editionSchema.safeParse(input);
  if (!res.success) {
    const issues = res.error.issues.slice(0, 8).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ArbiterError('bad_config', `${source} is not a valid GROUND edition: ${issues.join('; ')}`, { issues });
  }
  const ed = res.data;
  const problems: string[] = [];
  // GR-S04: the core deck is 24 Solutions, 6 of each suit
  for (const s of SUITS) {
    const k = ed.solutions.filter((c) => c.suit === s).length;
    if (k !== 6) problems.push(`solutions: ${k} ${s} cards, the core deck has 6 per suit`);
  }
  unique(
    ed.solutions.map((c) => c.id),
    'solution id',
    problems,
  );
  unique(
    ed.scenarios.map((c) => c.id),
    'scenario id',
    problems,
  );
  for (const sc of ed.scenarios) {
    unique([sc.surface.id, ...sc.hidden.map((h) => h.id)], `problem id in scenario ${sc.id}`, problems);
  }
  if (problems.length > 0) {
    throw new ArbiterError('bad_config', `${source} is not a valid GROUND edition: ${problems.join('; ')}`, {
      issues: problems,
    });
  }
  return ed;
}

function unique(ids: string[], what: string, problems: string[]): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) problems.push(`duplicate ${what} "${id}"`);
    seen.add(id);
  }
}

/** Highest hidden priority in play for a player count (GR-S01). */
export function maxPriority(players: number): number {
  return players <= 2 ? 2 : players <= 4 ? 3 : 4;
}

/** Total printed value of the Problems a Scenario puts in play at a player count. */
export function valueInPlay(sc: ScenarioCard, players: number): number {
  const cap = maxPriority(players);
  return sc.surface.value + sc.hidden.filter((h) => h.priority <= cap).reduce((a, h) => a + h.value, 0);
}

/** The shipped SAMPLE edition, checked once at module load. */
export const SAMPLE_EDITION: Edition = parseEdition(sampleEdition, 'sample edition');

// editions handed in through config are checked once per object, not once per game
const checked = new WeakMap<object, Edition>();

export function resolveEdition(input: unknown): Edition {
  if (input === undefined || input === null) return SAMPLE_EDITION;
  if (typeof input !== 'object')
    throw new ArbiterError('bad_config', 'edition must be an edition object (the CLI reads it from --edition PATH)');
  let ed = checked.get(input);
  if (!ed) {
    ed = parseEdition(input);
    checked.set(input, ed);
  }
  return ed;
}
