// Text holding U+0000: PostgreSQL stores no NUL character in text or JSONB, and no client means
// one, so the server refuses it from clients and agents alike, whatever the store.

import { ArbiterError, findInJson, type Json, type JsonProbe } from '@arbiter/engine/kernel';

const NUL_TEXT: JsonProbe = {
  key: (k) => k.includes('\0'),
  leaf: (x) => typeof x === 'string' && x.includes('\0'),
};

/** The path of the first string or key holding U+0000, or null. */
export function findNul(v: unknown): string | null {
  return findInJson(v, NUL_TEXT);
}

/** The refusal of text holding U+0000 (an agent's answer gets its seat's default instead). */
export const NUL_REFUSAL = { code: 'bad_request', reason: 'text may not hold the NUL character (U+0000)' } as const;

/**
 * A copy of a diagnostic record (what a failing agent sent) with each U+0000 made U+FFFD, so the
 * record of a default can always be stored. Never applied to what is replayed.
 */
export function scrubNul(v: Json): Json {
  if (typeof v === 'string') return v.includes('\0') ? v.replaceAll('\0', '\uFFFD') : v;
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(scrubNul);
  const out: { [k: string]: Json } = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[scrubNul(k) as string] = scrubNul(x);
  return out;
}

/** A request body or frame with a NUL character in its text, refused with where it is. */
export function refuseNul(v: unknown): void {
  const at = findNul(v);
  if (at !== null)
    throw new ArbiterError('bad_request', `text may not hold the NUL character (U+0000); found at ${at}`, { path: at });
}
