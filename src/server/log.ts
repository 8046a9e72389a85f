// The match log the server hands out: the JSON Lines format of src/runners/match.ts, so
// `arbiter replay --verify` reads a finished match's log. A running match's log is cut to what a
// spectator may see.

import { canonicalJson, StreamHash, type GameEvent, type Json, type JsonObject, type RulesetPackage } from '../kernel/index.ts';
import { ENGINE } from '../runners/match.ts';
import { eventsFor } from './secrets.ts';
import type { LiveMatch } from './service.ts';
import type { SubmissionRow } from './store.ts';

export function buildHeader(pkg: RulesetPackage, seed: number, config: Json, agents: string[], setupEvents: GameEvent[]): JsonObject {
  const h: JsonObject = { ruleset: pkg.ruleset.id, version: pkg.ruleset.version, engine: ENGINE, seed, config, agents };
  if (setupEvents.length > 0) h.setup_events = setupEvents;
  return h;
}

/** Why the server played a seat's default action. */
export function defaultRecord(reason: 'timeout' | 'refused' | 'exited', request: number, raw: string | null): Json {
  return { reason, request, raw: raw === null ? null : raw.slice(0, 4096) };
}

function entryOf(s: SubmissionRow): JsonObject {
  const e: JsonObject = { seq: s.seq, seat: s.seat, input: s.input, result: s.result, events: s.events };
  if (s.result === 'defaulted') e.default = s.default;
  return e;
}

/** The whole log of a finished match, line by line. */
export function fullLog(m: LiveMatch, subs: SubmissionRow[]): string[] {
  const header = m.row.header as JsonObject;
  const lines = [canonicalJson(header)];
  const hash = new StreamHash();
  let events = 0;
  for (const e of (header.setup_events as GameEvent[] | undefined) ?? []) {
    hash.update(canonicalJson(e));
    events++;
  }
  for (const s of subs) {
    lines.push(canonicalJson(entryOf(s)));
    for (const e of s.events) hash.update(canonicalJson(e));
    events += s.events.length;
  }
  lines.push(canonicalJson({ end: true, outcome: (m.outcome ?? null) as Json, hash: hash.digest(), events, submissions: subs.length }));
  return lines;
}

/**
 * A running match as a spectator may read it: no seed (it decides every hidden draw); in
 * imperfect-information games no inputs, and only the events a spectator may receive
 * (see `eventsFor`). No footer: the match is not over.
 */
export function spectatorLog(m: LiveMatch, subs: SubmissionRow[]): string[] {
  const header: JsonObject = { ...(m.row.header as JsonObject), partial: true };
  delete header.seed;
  const perfect = m.pkg.gameType.information === 'perfect';
  if (!perfect && header.setup_events) header.setup_events = eventsFor(m.pkg, m.state, null, header.setup_events as GameEvent[]);
  const lines = [canonicalJson(header)];
  for (const s of subs) {
    const e = entryOf(s);
    if (!perfect) {
      e.input = null;
      e.hidden = true;
      e.events = eventsFor(m.pkg, m.state, null, s.events as GameEvent[]);
      delete e.default;
    }
    lines.push(canonicalJson(e));
  }
  return lines;
}
