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
 * `value` parsed by `schema` (defaults filled in by the schema, when it has any), or an
 * ArbiterError of `code` naming the first problem's path; the detail lists every problem.
 */
export function parseDeclared<T>(schema: DeclaredSchema, value: unknown, code: ErrorCode, what: string): T {
  const r = schema['~standard'].validate(value);
  if (r instanceof Promise) throw new Error('a declared schema must validate synchronously');
  if (!r.issues) return r.value as T;
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
