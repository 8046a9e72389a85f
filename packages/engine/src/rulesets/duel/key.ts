// A compact canonical state key for exhaustive exploration. Card names become one letter, and
// structure ids are written relative to the current frame id: two states that differ only by a
// uniform shift of ids behave identically (every contract compares ids with each other, never
// with a constant), so they share one key. The constant config and seed are left out.
//
// The key is written once, as UTF-16 code units into a buffer (`stateKeyInto`), so the explorer can
// hash it without building a string; `stateKey` is the same code units as a string. Layout:
//   <owner><phase0><begun><ended><count0>,<count1>|<step>|<next-base>|<seat0>|<seat1>|<remote>
//   |<core><skip><directed><cpDue>|<action>|<run>|<receipt>|<dmg>|<queue>|<windows>|<ask>|<turns>|<result>[|<damage rng>]
// with seat = clicks,credits,deck,hand,heap,score,installed.

import { CARD_NAMES } from './cards.ts';
import type { Ability, DuelState, SeatState } from './state.ts';

const LETTER: Record<string, number> = { start: 48 }; // '0'
CARD_NAMES.forEach((c, i) => (LETTER[c] = 97 + i));
const UNDEFINED = 'undefined';

// A small direct-mapped table in front of LETTER (card names are few and short): a slot from the
// first two characters and the length, checked against the name stored there; any other string
// (or a name that shares a slot) takes the LETTER lookup.
const SLOT_NAME: string[] = new Array<string>(64).fill('');
const SLOT_CODE = new Uint16Array(64);
function slot(c: string): number {
  return (c.charCodeAt(0) * 31 + c.charCodeAt(1) * 5 + c.length) & 63;
}
for (const name of Object.keys(LETTER)) {
  const i = slot(name);
  if (SLOT_NAME[i] === '') {
    SLOT_NAME[i] = name;
    SLOT_CODE[i] = LETTER[name];
  }
}
function letter(c: string): number | undefined {
  const i = slot(c);
  return SLOT_NAME[i] === c ? SLOT_CODE[i] : LETTER[c];
}

const C_COMMA = 44;
const C_BAR = 124;
const C_DASH = 45;
const C_SEMI = 59;
const C_0 = 48;
const C_1 = 49;

// Each writer takes the buffer and the index to write at and returns the index after what it
// wrote; typed arrays ignore writes past their end, so the index may run past `out.length`.

function str(out: Uint16Array, n: number, s: string): number {
  for (let i = 0; i < s.length; i++) out[n++] = s.charCodeAt(i);
  return n;
}

/** A number as String(x) writes it (one digit inline, the rest out of line). */
function num(out: Uint16Array, n: number, x: number): number {
  if (x >= 0 && x < 10 && (x | 0) === x) {
    out[n] = C_0 + x;
    return n + 1;
  }
  return numLong(out, n, x);
}

function numLong(out: Uint16Array, n: number, x: number): number {
  if (!Number.isSafeInteger(x)) return str(out, n, String(x));
  if (x < 0) {
    out[n++] = C_DASH;
    x = -x;
  }
  let digits = 1;
  for (let y = x; y >= 10; y = Math.floor(y / 10)) digits++;
  let i = n + digits - 1;
  do {
    out[i--] = C_0 + (x % 10);
    x = Math.floor(x / 10);
  } while (x > 0);
  return n + digits;
}

/** A card's letter (as LETTER[c] in a template string: "undefined" for an unknown name). */
function card(out: Uint16Array, n: number, c: string): number {
  const l = letter(c);
  if (l === undefined) return str(out, n, UNDEFINED);
  out[n] = l;
  return n + 1;
}

function cards(out: Uint16Array, n: number, list: readonly string[]): number {
  for (let i = 0; i < list.length; i++) n = card(out, n, list[i]);
  return n;
}

function heap(out: Uint16Array, n: number, list: readonly { card: string; up: boolean }[]): number {
  for (let i = 0; i < list.length; i++) {
    const h = list[i];
    const l = letter(h.card);
    if (l === undefined) n = str(out, n, h.up ? UNDEFINED.toUpperCase() : UNDEFINED);
    else out[n++] = h.up && l >= 97 ? l - 32 : l;
  }
  return n;
}

function score(out: Uint16Array, n: number, list: readonly { card: string; pts: number }[]): number {
  for (let i = 0; i < list.length; i++) {
    n = card(out, n, list[i].card);
    n = num(out, n, list[i].pts);
  }
  return n;
}

function abilities(out: Uint16Array, n: number, list: readonly Ability[]): number {
  for (let i = 0; i < list.length; i++) {
    n = card(out, n, list[i].src);
    n = num(out, n, list[i].who);
  }
  return n;
}

function seat(out: Uint16Array, n: number, p: SeatState): number {
  n = num(out, n, p.clicks);
  out[n++] = C_COMMA;
  n = num(out, n, p.credits);
  out[n++] = C_COMMA;
  n = cards(out, n, p.deck);
  out[n++] = C_COMMA;
  n = cards(out, n, p.hand);
  out[n++] = C_COMMA;
  n = heap(out, n, p.heap);
  out[n++] = C_COMMA;
  n = score(out, n, p.score);
  out[n++] = C_COMMA;
  return cards(out, n, p.installed);
}

/** An id relative to the frame id; '-' for 0 (none). */
function rel(out: Uint16Array, n: number, id: number, base: number): number {
  if (id !== 0) return num(out, n, id - base);
  out[n] = C_DASH;
  return n + 1;
}

/**
 * Writes the key's UTF-16 code units into `out` and returns the key's length. Units past
 * `out.length` are dropped; a caller given a length above `out.length` grows `out` and calls again.
 */
export function stateKeyInto(s: DuelState, out: Uint16Array): number {
  const t = s.turn;
  const base = t.id;
  let n = num(out, 0, t.owner);
  out[n++] = t.phase.charCodeAt(0);
  out[n++] = t.formalBegun ? C_1 : C_0;
  out[n++] = t.formalEnded ? C_1 : C_0;
  n = num(out, n, t.begunCounts[0]);
  out[n++] = C_COMMA;
  n = num(out, n, t.begunCounts[1]);
  out[n++] = C_BAR;
  n = str(out, n, s.step);
  out[n++] = C_BAR;
  n = num(out, n, s.next - base);
  out[n++] = C_BAR;
  n = seat(out, n, s.p[0]);
  out[n++] = C_BAR;
  n = seat(out, n, s.p[1]);
  out[n++] = C_BAR;
  if (s.remote === null) out[n++] = C_DASH;
  else {
    n = card(out, n, s.remote.card);
    n = num(out, n, s.remote.adv);
  }
  if (s.ice.length > 0) {
    // written only when ICE is installed, so keys of ICE-free configurations stay as they were
    out[n++] = C_SEMI;
    n = cards(out, n, s.ice);
  }
  out[n++] = C_BAR;
  n = num(out, n, s.core);
  out[n++] = s.skip ? C_1 : C_0;
  out[n++] = s.directed ? C_1 : C_0;
  out[n++] = s.cpDue ? C_1 : C_0;
  out[n++] = C_BAR;
  const a = s.action;
  if (a === null) out[n++] = C_DASH;
  else {
    n = rel(out, n, a.id, base);
    out[n++] = C_COMMA;
    n = num(out, n, a.owner);
    out[n++] = C_COMMA;
    n = str(out, n, a.kind);
    out[n++] = C_COMMA;
    if (a.card === null) out[n++] = C_DASH;
    else n = card(out, n, a.card);
    out[n++] = C_COMMA;
    out[n++] = a.status.charCodeAt(0);
    out[n++] = a.status.charCodeAt(1);
    out[n++] = C_COMMA;
    n = rel(out, n, a.child, base);
    out[n++] = C_COMMA;
    n = num(out, n, a.fx);
  }
  out[n++] = C_BAR;
  const r = s.run;
  if (r === null) out[n++] = C_DASH;
  else {
    n = rel(out, n, r.id, base);
    n = str(out, n, r.stage);
    out[n++] = r.success ? C_1 : C_0;
    if (r.pos >= 0) n = num(out, n, r.pos);
  }
  out[n++] = C_BAR;
  n = rel(out, n, s.receipt, base);
  out[n++] = C_BAR;
  if (s.dmg === null) out[n++] = C_DASH;
  else {
    n = num(out, n, s.dmg.n);
    out[n++] = s.dmg.core ? 99 : 110; // 'c' | 'n'
  }
  out[n++] = C_BAR;
  n = abilities(out, n, s.queue);
  out[n++] = C_BAR;
  for (let i = 0; i < s.win.length; i++) {
    const w = s.win[i];
    out[n++] = w.kind.charCodeAt(0);
    n = num(out, n, w.prio);
    out[n++] = w.passed ? C_1 : C_0;
    n = abilities(out, n, w.abilities);
    out[n++] = C_SEMI;
  }
  out[n++] = C_BAR;
  if (s.ask === null) out[n++] = C_DASH;
  else {
    n = num(out, n, s.ask.seat);
    n = str(out, n, s.ask.kind);
    n = num(out, n, s.ask.count);
  }
  out[n++] = C_BAR;
  n = num(out, n, s.turns);
  out[n++] = C_BAR;
  if (s.result === null) out[n++] = C_DASH;
  else {
    const w = s.result.winners;
    for (let i = 0; i < w.length; i++) n = num(out, n, w[i]);
    n = str(out, n, s.result.reason);
  }
  const d = s.rng.streams.damage;
  if (d !== undefined) {
    out[n++] = C_BAR;
    n = num(out, n, d[0]);
    out[n++] = C_COMMA;
    n = num(out, n, d[1]);
    out[n++] = C_COMMA;
    n = num(out, n, d[2]);
    out[n++] = C_COMMA;
    n = num(out, n, d[3]);
  }
  return n;
}

let scratch = new Uint16Array(256);

export function stateKey(s: DuelState): string {
  let n = stateKeyInto(s, scratch);
  if (n > scratch.length) {
    scratch = new Uint16Array(Math.max(n, scratch.length * 2));
    n = stateKeyInto(s, scratch);
  }
  let k = '';
  for (let i = 0; i < n; i += 4096) k += String.fromCharCode(...scratch.subarray(i, Math.min(n, i + 4096)));
  return k;
}
