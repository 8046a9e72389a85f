// The one test of "does this value reveal that secret", shared by the conformance suite and the
// server's last guard on everything it sends: a secret is a whole subtree, or a string of six or
// more characters found as a substring (shorter strings and scalars are too common to test).

import { canonicalJson, type Json } from './json.ts';

/**
 * Members as canonical JSON writes them: an array's length (negative, so it never equals an
 * object's count) or an object's defined members. Two values of different sizes never have the same
 * canonical text, so only parts of the secret's size are written out and compared.
 */
function size(v: object): number {
  if (Array.isArray(v)) return -1 - v.length;
  let n = 0;
  for (const k in v) if ((v as Record<string, unknown>)[k] !== undefined) n++;
  return n;
}

export function containsSecret(value: unknown, secret: Json): boolean {
  return secretsIn(value, [secret]).length > 0;
}

/** The secrets `value` contains, each judged as `containsSecret` does; the value's text is written once. */
export function secretsIn(value: unknown, secrets: readonly Json[]): Json[] {
  let text: string | undefined;
  return secrets.filter((secret) => {
    if (typeof secret === 'string') {
      if (secret.length < 6) return false;
      text ??= canonicalJson(value);
      return text.includes(secret);
    }
    if (secret === null || typeof secret !== 'object') return false;
    const key = canonicalJson(secret);
    const want = size(secret);
    const walk = (v: unknown): boolean => {
      if (v === null || typeof v !== 'object') return false;
      if (size(v) === want && canonicalJson(v) === key) return true;
      return Array.isArray(v) ? v.some(walk) : Object.values(v as object).some(walk);
    };
    return walk(value);
  });
}
