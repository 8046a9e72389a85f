// Re-execute a match log and compare every submission's result and events with the record.

import { act, canonicalJson, StreamHash, type GameEvent, type Json, type Ruleset } from '../kernel/index.ts';
import type { ParsedLog } from './logfile.ts';

export interface Divergence {
  /** 0 for the setup events, then the submission's seq, or 'end' for the final line. */
  seq: number | 'end';
  what: string;
  expected: Json;
  actual: Json;
}

export interface ReplayReport<S = unknown> {
  ok: boolean;
  submissions: number;
  events: number;
  hash: string;
  divergence: Divergence | null;
  state: S;
}

export function replayLog<S>(rs: Ruleset<S>, log: ParsedLog): ReplayReport<S> {
  const setupEvents: GameEvent[] = [];
  let state = rs.setup(log.header.config ?? {}, log.header.seed, setupEvents);
  const hash = new StreamHash();
  let events = 0;
  const fail = (d: Divergence): ReplayReport<S> => ({ ok: false, submissions: typeof d.seq === 'number' ? d.seq - 1 : log.entries.length, events, hash: hash.digest(), divergence: d, state });
  if (log.header.version !== rs.version) {
    return fail({ seq: 'end', what: 'ruleset version', expected: log.header.version, actual: rs.version });
  }
  const recordedSetup = log.header.setup_events ?? [];
  if (canonicalJson(recordedSetup) !== canonicalJson(setupEvents)) {
    const i = firstDifference(recordedSetup, setupEvents);
    return fail({ seq: 0, what: `setup event ${i}`, expected: (recordedSetup[i] ?? null) as Json, actual: (setupEvents[i] ?? null) as Json });
  }
  for (const e of setupEvents) hash.update(canonicalJson(e));
  events += setupEvents.length;
  for (const entry of log.entries) {
    const res = act(rs, state, entry.seat, entry.input);
    // a defaulted submission is the runner submitting the default action: it must be accepted again
    const result = res.ok ? (entry.result === 'defaulted' ? 'defaulted' : 'accepted') : 'rejected';
    if (result !== entry.result) {
      return fail({ seq: entry.seq, what: 'result', expected: entry.result, actual: res.ok ? 'accepted' : { rejected: res.error as unknown as Json } });
    }
    if (res.ok) {
      const got = canonicalJson(res.events);
      if (got !== canonicalJson(entry.events)) {
        const i = firstDifference(entry.events, res.events);
        return fail({
          seq: entry.seq,
          what: `event ${i}`,
          expected: (entry.events[i] ?? null) as Json,
          actual: (res.events[i] ?? null) as Json,
        });
      }
      state = res.state;
      for (const e of res.events) hash.update(canonicalJson(e));
      events += res.events.length;
    } else if (entry.error && entry.error.code !== res.error.code) {
      return fail({ seq: entry.seq, what: 'rejection code', expected: entry.error.code, actual: res.error.code });
    }
  }
  const digest = hash.digest();
  if (log.footer) {
    if (log.footer.hash !== digest) return fail({ seq: 'end', what: 'event-stream hash', expected: log.footer.hash, actual: digest });
    const outcome = rs.outcome(state);
    if (canonicalJson(outcome) !== canonicalJson(log.footer.outcome)) {
      return fail({ seq: 'end', what: 'outcome', expected: log.footer.outcome as unknown as Json, actual: outcome as unknown as Json });
    }
  }
  return { ok: true, submissions: log.entries.length, events, hash: digest, divergence: null, state };
}

function firstDifference(a: readonly GameEvent[], b: readonly GameEvent[]): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (canonicalJson(a[i] ?? null) !== canonicalJson(b[i] ?? null)) return i;
  return n;
}
