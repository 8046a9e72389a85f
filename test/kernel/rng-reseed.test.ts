// A reseeded generator draws exactly what a new one with that seed draws, whatever it drew before
// (runners reseed one generator per seat for each decision instead of making a new one).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SeededRandom, createRng, nextInt, nextU32 } from '../../packages/engine/src/kernel/index.ts';

test('[RNG-RESEED] reseed(s) draws what new SeededRandom(s) draws, after any earlier draws', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 0xffffffff }),
      fc.integer({ min: 0, max: 0xffffffff }),
      fc.nat({ max: 5 }),
      fc.integer({ min: 1, max: 1000 }),
      (first, second, before, bound) => {
        const r = new SeededRandom(first);
        for (let i = 0; i < before; i++) r.u32();
        r.reseed(second);
        const fresh = new SeededRandom(second);
        assert.deepEqual([r.u32(), r.int(bound), r.float()], [fresh.u32(), fresh.int(bound), fresh.float()]);
      },
    ),
    { seed: 20261202, numRuns: 300 },
  );
});

test('[RNG-SEEDED-STREAM] SeededRandom(seed, name) draws the stream (seed, name) of a game-state generator', () => {
  // SeededRandom keeps its own copy of the stream's words; a recorded match replays only if it still
  // draws exactly what nextU32 / nextInt draw from createRng(seed)
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 0xffffffff }),
      fc.constantFrom('agent', 'deal', 'x'),
      fc.array(fc.integer({ min: 0, max: 0x100000000 }), { maxLength: 12 }),
      (seed, name, bounds) => {
        const r = new SeededRandom(seed, name);
        const st = createRng(seed);
        for (const b of bounds) {
          if (b === 0) assert.equal(r.u32(), nextU32(st, name));
          else assert.equal(r.int(b), nextInt(st, name, b));
        }
      },
    ),
    { seed: 20261206, numRuns: 300 },
  );
});

test('[RNG-BOUND] a refused nextInt bound leaves the generator state as it was (no stream made)', () => {
  const rng = createRng(7);
  const before = JSON.stringify(rng);
  for (const bad of [0, -1, 1.5, Number.NaN, 0x100000001]) assert.throws(() => nextInt(rng, 'fresh', bad), RangeError);
  assert.equal(JSON.stringify(rng), before);
});
