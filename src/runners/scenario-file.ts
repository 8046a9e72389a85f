// Loading scenario files: YAML → checked Scenario, with schema errors mapped to line:column.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LineCounter, parseDocument, isMap, isSeq, type Node } from 'yaml';
import { z } from 'zod';
import { ArbiterError } from '../kernel/index.ts';

const expectSchema = z
  .object({
    state: z.record(z.string(), z.unknown()).optional(),
    view: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    events: z.array(z.unknown()).optional(),
    events_absent: z.array(z.unknown()).optional(),
    pending: z.array(z.unknown()).optional(),
    outcome: z.unknown().optional(),
    legal: z
      .record(
        z.string(),
        z.object({ includes: z.array(z.unknown()).optional(), excludes: z.array(z.unknown()).optional(), count: z.number().int().optional() }).strict(),
      )
      .optional(),
  })
  .strict();

const actStepSchema = z
  .object({
    seat: z.number().int().min(0),
    action: z.unknown(),
    reject: z.enum(['bad_request', 'illegal', 'out_of_turn', 'game_over']).optional(),
    reason: z.string().optional(),
    detail: z.unknown().optional(),
    events: z.array(z.unknown()).optional(),
    events_exact: z.boolean().optional(),
    note: z.string().optional(),
  })
  .strict();

const expectStepSchema = z.object({ expect: expectSchema, note: z.string().optional() }).strict();

export const scenarioSchema = z
  .object({
    id: z.string().min(1),
    ruleset: z.string().min(1),
    title: z.string().optional(),
    description: z.string().optional(),
    covers: z.array(z.string()).default([]),
    provisional: z.boolean().default(false),
    underdetermined: z.array(z.string()).default([]),
    setup: z
      .object({
        seed: z.number().int().min(0).max(0xffffffff).default(1),
        config: z.record(z.string(), z.unknown()).default({}),
        state: z.record(z.string(), z.unknown()).default({}),
      })
      .strict()
      .default({ seed: 1, config: {}, state: {} }),
    steps: z.array(z.union([actStepSchema, expectStepSchema])).default([]),
    expect: expectSchema.optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.provisional && s.underdetermined.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['underdetermined'], message: 'a provisional scenario must name the U-items it depends on' });
    }
    if (!s.provisional && s.covers.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['covers'], message: 'a scenario must cover at least one rule id (or be provisional)' });
    }
  });

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioExpect = z.infer<typeof expectSchema>;
export type ActStep = z.infer<typeof actStepSchema>;

export interface LoadedScenario {
  file: string;
  scenario: Scenario;
}

export function parseScenario(text: string, file: string): Scenario {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    throw new ArbiterError('bad_request', `${file}: YAML error: ${e.message.split('\n')[0]}`, { file });
  }
  const data = doc.toJS({ maxAliasCount: 100 });
  const parsed = scenarioSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // an unknown key is reported on its parent; point at the key itself
    const path = [...issue.path, ...(issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [])] as (string | number)[];
    const node = nodeAt(doc.contents as Node | null, path);
    const pos = node?.range ? lineCounter.linePos(node.range[0]) : null;
    const where = pos ? `${file}:${pos.line}:${pos.col}` : file;
    throw new ArbiterError('bad_request', `${where}: ${path.join('.') || '(top)'}: ${issue.message}`, { file, path: path.map(String) });
  }
  return parsed.data;
}

function nodeAt(root: Node | null, path: (string | number)[]): Node | null {
  let cur: Node | null = root;
  let last: Node | null = root;
  for (const key of path) {
    if (isMap(cur)) {
      const pair = cur.items.find((p) => (p.key as { value?: unknown })?.value === key);
      if (!pair) return last;
      cur = (pair.value as Node) ?? (pair.key as Node);
    } else if (isSeq(cur)) {
      cur = (cur.items[key as number] as Node) ?? null;
    } else return last;
    if (cur) last = cur;
  }
  return last;
}

/** Every *.yaml / *.yml under the given files or folders, sorted for a stable order. */
export function findScenarioFiles(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new ArbiterError('not_found', `no such file or folder: ${p}`);
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(join(p, name));
    } else if (/\.ya?ml$/.test(p)) out.push(p);
  };
  for (const p of paths) walk(p);
  return out;
}

export function loadScenarioFile(file: string, root = process.cwd()): LoadedScenario {
  const text = readFileSync(file, 'utf8');
  return { file: relative(root, file) || file, scenario: parseScenario(text, relative(root, file) || file) };
}
