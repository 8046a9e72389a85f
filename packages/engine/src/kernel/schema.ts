// Declared schemas. A ruleset declares its config, every action family and its state once, with
// any schema library that implements the Standard Schema interface (https://standardschema.dev;
// zod 4 does, and also publishes draft 2020-12 JSON Schema through the same object). Everything
// else reads only what is here: issues with a path, and plain JSON Schema. The kernel names the
// interface and imports no schema library, so the engine package keeps no dependency of its own.

import { ArbiterError, type ErrorCode } from './errors.ts';
import type { JsonObject } from './json.ts';

type PathKey = PropertyKey | { readonly key: PropertyKey };

/** One problem a schema found: a message and where (object keys and array indexes). */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PathKey> | undefined;
}

type StandardResult =
  | { readonly value: unknown; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/** The part of the Standard Schema (and Standard JSON Schema) interface the engine uses. */
export interface DeclaredSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult | Promise<StandardResult>;
    readonly jsonSchema?: { readonly input: (options: { readonly target: string }) => Record<string, unknown> };
  };
}

/** A ruleset's declared schemas: the one source of its config checks and published JSON Schemas. */
export type RulesetSchemas = {
  /** The config as `setup` accepts it, limits included (what keeps setup, a view and a turn cheap). */
  config: DeclaredSchema;
  /** Every action family by its `type`: every menu element belongs to one of these. */
  actions: Readonly<Record<string, DeclaredSchema>>;
  /**
   * Families with free parameters (a text, an item list, any reachable cell): the menu shows one
   * filled-in example of each and publishes its template. The others are enumerated in full.
   */
  free?: readonly string[];
  /** The state, for checking hand-written states (scenario overrides) before they are played. */
  state?: DeclaredSchema;
};

export type SchemaIssue = { path: string; message: string };

function keyOf(k: PathKey): string {
  return String(typeof k === 'object' && k !== null ? k.key : k);
}

/** Problems of `value` under `schema`, each with a dotted path ('' for the root). Empty: it fits. */
export function schemaIssues(schema: DeclaredSchema, value: unknown): SchemaIssue[] {
  const r = schema['~standard'].validate(value);
  if (r instanceof Promise) throw new Error('a declared schema must validate synchronously');
  if (!r.issues) return [];
  return r.issues.map((i) => ({ path: (i.path ?? []).map(keyOf).join('.'), message: i.message }));
}

/**
 * The last flat config a schema accepted (own keys in order, primitive values) and what it parsed
 * to. setup parses its config once per game, and a fast random game is a few microseconds: the
 * schema library's parse of even `{ players: 2 }` was about 6% of the CPU of GROUND's fast random
 * games in a profile (`--cpu-prof` of `arbiter bench ground`). A declared schema is a pure function of its input, so the same flat input parses to the
 * same flat output and a repeat is answered from here (a fresh copy each time); anything nested,
 * or refused, always goes through the schema.
 */
type FlatMemo = { keys: string[]; vals: unknown[]; out: Record<string, unknown> };
const flatMemo = new WeakMap<DeclaredSchema, FlatMemo>();

function isPrimitive(v: unknown): boolean {
  return v === null || (typeof v !== 'object' && typeof v !== 'function');
}

function isPlain(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Whether `value` has exactly the memo's own keys, in order, with the same (primitive) values. */
function sameFlat(memo: FlatMemo, value: unknown): boolean {
  if (!isPlain(value)) return false;
  let i = 0;
  for (const k in value) {
    if (i >= memo.keys.length || memo.keys[i] !== k || !Object.hasOwn(value, k) || value[k] !== memo.vals[i])
      return false;
    i++;
  }
  return i === memo.keys.length;
}

function remember(schema: DeclaredSchema, value: unknown, out: unknown): void {
  if (!isPlain(value) || !isPlain(out)) return;
  const keys: string[] = [];
  const vals: unknown[] = [];
  for (const k in value) {
    const v = value[k];
    if (!Object.hasOwn(value, k) || !isPrimitive(v)) return;
    keys.push(k);
    vals.push(v);
  }
  for (const k in out) if (!Object.hasOwn(out, k) || !isPrimitive(out[k])) return;
  // a copy: the caller owns the object it is handed, and may change it
  flatMemo.set(schema, { keys, vals, out: { ...out } });
}

/**
 * `value` parsed by `schema` (defaults filled in by the schema, when it has any), or an
 * ArbiterError of `code` naming the first problem's path; the detail lists every problem.
 */
export function parseDeclared<T>(schema: DeclaredSchema, value: unknown, code: ErrorCode, what: string): T {
  const memo = flatMemo.get(schema);
  if (memo !== undefined && sameFlat(memo, value)) return { ...memo.out } as T;
  const r = schema['~standard'].validate(value);
  if (r instanceof Promise) throw new Error('a declared schema must validate synchronously');
  if (!r.issues) {
    remember(schema, value, r.value);
    return r.value as T;
  }
  const issues = r.issues.map((i) => ({ path: (i.path ?? []).map(keyOf).join('.'), message: i.message }));
  const first = issues[0];
  throw new ArbiterError(code, `${what}: ${first.path || '(root)'}: ${first.message}`, {
    path: first.path,
    issues: issues.slice(0, 10),
  });
}

const published = new WeakMap<DeclaredSchema, JsonObject>();

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/**
 * The draft 2020-12 JSON Schema a declared schema publishes (of the input it accepts), built once
 * and frozen: every caller shares it, so nobody may change it in place.
 */
export function publishedSchema(schema: DeclaredSchema): JsonObject {
  let out = published.get(schema);
  if (!out) {
    const make = schema['~standard'].jsonSchema;
    if (!make) throw new Error(`a ${schema['~standard'].vendor} schema that publishes no JSON Schema`);
    out = deepFreeze(JSON.parse(JSON.stringify(make.input({ target: 'draft-2020-12' }))) as JsonObject);
    published.set(schema, out);
  }
  return out;
}

/** The published JSON Schema of every declared action family, by family. */
export function publishedActions(schemas: RulesetSchemas): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const fam of Object.keys(schemas.actions).sort()) out[fam] = publishedSchema(schemas.actions[fam]);
  return out;
}
