// The match log the server hands out: the JSON Lines format of packages/engine/src/engine/log.ts, so
// `arbiter replay --verify` reads a finished match's log. A running match's log is cut per
// audience by the engine (packages/engine/src/engine/running-log.ts).

import { canonicalJson, type GameEvent, type Seat } from '@arbiter/engine/kernel';
import { MatchRecorder, type LogEntry, type LogHeader, type SeatHeader } from '@arbiter/engine/match';
import { defaultInfoOf } from '@arbiter/engine/match';
import { runningLog } from '@arbiter/engine/match';
import type { LiveMatch } from './live.ts';
import type { SubmissionRow } from './store.ts';

type LineupRef = NonNullable<LogHeader['lineup']>;

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
    // a line-up's id and its model seats' settings, as `arbiter play --lineup` writes them
    extra: {
      ...(h.lineup ? { lineup: h.lineup as unknown as LineupRef } : {}),
      ...(h.seats ? { seats: h.seats as unknown as SeatHeader[] } : {}),
    },
  });
  const lines = [canonicalJson(rec.header)];
  for (const s of subs) {
    const entry: Omit<LogEntry, 'seq'> = {
      seat: s.seat,
      input: s.input,
      result: s.result,
      events: s.events as GameEvent[],
    };
    if (s.result === 'defaulted') entry.default = defaultInfoOf(s.default);
    lines.push(canonicalJson(rec.record(entry)));
  }
  lines.push(canonicalJson(rec.footer(m.outcome)));
  return lines;
}

/**
 * A running match as its caller may read it: the engine's running log for that audience (a seat,
 * or null for a spectator), each submission cut as the audience saw it when it happened. No seed,
 * no footer: the match is not over.
 */
export function partialLog(m: LiveMatch, subs: SubmissionRow[], seat: Seat | null): string[] {
  return runningLog(m.pkg, { header: m.row.header, entries: subs }, seat);
}
