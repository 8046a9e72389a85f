// A contract check either holds (null) or names the contract and the conjunct that failed.

import { cloneJson } from '../../../kernel/index.ts';

export interface Failure {
  contract: string;
  conjunct: string;
  detail?: string;
}

export type Verdict = Failure | null;

export function fail(contract: string, conjunct: string, detail?: string): Failure {
  return detail === undefined ? { contract, conjunct } : { contract, conjunct, detail };
}

export function describeFailure(f: Failure): string {
  return `${f.contract}: conjunct "${f.conjunct}" failed${f.detail ? ` (${f.detail})` : ''}`;
}

type Path = (string | number)[];
/** One EXCEPT update: a path into the record and the new value (or a function of the old one, "@"). */
export type Update = [Path, unknown | ((old: any) => unknown)];

/**
 * [rec EXCEPT !.a = x, !.b[i] = @ + 1]: a deep copy of `rec` with exactly the listed updates.
 * Everything not listed keeps its before-value, so comparing the whole result is the frame condition.
 */
export function except<T>(rec: T, ...updates: Update[]): T {
  const out = structuredCloneJson(rec) as any;
  for (const [path, value] of updates) {
    let cur = out;
    for (let i = 0; i < path.length - 1; i++) cur = cur[path[i]];
    const last = path[path.length - 1];
    cur[last] = typeof value === 'function' ? (value as (old: unknown) => unknown)(cur[last]) : structuredCloneJson(value);
  }
  return out as T;
}

function structuredCloneJson<T>(v: T): T {
  return cloneJson(v);
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
export function firstDifference(expected: unknown, actual: unknown, path = ''): string | null {
  if (same(expected, actual)) return null;
  if (expected !== null && actual !== null && typeof expected === 'object' && typeof actual === 'object' &&
      Array.isArray(expected) === Array.isArray(actual)) {
    const keys = new Set([...Object.keys(expected as object), ...Object.keys(actual as object)]);
    for (const k of [...keys].sort()) {
      const d = firstDifference((expected as any)[k], (actual as any)[k], path ? `${path}.${k}` : k);
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
