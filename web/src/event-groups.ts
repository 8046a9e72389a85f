// The live event list's groups: one per submission that showed the caller any event, from the
// match log (what happened before the page opened) and from the socket's frames (what comes after).
import type { Json } from './boards/types.ts';
import { parseLines } from './viewer/replay.ts';

export type EventGroup = { seq: number; who: string | null; events: Json[]; current?: boolean };

/** The most groups the live list keeps (the oldest go first). */
const KEPT_GROUPS = 200;

/**
 * The event groups of a match log (JSON Lines as the server hands it out, read by the viewer's
 * `parseLines`): setup as seq 0, then each submission that shows the caller any event. A log that
 * does not read gives none: the list is a convenience, the socket's frames are the truth.
 */
export function groupsFromLog(text: string): EventGroup[] {
  let lines: ReturnType<typeof parseLines>;
  try {
    lines = parseLines(text);
  } catch {
    return [];
  }
  const out: EventGroup[] = [];
  const add = (seq: Json | undefined, events: Json | undefined) => {
    if (typeof seq === 'number' && Array.isArray(events) && events.length > 0) out.push({ seq, who: null, events });
  };
  const [header, ...entries] = lines;
  add(0, header?.setup_events);
  for (const e of entries) add(e.seq, e.events);
  return out;
}

/** Two lists of groups as one, in seq order, each seq once (a frame's copy wins), the newest kept. */
export function mergeGroups(older: EventGroup[], newer: EventGroup[]): EventGroup[] {
  const bySeq = new Map<number, EventGroup>();
  for (const g of [...older, ...newer]) bySeq.set(g.seq, g);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-KEPT_GROUPS);
}
