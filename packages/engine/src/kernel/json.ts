// Plain JSON values and the few operations the engine needs on them: canonical text (sorted keys),
// deep clone and deep equality. State, events, actions and views are all Json.

import { ArbiterError, type ErrorCode } from './errors.ts';

import type { Json } from './json-types.ts';

export type { Json, JsonObject } from './json-types.ts';

/** Canonical JSON: object keys sorted by code unit, no whitespace, `undefined` members dropped. */
export function canonicalJson(value: unknown): string {
  return write(value);
}

function write(v: unknown): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError(`non-finite number ${v} is not JSON`);
      return Object.is(v, -0) ? '0' : String(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) {
          if (i) out += ',';
          out += v[i] === undefined ? 'null' : write(v[i]);
        }
        return out + ']';
      }
      const obj = v as Record<string, unknown>;
      const keys = sortedKeys(obj);
      let out = '{';
      let first = true;
      for (const k of keys) {
        const x = obj[k];
        if (x === undefined) continue;
        if (!first) out += ',';
        first = false;
        out += JSON.stringify(k) + ':' + write(x);
      }
      return out + '}';
    }
    default:
      throw new TypeError(`value of type ${typeof v} is not JSON`);
  }
}

/**
 * An object's own keys in code-unit order (the order of `Object.keys(o).sort()`). Most objects the
 * engine writes already list their keys in that order, and those are not sorted again: a sort
 * allocates its own work copy, once per object of every event, input and state that is hashed.
 */
export function sortedKeys(o: object): string[] {
  const keys = Object.keys(o);
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) return keys.sort();
  return keys;
}

/** Deep copy of a JSON value (faster than structuredClone for small plain objects). */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const n = value.length;
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = cloneJson(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const k in value as Record<string, unknown>) {
    out[k] = cloneJson((value as Record<string, unknown>)[k]);
  }
  return out as T;
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  if (ak.length !== bk.length) return false;
  for (const k of ak) if (!jsonEqual(ao[k], bo[k])) return false;
  return true;
}

/** True when `v` is a JSON value made of plain objects, arrays and finite numbers only. */
export function isPlainJson(v: unknown, depth = 0): v is Json {
  if (depth > 200) return false;
  if (v === null) return true;
  const t = typeof v;
  if (t === 'string' || t === 'boolean') return true;
  if (t === 'number') return Number.isFinite(v as number);
  if (t !== 'object') return false;
  // plain loops: this runs on every action a server receives, and every() and Object.values()
  // allocate a closure and an array per object
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!isPlainJson(v[i], depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  const o = v as Record<string, unknown>;
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    const x = o[k];
    if (x !== undefined && !isPlainJson(x, depth + 1)) return false;
  }
  return true;
}

/** Keys that reach an object's prototype when assigned; refused in every input the engine reads. */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function isPrototypeKey(key: string): boolean {
  return PROTOTYPE_KEYS.has(key);
}

/** What `findInJson` looks for: a key, and a value that is not an array or object. */
export type JsonProbe = { key?: (key: string) => boolean; leaf?: (value: unknown) => boolean };

/**
 * The path ("a.b[2].c") of the first key or leaf value in a parsed value that `probe` picks, or null.
 * JSON.parse makes `__proto__` an own property, so walking own keys finds it before anything copies
 * the value. Deeper than 1000 levels is not searched.
 */
export function findInJson(v: unknown, probe: JsonProbe, path = '', depth = 0): string | null {
  if (v === null || typeof v !== 'object') return probe.leaf?.(v) ? path || '(the value)' : null;
  if (depth > 1000) return null;
  // a member's path is written only when it is a hit or holds more to search (no string per leaf)
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x === null || typeof x !== 'object') {
        if (probe.leaf?.(x)) return `${path}[${i}]`;
        continue;
      }
      const hit = findInJson(x, probe, `${path}[${i}]`, depth + 1);
      if (hit !== null) return hit;
    }
    return null;
  }
  for (const k of Object.keys(v)) {
    if (probe.key?.(k)) return path ? `${path}.${k}` : k;
    const x = (v as Record<string, unknown>)[k];
    if (x === null || typeof x !== 'object') {
      if (probe.leaf?.(x)) return path ? `${path}.${k}` : k;
      continue;
    }
    const hit = findInJson(x, probe, path ? `${path}.${k}` : k, depth + 1);
    if (hit !== null) return hit;
  }
  return null;
}

const PROTOTYPE_KEY: JsonProbe = { key: (k) => PROTOTYPE_KEYS.has(k) };
const NON_FINITE: JsonProbe = { leaf: (x) => typeof x === 'number' && !Number.isFinite(x) };

/** The path ("a.b[2].__proto__") of the first prototype key in a parsed value, or null. */
export function findPrototypeKey(v: unknown): string | null {
  return findInJson(v, PROTOTYPE_KEY);
}

/** The path of the first number JSON cannot hold (1e999 parses as Infinity), or null. */
export function findNonFiniteNumber(v: unknown): string | null {
  return findInJson(v, NON_FINITE);
}

/** Throw a typed error when `v` holds a prototype key anywhere; `where` names the input. */
export function assertNoPrototypeKeys(v: unknown, where: string, code: ErrorCode = 'bad_request'): void {
  const hit = findPrototypeKey(v);
  if (hit !== null)
    throw new ArbiterError(
      code,
      `${where}: the key "${hit}" is not allowed (__proto__, constructor and prototype are refused everywhere)`,
      { path: hit },
    );
}

/** Read a dotted path ("players.0.stress") out of a JSON value; undefined when absent. */
export function getPath(root: unknown, path: string): unknown {
  if (path === '' || path === '.') return root;
  let cur: unknown = root;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    // an inherited member is never part of a JSON value
    if (PROTOTYPE_KEYS.has(part) || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}
