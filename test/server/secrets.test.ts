// The server's last guard: leaksAny must judge exactly as the kernel's containsSecret, secret by
// secret, however it walks the value.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalJson, containsSecret, type Json } from '../../src/kernel/index.ts';
import { leaksAny } from '../../src/server/secrets.ts';

/** Every object and array inside `v` (itself included), so some secrets are really in it. */
function parts(v: Json, out: Json[] = []): Json[] {
  if (v !== null && typeof v === 'object') {
    out.push(v);
    for (const x of Array.isArray(v) ? v : Object.values(v)) parts(x, out);
  } else if (typeof v === 'string') out.push(v);
  return out;
}

test('[SRV-SECRETS] leaksAny agrees with containsSecret on random values, parts of them and strangers', () => {
  fc.assert(
    fc.property(
      fc.jsonValue({ maxDepth: 4 }),
      fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
      fc.array(fc.nat(), { maxLength: 4 }),
      (value, strangers, picks) => {
        const all = parts(value as Json);
        const inside = all.length === 0 ? [] : picks.map((i) => structuredClone(all[i % all.length]));
        const secrets = [...(strangers as Json[]), ...inside];
        const expected = secrets.some((s) => containsSecret(value, s));
        assert.equal(leaksAny(value, secrets), expected);
        assert.equal(leaksAny(value, secrets, canonicalJson(value)), expected, 'with the text written beforehand');
        // an object secret found inside is always reported
        if (inside.some((s) => s !== null && typeof s === 'object')) assert.equal(leaksAny(value, secrets), true);
      },
    ),
    { seed: 20261201, numRuns: 500 },
  );
});
