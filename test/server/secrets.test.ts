// The server's last guard: leaksAny must judge exactly as the kernel's containsSecret, secret by
// secret, however it walks the value.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { containsSecret, type GameEvent, type Json } from '../../packages/engine/src/kernel/index.ts';
import { eventsLeak, leaksAny, type EventTexts } from '../../packages/engine/src/engine/audience.ts';

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
        // an object secret found inside is always reported
        if (inside.some((s) => s !== null && typeof s === 'object')) assert.equal(leaksAny(value, secrets), true);
      },
    ),
    { seed: 20261201, numRuns: 500 },
  );
});

test('[SRV-SECRETS] the per-broadcast reading of events judges each audience as containsSecret does', () => {
  fc.assert(
    fc.property(
      fc.array(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }), {
        maxLength: 5,
      }),
      fc.array(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }), { minLength: 1, maxLength: 4 }),
      fc.array(fc.nat(), { maxLength: 4 }),
      (raw, strangers, picks) => {
        const events = raw.map((d) => ({ ...d, type: 'x' })) as GameEvent[];
        const all = parts(events as unknown as Json);
        // one cache for every audience, as one broadcast shares it
        const cache: EventTexts = new Map();
        for (const [i, theirs] of strangers.entries()) {
          const inside = all.length === 0 ? [] : picks.slice(i).map((k) => structuredClone(all[k % all.length]));
          const secrets = [...(theirs as Json[]), ...inside];
          const expected = secrets.some((s) => containsSecret(events, s));
          assert.equal(eventsLeak(events, secrets, cache), expected);
          assert.equal(leaksAny(events, secrets), expected);
        }
      },
    ),
    { seed: 20261202, numRuns: 400 },
  );
});
