// The match log the server hands out: the JSON Lines format of src/runners/match.ts, so
// `arbiter replay --verify` reads a finished match's log. A running match's log is cut to what a
// spectator may see.

import {
  canonicalJson,
  type ErrorCode,
  type GameEvent,
  type Rejection,
  type Json,
  type JsonObject,
  type RulesetPackage,
  type Seat,
} from '../kernel/index.ts';
import { DEFAULT_REASONS, MatchRecorder, type DefaultInfo, type LogEntry } from '../runners/match.ts';
import { eventsGuarded } from './secrets.ts';
import type { LiveMatch } from './service.ts';
import type { SubmissionRow } from './store.ts';

export function buildHeader(
  pkg: RulesetPackage,
  seed: number,
  config: Json,
  agents: string[],
  setupEvents: GameEvent[],
): JsonObject {
  const rec = new MatchRecorder({
    ruleset: pkg.ruleset.id,
    version: pkg.ruleset.version,
    seed,
    config,
    agents,
    setupEvents,
  });
  return JSON.parse(canonicalJson(rec.header));
}

/** Why the server played a seat's default action (the log's `default` record). */
export function defaultRecord(reason: 'timeout' | 'refused' | 'exited', request: number, raw: string | null): Json {
  return { reason, request, raw: raw === null ? null : raw.slice(0, 4096) };
}

function defaultInfo(d: Json): DefaultInfo {
  const o = d !== null && typeof d === 'object' && !Array.isArray(d) ? d : {};
  const reason = DEFAULT_REASONS.find((r) => r === o.reason) ?? 'timeout';
  return {
    reason,
    request: typeof o.request === 'number' || typeof o.request === 'string' ? o.request : 0,
    raw: typeof o.raw === 'string' ? o.raw : null,
    // a refused answer's rejection (remote protocol agents record it, like the match runner)
    ...rejectionOf(o.error),
  };
}

const ERROR_CODES: readonly ErrorCode[] = [
  'bad_request',
  'illegal',
  'out_of_turn',
  'game_over',
  'bad_config',
  'corrupt_log',
  'not_found',
  'too_large',
];

function rejectionOf(v: Json | undefined): { error?: Rejection } {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
  const code = ERROR_CODES.find((c) => c === v.code);
  if (!code || typeof v.reason !== 'string') return {};
  return { error: v.detail === undefined ? { code, reason: v.reason } : { code, reason: v.reason, detail: v.detail } };
}

function entryOf(s: SubmissionRow): JsonObject {
  const e: JsonObject = { seq: s.seq, seat: s.seat, input: s.input, result: s.result, events: s.events };
  if (s.result === 'defaulted') e.default = s.default;
  return e;
}

/** The whole log of a finished match, line by line, with the footer every complete log carries. */
export function fullLog(m: LiveMatch, subs: SubmissionRow[]): string[] {
  const h = m.row.header;
  const rec = new MatchRecorder({
    ruleset: String(h.ruleset),
    version: String(h.version),
    seed: Number(h.seed),
    config: h.config ?? {},
    agents: Array.isArray(h.agents) ? h.agents.map(String) : undefined,
    setupEvents: (h.setup_events as GameEvent[] | undefined) ?? [],
  });
  const lines = [canonicalJson(rec.header)];
  for (const s of subs) {
    const entry: Omit<LogEntry, 'seq'> = {
      seat: s.seat,
      input: s.input,
      result: s.result,
      events: s.events as GameEvent[],
    };
    if (s.result === 'defaulted') entry.default = defaultInfo(s.default);
    lines.push(canonicalJson(rec.record(entry)));
  }
  lines.push(canonicalJson(rec.footer(m.outcome)));
  return lines;
}

/**
 * A running match as its caller may read it: no seed (it decides every hidden draw); in
 * imperfect-information games no inputs, and only the events that caller (a seat, or null for a
 * spectator) may receive, after the same guard as the frames (see `eventsGuarded`): a seat of bnc
 * gets its own perception, not the audience's. No footer: the match is not over.
 */
export function partialLog(m: LiveMatch, subs: SubmissionRow[], seat: Seat | null): string[] {
  const header: JsonObject = { ...m.row.header, partial: true };
  delete header.seed;
  const perfect = m.pkg.gameType.information === 'perfect';
  const seen = (events: Json | undefined) =>
    eventsGuarded(m.pkg, m.state, seat, (events as GameEvent[] | undefined) ?? []).events;
  if (!perfect && header.setup_events) header.setup_events = seen(header.setup_events);
  const lines = [canonicalJson(header)];
  for (const s of subs) {
    const e = entryOf(s);
    if (!perfect) {
      e.input = null;
      e.hidden = true;
      e.events = seen(s.events);
      delete e.default;
    }
    lines.push(canonicalJson(e));
  }
  return lines;
}
