// What each audience may see of a match: a seat (its own perception), a spectator (what every seat
// perceives whole, or everything when the ruleset hides nothing from spectators), or the omniscient
// audience of a finished log. One cut for every door: live frames, a running match's log, the web
// replay viewer, and the events a protocol agent is shown. Each event is judged against the state
// of the moment it happened, never against a later one (which would tell what has become secret).

import {
  canonicalJson,
  containsSecret,
  type GameEvent,
  type Json,
  jsonEqual,
  type Pending,
  type Ruleset,
  type RulesetPackage,
  type Seat,
} from '../kernel/index.ts';

/** The events `seat` perceives, per the ruleset's `eventView` or the safe default. */
export function eventsSeenBy(
  rs: Ruleset,
  perfectInformation: boolean,
  events: readonly GameEvent[],
  seat: Seat,
): GameEvent[] {
  if (rs.eventView) {
    const out: GameEvent[] = [];
    for (const e of events) {
      const seen = rs.eventView(e, seat);
      if (seen) out.push(seen);
    }
    return out;
  }
  return perfectInformation ? events.slice() : [];
}

/** True when `value` contains `secret` (the kernel's one definition). */
export const leaks = containsSecret;

/** How many members a JSON object or array has, as canonical JSON counts them (undefined dropped). */
function sizeKey(v: object): number {
  if (Array.isArray(v)) return -1 - v.length;
  let n = 0;
  for (const k in v) if ((v as Record<string, unknown>)[k] !== undefined) n++;
  return n;
}

/** Every object and array inside `v` (itself included), grouped by `sizeKey`. */
function partsBySize(v: unknown): Map<number, object[]> {
  const bySize = new Map<number, object[]>();
  const walk = (x: unknown): void => {
    if (x === null || typeof x !== 'object') return;
    const k = sizeKey(x);
    const same = bySize.get(k);
    if (same) same.push(x);
    else bySize.set(k, [x]);
    for (const y of Array.isArray(x) ? x : Object.values(x)) walk(y);
  };
  walk(v);
  return bySize;
}

/**
 * The one judgement behind `leaksAny` and `eventsLeak`, each secret as `leaks` judges it: a string
 * of 6 or more characters found in the canonical text, or an object or array equal to a part. The
 * text and the parts are asked for only when a secret needs them; a part is compared only with
 * secrets of its size, member by member, instead of being written out as canonical JSON.
 */
function holdsAny(
  secrets: readonly Json[],
  text: () => string,
  parts: () => readonly Map<number, object[]>[],
): boolean {
  for (const s of secrets) {
    if (typeof s === 'string') {
      if (s.length >= 6 && text().includes(s)) return true;
    } else if (s !== null && typeof s === 'object') {
      const k = sizeKey(s);
      for (const bySize of parts()) if (bySize.get(k)?.some((v) => jsonEqual(v, s))) return true;
    }
  }
  return false;
}

/** Reads a value once, on first demand. */
function once<T>(read: () => T): () => T {
  let v: T | undefined;
  let done = false;
  return () => {
    if (!done) {
      v = read();
      done = true;
    }
    return v as T;
  };
}

/** True when `value` contains any of `secrets` (each as `leaks` judges it), reading `value` once. */
export function leaksAny(value: unknown, secrets: readonly Json[]): boolean {
  return holdsAny(
    secrets,
    once(() => canonicalJson(value)),
    once(() => [partsBySize(value)]),
  );
}

/**
 * The events of one change that `seat` (null: a spectator) may receive. Perfect-information games:
 * all. Imperfect ones with one seat: those that reveal none of the seat's secrets. With several: a
 * spectator whose `secrets` list is empty (the ruleset hides nothing from it) gets all; where the
 * ruleset says what each seat perceives of an event (`eventView`, the same perception its agents
 * get), a seat gets that, and a spectator the events every seat perceives whole (public ones);
 * otherwise none — an event can name a card that no secrets entry lists whole.
 */
export function eventsFor<S>(
  pkg: RulesetPackage<S>,
  state: S,
  seat: Seat | null,
  events: readonly GameEvent[],
): GameEvent[] {
  if (events.length === 0) return [];
  if (pkg.gameType.information === 'perfect') return events.slice();
  if (pkg.gameType.seats.max > 1) {
    // a spectator the ruleset keeps nothing from (bnc's audience sees all but the RNG) gets every
    // event, so a watcher sees beats as they happen
    const rs = pkg.ruleset;
    const open = seat === null && rs.secrets !== undefined && rs.secrets(state, null).length === 0;
    if (open) return events.slice();
    const perceive = rs.eventView;
    if (!perceive) return [];
    if (seat !== null) return eventsSeenBy(rs, false, events, seat);
    const seats = rs.seats(state);
    return events.filter((e) => {
      for (let s = 0; s < seats; s++) {
        const seen = perceive(e, s);
        if (seen === null || (seen !== e && !jsonEqual(seen, e))) return false;
      }
      return true;
    });
  }
  const secrets = pkg.ruleset.secrets?.(state, seat) ?? [];
  return events.filter((e) => !leaksAny(e, secrets));
}

/** One event as the guard reads it, each half filled on first demand. */
type EventReading = { text?: string; parts?: Map<number, object[]> };

/**
 * The readings of the events of one change, shared by the event-stream hash and every audience of
 * that change (most audiences perceive most events whole: the same objects). Made per change,
 * never kept: an event is known not to change only for that moment.
 */
export type EventTexts = Map<GameEvent, EventReading>;

function readingOf(e: GameEvent, cache: EventTexts): EventReading {
  let r = cache.get(e);
  if (r === undefined) {
    r = {};
    cache.set(e, r);
  }
  return r;
}

/** `canonicalJson(e)`, written once per change whoever asks (the hash, the guard). */
export function eventText(e: GameEvent, cache: EventTexts): string {
  const r = readingOf(e, cache);
  r.text ??= canonicalJson(e);
  return r.text;
}

function eventParts(e: GameEvent, cache: EventTexts): Map<number, object[]> {
  const r = readingOf(e, cache);
  r.parts ??= partsBySize(e);
  return r.parts;
}

/**
 * Whether `events` (as an array) contains any of `secrets`, judged as `leaksAny(events, secrets)`
 * judges, from each event's reading made once per change: an audience costs a lookup per secret
 * and event, not a walk of every event.
 */
export function eventsLeak(events: readonly GameEvent[], secrets: readonly Json[], cache: EventTexts): boolean {
  return holdsAny(
    secrets,
    // the canonical text of an array is its members' texts, comma-joined in brackets
    once(() => `[${events.map((e) => eventText(e, cache)).join(',')}]`),
    // the array itself is a part too
    once(() => [new Map([[sizeKey(events), [events as object]]]), ...events.map((e) => eventParts(e, cache))]),
  );
}

/**
 * `eventsFor`, then the last guard on what `secrets` speaks about: should any of those events hold
 * a secret of that audience, none is sent (`withheld`; the view still says what changed).
 */
export function eventsGuarded<S>(
  pkg: RulesetPackage<S>,
  state: S,
  seat: Seat | null,
  events: readonly GameEvent[],
  cache: EventTexts = new Map(),
): { events: GameEvent[]; withheld: boolean } {
  const out = eventsFor(pkg, state, seat, events);
  if (out.length === 0) return { events: out, withheld: false };
  const secrets = pkg.ruleset.secrets?.(state, seat) ?? [];
  return eventsLeak(out, secrets, cache) ? { events: [], withheld: true } : { events: out, withheld: false };
}

/** What everyone may know about who owes a decision: seat and kind, no details. */
export function publicPending(pending: readonly Pending[]): { seat: number; kind: string }[] {
  return pending.map((p) => ({ seat: p.seat, kind: p.kind }));
}
