// A compact canonical state key for exhaustive exploration. Card names become one letter, and
// structure ids are written relative to the current frame id: two states that differ only by a
// uniform shift of ids behave identically (every contract compares ids with each other, never
// with a constant), so they share one key. The constant config and seed are left out.

import { CARD_NAMES } from './cards.ts';
import type { Ability, DuelState, SeatState } from './types.ts';

const LETTER: Record<string, string> = { start: '0' };
CARD_NAMES.forEach((c, i) => (LETTER[c] = String.fromCharCode(97 + i)));

function cards(list: readonly string[]): string {
  let out = '';
  for (const c of list) out += LETTER[c];
  return out;
}

function seat(p: SeatState): string {
  return `${p.clicks},${p.credits},${cards(p.deck)},${cards(p.hand)},${heapKey(p.heap)},${scoreKey(p.score)},${cards(p.installed)}`;
}

function abilities(list: readonly Ability[]): string {
  let out = '';
  for (const a of list) out += LETTER[a.src] + a.who;
  return out;
}

function rel(id: number, base: number): string {
  return id === 0 ? '-' : String(id - base);
}

function heapKey(heap: readonly { card: string; up: boolean }[]): string {
  let out = '';
  for (const h of heap) out += h.up ? LETTER[h.card].toUpperCase() : LETTER[h.card];
  return out;
}

function scoreKey(score: readonly { card: string; pts: number }[]): string {
  let out = '';
  for (const x of score) out += LETTER[x.card] + x.pts;
  return out;
}

export function stateKey(s: DuelState): string {
  const base = s.turn.id;
  const t = s.turn;
  let k = `${t.owner}${t.phase[0]}${t.formalBegun ? 1 : 0}${t.formalEnded ? 1 : 0}${t.begunCounts[0]},${t.begunCounts[1]}|${s.step}|${s.next - base}|`;
  k += seat(s.p[0]) + '|' + seat(s.p[1]) + '|';
  k += s.remote === null ? '-' : LETTER[s.remote.card] + s.remote.adv;
  k += `|${s.core}${s.skip ? 1 : 0}${s.directed ? 1 : 0}${s.cpDue ? 1 : 0}|`;
  const a = s.action;
  k += a === null ? '-' : `${rel(a.id, base)},${a.owner},${a.kind},${a.card === null ? '-' : LETTER[a.card]},${a.status[0]}${a.status[1]},${rel(a.child, base)},${a.fx}`;
  k += '|' + (s.run === null ? '-' : `${rel(s.run.id, base)}${s.run.stage}${s.run.success ? 1 : 0}`);
  k += `|${rel(s.receipt, base)}|${s.dmg === null ? '-' : s.dmg.n + (s.dmg.core ? 'c' : 'n')}|${abilities(s.queue)}|`;
  for (const w of s.win) k += `${w.kind[0]}${w.prio}${w.passed ? 1 : 0}${abilities(w.abilities)};`;
  k += `|${s.ask === null ? '-' : s.ask.seat + s.ask.kind + s.ask.count}|${s.turns}|`;
  k += s.result === null ? '-' : `${s.result.winners.join('')}${s.result.reason}`;
  const d = s.rng.streams.damage;
  if (d !== undefined) k += `|${d[0]},${d[1]},${d[2]},${d[3]}`;
  return k;
}
