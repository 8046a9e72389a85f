// What each connection may see: a seat's events, a spectator's pending list, a running match's log.
// The views come from the ruleset; everything else the server sends is filtered here, and the last
// guard checks every outgoing value against the ruleset's `secrets` for that audience.

import {
  canonicalJson,
  containsSecret,
  type GameEvent,
  type Json,
  jsonEqual,
  type Pending,
  type RulesetPackage,
  type Seat,
} from '../kernel/index.ts';
import { eventsSeenBy } from '../agents/observe.ts';

/** True when `value` contains `secret` (the kernel's one definition). */
export const leaks = containsSecret;

/** How many members a JSON object or array has, as canonical JSON counts them (undefined dropped). */
function sizeKey(v: object): number {
  if (Array.isArray(v)) return -1 - v.length;
  let n = 0;
  for (const k in v) if ((v as Record<string, unknown>)[k] !== undefined) n++;
  return n;
}

/**
 * True when `value` contains any of `secrets` (each as `leaks` judges it); one walk of `value`
 * however many secrets. Every frame with events goes through here once per audience, so the walk
 * compares a part of `value` only with the secrets of its size, member by member, instead of
 * writing each part out as canonical JSON.
 */
export function leaksAny(value: unknown, secrets: readonly Json[]): boolean {
  const strings: string[] = [];
  const trees = new Map<number, Json[]>();
  for (const s of secrets) {
    if (typeof s === 'string') {
      if (s.length >= 6) strings.push(s);
    } else if (s !== null && typeof s === 'object') {
      const k = sizeKey(s);
      const same = trees.get(k);
      if (same) same.push(s);
      else trees.set(k, [s]);
    }
  }
  if (strings.length > 0) {
    const text = canonicalJson(value);
    for (const s of strings) if (text.includes(s)) return true;
  }
  if (trees.size === 0) return false;
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v !== 'object') return false;
    const same = trees.get(sizeKey(v));
    if (same?.some((s) => jsonEqual(v, s))) return true;
    return Array.isArray(v) ? v.some(walk) : Object.values(v as object).some(walk);
  };
  return walk(value);
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

/** One event as the guard reads it: its canonical text, and its objects and arrays by size. */
type EventParts = { text: string; bySize: Map<number, object[]> };

/**
 * The guard's reading of the events of one change, shared by every audience of one broadcast (most
 * audiences perceive most events whole: the same objects). Built per broadcast, never kept: an
 * event is known not to change only for that moment.
 */
export type EventTexts = Map<GameEvent, EventParts>;

function partsOf(e: GameEvent, cache: EventTexts): EventParts {
  let p = cache.get(e);
  if (p === undefined) {
    const bySize = new Map<number, object[]>();
    const walk = (v: unknown): void => {
      if (v === null || typeof v !== 'object') return;
      const k = sizeKey(v);
      const same = bySize.get(k);
      if (same) same.push(v);
      else bySize.set(k, [v]);
      for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x);
    };
    walk(e);
    p = { text: canonicalJson(e), bySize };
    cache.set(e, p);
  }
  return p;
}

/**
 * Whether `events` (as an array) contains any of `secrets`, judged as `leaksAny(events, secrets)`
 * judges, but from each event's parts read once per broadcast: an audience costs a lookup per
 * secret and event, not a walk of every event.
 */
export function eventsLeak(events: readonly GameEvent[], secrets: readonly Json[], cache: EventTexts): boolean {
  const parts = events.map((e) => partsOf(e, cache));
  let text: string | null = null;
  for (const s of secrets) {
    if (typeof s === 'string') {
      if (s.length < 6) continue;
      // the canonical text of an array is its members' texts, comma-joined in brackets
      text ??= `[${parts.map((p) => p.text).join(',')}]`;
      if (text.includes(s)) return true;
    } else if (s !== null && typeof s === 'object') {
      const k = sizeKey(s);
      // the array of events itself is a part too
      if (k === -1 - events.length && jsonEqual(events, s)) return true;
      for (const p of parts) if (p.bySize.get(k)?.some((v) => jsonEqual(v, s))) return true;
    }
  }
  return false;
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
