// The compact state key: stateKeyInto (the explorer's buffer path) writes exactly the code units of
// stateKey, and both agree with the original string-building key on every state of the 3-frame CI
// configuration, so hashed and exact exploration identify the same states as before.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { duel } from '../../packages/engine/src/rulesets/duel/index.ts';
import { CARD_NAMES } from '../../packages/engine/src/rulesets/duel/cards.ts';
import { PRESETS } from '../../packages/engine/src/rulesets/duel/config.ts';
import { stateKey, stateKeyInto } from '../../packages/engine/src/rulesets/duel/key.ts';
import type { Ability, DuelState, SeatState } from '../../packages/engine/src/rulesets/duel/state.ts';

// ---- the string-building key as it was before stateKeyInto (the reference)
const LETTER: Record<string, string> = { start: '0' };
CARD_NAMES.forEach((c, i) => (LETTER[c] = String.fromCharCode(97 + i)));
const cards = (list: readonly string[]) => list.map((c) => LETTER[c]).join('');
const heapKey = (heap: readonly { card: string; up: boolean }[]) =>
  heap.map((h) => (h.up ? LETTER[h.card].toUpperCase() : LETTER[h.card])).join('');
const scoreKey = (score: readonly { card: string; pts: number }[]) => score.map((x) => LETTER[x.card] + x.pts).join('');
const abilities = (list: readonly Ability[]) => list.map((a) => LETTER[a.src] + a.who).join('');
const rel = (id: number, base: number) => (id === 0 ? '-' : String(id - base));
const seat = (p: SeatState) =>
  `${p.clicks},${p.credits},${cards(p.deck)},${cards(p.hand)},${heapKey(p.heap)},${scoreKey(p.score)},${cards(p.installed)}`;

function referenceKey(s: DuelState): string {
  const base = s.turn.id;
  const t = s.turn;
  let k = `${t.owner}${t.phase[0]}${t.formalBegun ? 1 : 0}${t.formalEnded ? 1 : 0}${t.begunCounts[0]},${t.begunCounts[1]}|${s.step}|${s.next - base}|`;
  k += seat(s.p[0]) + '|' + seat(s.p[1]) + '|';
  k += s.remote === null ? '-' : LETTER[s.remote.card] + s.remote.adv;
  if (s.ice.length > 0) k += ';' + cards(s.ice);
  k += `|${s.core}${s.skip ? 1 : 0}${s.directed ? 1 : 0}${s.cpDue ? 1 : 0}|`;
  const a = s.action;
  k +=
    a === null
      ? '-'
      : `${rel(a.id, base)},${a.owner},${a.kind},${a.card === null ? '-' : LETTER[a.card]},${a.status[0]}${a.status[1]},${rel(a.child, base)},${a.fx}`;
  k +=
    '|' +
    (s.run === null
      ? '-'
      : `${rel(s.run.id, base)}${s.run.stage}${s.run.success ? 1 : 0}${s.run.pos >= 0 ? s.run.pos : ''}`);
  k += `|${rel(s.receipt, base)}|${s.dmg === null ? '-' : s.dmg.n + (s.dmg.core ? 'c' : 'n')}|${abilities(s.queue)}|`;
  for (const w of s.win) k += `${w.kind[0]}${w.prio}${w.passed ? 1 : 0}${abilities(w.abilities)};`;
  k += `|${s.ask === null ? '-' : s.ask.seat + s.ask.kind + s.ask.count}|${s.turns}|`;
  k += s.result === null ? '-' : `${s.result.winners.join('')}${s.result.reason}`;
  const d = s.rng.streams.damage;
  if (d !== undefined) k += `|${d[0]},${d[1]},${d[2]},${d[3]}`;
  return k;
}

/** Every reachable state of a configuration, breadth first. */
function reachable(config: unknown): DuelState[] {
  const start = duel.setup(config, 1);
  const seen = new Set([referenceKey(start)]);
  const out = [start];
  for (let i = 0; i < out.length; i++) {
    const s = out[i];
    for (const p of duel.pending(s)) {
      for (const a of duel.legal(s, p.seat).actions) {
        const t = duel.clone!(s);
        duel.apply(t, p.seat, a, []);
        const k = referenceKey(t);
        if (!seen.has(k)) {
          seen.add(k);
          out.push(t);
        }
      }
    }
  }
  return out;
}

test('[U-IDS] stateKey and stateKeyInto agree with the original key on every state of the 3-frame CI configuration', () => {
  const states = reachable({ ...PRESETS.ci, turns: 3 });
  assert.equal(states.length, 36830);
  const buf = new Uint16Array(256);
  let damaged = 0;
  for (const s of states) {
    const want = referenceKey(s);
    assert.equal(stateKey(s), want);
    const n = stateKeyInto(s, buf);
    assert.equal(n, want.length);
    assert.equal(String.fromCharCode(...buf.subarray(0, n)), want);
    if (s.rng.streams.damage !== undefined) damaged++;
  }
  assert.ok(damaged > 0, 'states with a damage stream (large and negative numbers in the key) are covered');
});

test('stateKeyInto reports the full length when the buffer is too short, and writes what fits', () => {
  const s = duel.setup(PRESETS.ci, 1);
  const want = stateKey(s);
  const small = new Uint16Array(10);
  assert.equal(stateKeyInto(s, small), want.length);
  assert.equal(String.fromCharCode(...small), want.slice(0, 10));
});

test('copy-on-write clones: applying menu actions to clones never changes the state they were cloned from', () => {
  // breadth first over the 3-frame configuration, each state's JSON taken when it is found and
  // compared once every state has been expanded (a write into a shared record shows up there)
  const start = duel.setup({ ...PRESETS.ci, turns: 3 }, 1);
  const states = [start];
  const json = [JSON.stringify(start)];
  const seen = new Set([stateKey(start)]);
  for (let i = 0; i < states.length; i++) {
    const s = states[i];
    for (const p of duel.pending(s)) {
      for (const a of duel.legal(s, p.seat).actions) {
        const t = duel.clone!(s);
        const u = duel.clone!(t); // a clone of a clone shares with both
        duel.apply(t, p.seat, a, []);
        duel.apply(u, p.seat, a, []);
        assert.equal(JSON.stringify(u), JSON.stringify(t));
        const k = stateKey(t);
        if (!seen.has(k)) {
          seen.add(k);
          states.push(t);
          json.push(JSON.stringify(t));
        }
      }
    }
  }
  assert.equal(states.length, 36830);
  for (let i = 0; i < states.length; i++) assert.equal(JSON.stringify(states[i]), json[i]);
});
