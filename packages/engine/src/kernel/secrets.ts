// The one test of "does this value reveal that secret", shared by the conformance suite and the
// server's last guard on everything it sends: a secret is a whole subtree, or a string of six or
// more characters found as a substring (shorter strings and scalars are too common to test).

import { canonicalJson, type Json } from './json.ts';

export function containsSecret(value: unknown, secret: Json): boolean {
  if (typeof secret === 'string') return secret.length >= 6 && canonicalJson(value).includes(secret);
  if (secret === null || typeof secret !== 'object') return false;
  const key = canonicalJson(secret);
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v !== 'object') return false;
    if (canonicalJson(v) === key) return true;
    return Array.isArray(v) ? v.some(walk) : Object.values(v as object).some(walk);
  };
  return walk(value);
}
