// Loading scenario files: YAML → checked Scenario, with schema errors mapped to line:column.

import { closeSync, fstatSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LineCounter, parseDocument, isMap, isSeq, visit, type Node } from 'yaml';
import { z } from 'zod';
import { ArbiterError, findPrototypeKey, isPlainJson, isPrototypeKey } from '@arbiter/engine/kernel';

/** A scenario file is a few kilobytes; anything over this is refused before it is parsed. */
const MAX_SCENARIO_BYTES = 1024 * 1024;

/** Explicit tags a scenario may use: YAML's core JSON-like types. Any other tag is refused. */
const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`));

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
        z
          .object({
            includes: z.array(z.unknown()).optional(),
            excludes: z.array(z.unknown()).optional(),
            count: z.number().int().optional(),
          })
          .strict(),
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
      ctx.addIssue({
        code: 'custom',
        path: ['underdetermined'],
        message: 'a provisional scenario must name the U-items it depends on',
      });
    }
    if (!s.provisional && s.covers.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['covers'],
        message: 'a scenario must cover at least one rule id (or be provisional)',
      });
    }
  });

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioExpect = z.infer<typeof expectSchema>;

export interface LoadedScenario {
  file: string;
  scenario: Scenario;
}

export function parseScenario(text: string, file: string): Scenario {
  if (text.length > MAX_SCENARIO_BYTES)
    throw new ArbiterError(
      'too_large',
      `${file}: ${text.length} characters, over the scenario limit of ${MAX_SCENARIO_BYTES}`,
      { file },
    );
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true, schema: 'core' });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) {
    // warnings included: an unknown tag is only a warning to the parser, and would be read as a plain string
    throw new ArbiterError('bad_request', `${file}: YAML error: ${problem.message.split('\n')[0]}`, { file });
  }
  let badTag: { tag: string; at: number } | null = null;
  visit(doc, (_key, node) => {
    const n = node as Node;
    if (n && typeof n === 'object' && 'tag' in n && typeof n.tag === 'string' && !CORE_TAGS.has(n.tag)) {
      badTag = { tag: n.tag, at: n.range?.[0] ?? 0 };
      return visit.BREAK;
    }
    return undefined;
  });
  if (badTag) {
    const { tag, at } = badTag as { tag: string; at: number };
    const pos = lineCounter.linePos(at);
    throw new ArbiterError(
      'bad_request',
      `${file}:${pos.line}:${pos.col}: the tag ${tag} is not allowed (scenarios use plain YAML: maps, lists, strings, numbers, booleans, null)`,
      { file, tag },
    );
  }
  const data: unknown = doc.toJS({ maxAliasCount: 100 });
  const proto = findPrototypeKey(data);
  if (proto !== null)
    throw new ArbiterError(
      'bad_request',
      `${file}: the key "${proto}" is not allowed (__proto__, constructor and prototype are refused)`,
      { file, path: proto },
    );
  if (!isPlainJson(data))
    throw new ArbiterError(
      'bad_request',
      `${file}: only plain data is allowed (no binary, sets or numbers too large for JSON)`,
      { file },
    );
  for (const [where, paths] of statePaths(data)) {
    for (const path of paths) {
      const part = path.split('.').find(isPrototypeKey);
      if (part !== undefined)
        throw new ArbiterError('bad_request', `${file}: ${where} path "${path}": the key "${part}" is not allowed`, {
          file,
          path,
        });
    }
  }
  const parsed = scenarioSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // an unknown key is reported on its parent; point at the key itself
    const path = [...issue.path, ...(issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [])] as (
      | string
      | number
    )[];
    const node = nodeAt(doc.contents as Node | null, path);
    const pos = node?.range ? lineCounter.linePos(node.range[0]) : null;
    const where = pos ? `${file}:${pos.line}:${pos.col}` : file;
    throw new ArbiterError('bad_request', `${where}: ${path.join('.') || '(top)'}: ${issue.message}`, {
      file,
      path: path.map(String),
    });
  }
  return parsed.data;
}

/** The dotted state paths a scenario names (setup.state, expect.state, and each step's expect.state). */
function statePaths(data: unknown): [string, string[]][] {
  const keys = (v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : []);
  const get = (v: unknown, k: string) =>
    v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  const out: [string, string[]][] = [
    ['setup.state', keys(get(get(data, 'setup'), 'state'))],
    ['expect.state', keys(get(get(data, 'expect'), 'state'))],
  ];
  const steps = get(data, 'steps');
  if (Array.isArray(steps))
    steps.forEach((st, i) => out.push([`steps[${i}].expect.state`, keys(get(get(st, 'expect'), 'state'))]));
  return out;
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

/** Read a file, refusing one over `max` bytes before reading it. */
function readLimited(file: string, max: number): string {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > max)
      throw new ArbiterError('too_large', `${file}: ${size} bytes, over the scenario limit of ${max}`, {
        file,
        bytes: size,
        max,
      });
    const buf = Buffer.alloc(Math.min(size, max) + 1);
    let n = 0;
    for (let got = 1; got > 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    if (n > max) throw new ArbiterError('too_large', `${file}: over the scenario limit of ${max} bytes`, { file, max });
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

export function loadScenarioFile(file: string, root = process.cwd()): LoadedScenario {
  const text = readLimited(file, MAX_SCENARIO_BYTES);
  return { file: relative(root, file) || file, scenario: parseScenario(text, relative(root, file) || file) };
}
