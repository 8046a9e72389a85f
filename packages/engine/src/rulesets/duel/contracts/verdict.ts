// A contract check either holds (null) or names the contract and the conjunct that failed.

import { cloneJson } from '../../../kernel/index.ts';

export type Failure = {
  contract: string;
  conjunct: string;
  detail?: string;
};

export type Verdict = Failure | null;

export function fail(contract: string, conjunct: string, detail?: string): Failure {
  return detail === undefined ? { contract, conjunct } : { contract, conjunct, detail };
}

export function describeFailure(f: Failure): string {
  return `${f.contract}: conjunct "${f.conjunct}" failed${f.detail ? ` (${f.detail})` : ''}`;
}

type Path = (string | number)[];
/** One EXCEPT update: a path into the record and the new value (or a function of the old one, "@"). */
type Update = [Path, unknown];

/**
 * [rec EXCEPT !.a = x, !.b[i] = @ + 1]: a deep copy of `rec` with exactly the listed updates.
 * Everything not listed keeps its before-value, so comparing the whole result is the frame condition.
 */
export function except<T>(rec: T, ...updates: Update[]): T {
  const out = cloneJson(rec);
  for (const [path, value] of updates) {
    let cur: unknown = out;
    for (let i = 0; i < path.length - 1; i++) cur = member(cur, path[i]);
    if (cur === null || typeof cur !== 'object') throw new Error(`except: no record at ${path.join('.')}`);
    const last = path[path.length - 1];
    Reflect.set(cur, last, typeof value === 'function' ? value(Reflect.get(cur, last)) : cloneJson(value));
  }
  return out;
}

/** `v[k]` of a JSON value (undefined when `v` is not a record or list). */
function member(v: unknown, k: string | number): unknown {
  return v !== null && typeof v === 'object' ? Reflect.get(v, k) : undefined;
}

/** Deep equality of JSON values without allocating (the checkers call it on every micro-step). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let n = 0;
  for (const k in ao) {
    if (ao[k] === undefined) continue;
    n++;
    if (!same(ao[k], bo[k])) return false;
  }
  for (const k in bo) if (bo[k] !== undefined) n--;
  return n === 0;
}

/** The first path where two JSON values differ, or null when they are equal. */
function firstDifference(expected: unknown, actual: unknown, path = ''): string | null {
  if (same(expected, actual)) return null;
  if (
    expected !== null &&
    actual !== null &&
    typeof expected === 'object' &&
    typeof actual === 'object' &&
    Array.isArray(expected) === Array.isArray(actual)
  ) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const k of [...keys].sort()) {
      const d = firstDifference(member(expected, k), member(actual, k), path ? `${path}.${k}` : k);
      if (d !== null) return d;
    }
  }
  return `${path || '(whole record)'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

/** The frame conjunct `after = expected`, compared whole. */
export function frameEquals(contract: string, conjunct: string, expected: unknown, actual: unknown): Verdict {
  const d = firstDifference(expected, actual);
  return d === null ? null : fail(contract, conjunct, d);
}
