// Partial matching for scenario expectations: an expected object names only the keys it cares
// about; arrays match element by element; scalars by equality. Returns the first mismatch.

import { canonicalJson } from '@arbiter/engine/kernel';

export interface Mismatch {
  path: string;
  expected: unknown;
  actual: unknown;
}

const ABSENT = '$absent';

export function partialMatch(expected: unknown, actual: unknown, path = ''): Mismatch | null {
  if (expected === ABSENT) return actual === undefined ? null : { path, expected: '(absent)', actual };
  if (expected === null || typeof expected !== 'object') {
    return expected === actual ? null : { path, expected, actual };
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return { path, expected, actual };
    if (expected.length !== actual.length)
      return { path: path + '.length', expected: expected.length, actual: actual.length };
    for (let i = 0; i < expected.length; i++) {
      const m = partialMatch(expected[i], actual[i], `${path}[${i}]`);
      if (m) return m;
    }
    return null;
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return { path, expected, actual };
  for (const [k, v] of Object.entries(expected as Record<string, unknown>)) {
    const m = partialMatch(v, (actual as Record<string, unknown>)[k], path ? `${path}.${k}` : k);
    if (m) return m;
  }
  return null;
}

export function matches(expected: unknown, actual: unknown): boolean {
  return partialMatch(expected, actual) === null;
}

/** Index of each expected item, found in order (gaps allowed); -1 at the first one missing. */
export function findSubsequence(
  expected: readonly unknown[],
  actual: readonly unknown[],
): { ok: boolean; missing: number } {
  let j = 0;
  for (let i = 0; i < expected.length; i++) {
    while (j < actual.length && !matches(expected[i], actual[j])) j++;
    if (j >= actual.length) return { ok: false, missing: i };
    j++;
  }
  return { ok: true, missing: -1 };
}

export function show(v: unknown): string {
  if (v === undefined) return '(absent)';
  try {
    const s = canonicalJson(v);
    return s.length > 400 ? s.slice(0, 400) + '…' : s;
  } catch {
    return String(v);
  }
}
