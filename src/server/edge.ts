// Checks made at the edge before any handler reads a request or a frame: how deep its JSON nests,
// and whether an Authorization header is well formed. Both are cheap and iterative, so input built
// to exhaust the stack (JSON nested thousands deep) is refused before anything recursive walks it.

import { DomainError } from './errors.ts';

/** Deepest nesting of arrays and objects a body or frame may have (no ruleset's input comes near). */
const MAX_JSON_DEPTH = 64;

/** Whether a parsed JSON value nests deeper than `max` (iterative: no recursion on hostile input). */
function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v))
      if (x !== null && typeof x === 'object') stack.push([x, d + 1]);
  }
  return false;
}

/** The typed refusal of a value nested too deep. */
export function refuseDeep(value: unknown): void {
  if (deeperThan(value, MAX_JSON_DEPTH))
    throw new DomainError('too_deep', `JSON nested deeper than ${MAX_JSON_DEPTH} levels is refused`, {
      limit: MAX_JSON_DEPTH,
    });
}

/**
 * The bearer token of an Authorization header: undefined without the header, null when it is there
 * but not `Bearer TOKEN` (1 to 256 characters, no space). A malformed header is refused (401), never
 * read as "no token": that would quietly make its sender a spectator.
 */
export function parseAuthorization(h: unknown): string | undefined | null {
  if (h === undefined) return undefined;
  if (typeof h !== 'string') return null;
  const m = /^Bearer ([^\s]{1,256})$/i.exec(h.trim());
  return m ? m[1] : null;
}

export const MALFORMED_AUTH =
  'the Authorization header is malformed (expected "Bearer TOKEN", the token 1 to 256 characters without spaces)';
