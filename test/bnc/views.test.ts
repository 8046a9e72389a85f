// Views: nothing private of one contestant reaches another's view, across whole matches.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act, canonicalJson, SeededRandom, type Json } from '../../packages/engine/src/kernel/index.ts';
import { bnc, type BncState } from '../../packages/engine/src/rulesets/bnc/index.ts';
import { choosePolicy, newMemory, TEMPERAMENTS, type Memory } from '../../packages/engine/src/rulesets/bnc/agents.ts';

/**
 * Whether a secret shows in `view`: a string anywhere in its text, another value as a whole object or
 * array in it. The view's text and the texts of its parts are written once for all its secrets.
 */
function leaksFrom(view: Json): (secret: Json) => boolean {
  const text = canonicalJson(view);
  let parts: Set<string> | undefined;
  const collect = (v: unknown, into: Set<string>): void => {
    if (v === null || typeof v !== 'object') return;
    into.add(canonicalJson(v));
    for (const x of Array.isArray(v) ? v : Object.values(v as object)) collect(x, into);
  };
  return (secret) => {
    if (typeof secret === 'string') return text.includes(secret);
    if (!parts) collect(view, (parts = new Set()));
    return parts.has(canonicalJson(secret));
  };
}

/** Plays a match where the scripted agents also whisper secrets; yields every position. */
function* positions(seed: number): Generator<BncState> {
  let s = bnc.setup({}, seed);
  const mems: Memory[] = [0, 1, 2, 3].map(newMemory);
  const rnd = new SeededRandom(seed);
  while (bnc.outcome(s) === null) {
    yield s;
    const p = bnc.pending(s)[0];
    let a: Json = choosePolicy(TEMPERAMENTS[p.seat], s, p.seat, mems[p.seat], rnd) as unknown as Json;
    const other = (p.seat + 1 + rnd.int(3)) % 4;
    if (rnd.int(4) === 0 && s.contestants[other].status === 'active')
      a = { type: 'whisper', to: other, text: `secret plan ${seed}-${s.turn}-${p.seat} for ${other} only` };
    const r = act(bnc, s, p.seat, a);
    assert.ok(r.ok, JSON.stringify(a));
    s = r.ok ? r.state : s;
  }
  yield s;
}

test('[BNC-V03, BNC-M04] no secret of another contestant appears in a view during whole scripted matches', () => {
  let checked = 0;
  let secrets = 0;
  for (let seed = 1; seed <= 5; seed++) {
    for (const s of positions(seed)) {
      for (let seat = 0; seat < 4; seat++) {
        const leaks = leaksFrom(bnc.view(s, seat));
        for (const secret of bnc.secrets!(s, seat)) {
          secrets++;
          assert.ok(!leaks(secret), `seed ${seed} turn ${s.turn}: seat ${seat} sees ${canonicalJson(secret)}`);
        }
        checked++;
      }
    }
  }
  assert.ok(checked > 1000 && secrets > 500, `too little was checked (${checked} views, ${secrets} secrets)`);
});

test('[BNC-V01, BNC-S02] a whisper is in the views of its two parties and of nobody else', () => {
  let s = bnc.setup({ contestants: 3 }, 2);
  const text = 'the chart is in the Pump Hall';
  for (const [seat, a] of [
    [0, { type: 'whisper', to: 2, text }],
    [1, { type: 'wait' }],
    [2, { type: 'wait' }],
  ] as const) {
    const r = act(bnc, s, seat, a);
    assert.ok(r.ok);
    if (r.ok) s = r.state;
  }
  assert.ok(canonicalJson(bnc.view(s, 0)).includes(text));
  assert.ok(canonicalJson(bnc.view(s, 2)).includes(text));
  assert.ok(!canonicalJson(bnc.view(s, 1)).includes(text));
  assert.ok(canonicalJson(bnc.view(s, null)).includes(text));
  assert.ok(bnc.secrets!(s, 1).includes(text));
});

test('[BNC-V01, BNC-M04] undiscovered shortcuts are absent from a contestant view and listed as its secrets', () => {
  const s = bnc.setup({}, 3);
  const view = bnc.view(s, 0) as { shortcuts: Json[] };
  assert.deepEqual(view.shortcuts, []);
  assert.equal(bnc.secrets!(s, 0).length, 3);
  s.contestants[0].known = ['S2'];
  assert.deepEqual((bnc.view(s, 0) as { shortcuts: Json[] }).shortcuts, [{ id: 'S2', a: 0, b: 4 }]);
  assert.equal(bnc.secrets!(s, 0).length, 2);
});

test('[BNC-V02] the spectator sees every contestant, item, shortcut and message but not the RNG', () => {
  const s = bnc.setup({}, 3);
  const v = bnc.view(s, null) as Record<string, Json>;
  assert.deepEqual(v.shortcuts, s.shortcuts as unknown as Json);
  assert.deepEqual(v.floor, s.floor);
  assert.equal((v.contestants as Json[]).length, 4);
  assert.equal(v.rng, undefined);
  assert.deepEqual(bnc.secrets!(s, null), []);
});
