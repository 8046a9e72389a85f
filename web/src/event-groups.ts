// The live event list's groups: one per submission that showed the caller any event, from the
// match log (what happened before the page opened) and from the socket's frames (what comes after).
import type { Json } from './boards/types.ts';

export type EventGroup = { seq: number; who: string | null; events: Json[]; current?: boolean };

/** The most groups the live list keeps (the oldest go first). */
const KEPT_GROUPS = 200;

/**
 * The event groups of a match log (JSON Lines as the server hands it out): setup as seq 0, then
 * each submission that shows the caller any event. Lines that are not what a log holds are skipped:
 * the list is a convenience, the socket's frames are the truth.
 */
export function groupsFromLog(text: string): EventGroup[] {
  const out: EventGroup[] = [];
  for (const line of text.split('\n')) {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
    const o = v as { [k: string]: Json };
    const events = out.length === 0 && o.seq === undefined ? o.setup_events : o.events;
    const seq = o.seq === undefined ? (out.length === 0 && 'ruleset' in o ? 0 : null) : o.seq;
    if (typeof seq !== 'number' || !Array.isArray(events) || events.length === 0) continue;
    out.push({ seq, who: null, events });
  }
  return out;
}

/** Two lists of groups as one, in seq order, each seq once (a frame's copy wins), the newest kept. */
export function mergeGroups(older: EventGroup[], newer: EventGroup[]): EventGroup[] {
  const bySeq = new Map<number, EventGroup>();
  for (const g of [...older, ...newer]) bySeq.set(g.seq, g);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-KEPT_GROUPS);
}
