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
 * writing each part out as canonical JSON; `text`, when given, is `canonicalJson(value)`.
 */
export function leaksAny(value: unknown, secrets: readonly Json[], text?: string): boolean {
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
    const written = text ?? canonicalJson(value);
    for (const s of strings) if (written.includes(s)) return true;
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

/**
 * Canonical texts of the events of one change, shared by every audience of one broadcast (most
 * audiences perceive most events whole, the same objects). Built per broadcast, never kept: an
 * event is known not to change only for that moment.
 */
export type EventTexts = Map<GameEvent, string>;

function eventText(e: GameEvent, texts: EventTexts): string {
  let t = texts.get(e);
  if (t === undefined) {
    t = canonicalJson(e);
    texts.set(e, t);
  }
  return t;
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
  texts?: EventTexts,
): { events: GameEvent[]; withheld: boolean } {
  const out = eventsFor(pkg, state, seat, events);
  if (out.length === 0) return { events: out, withheld: false };
  const secrets = pkg.ruleset.secrets?.(state, seat) ?? [];
  if (secrets.length === 0) return { events: out, withheld: false };
  // the canonical text of an array is its members' texts, comma-joined in brackets
  const text = texts ? `[${out.map((e) => eventText(e, texts)).join(',')}]` : undefined;
  return leaksAny(out, secrets, text) ? { events: [], withheld: true } : { events: out, withheld: false };
}

/** What everyone may know about who owes a decision: seat and kind, no details. */
export function publicPending(pending: readonly Pending[]): { seat: number; kind: string }[] {
  return pending.map((p) => ({ seat: p.seat, kind: p.kind }));
}
