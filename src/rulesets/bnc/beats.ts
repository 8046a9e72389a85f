// Beats out of an event stream (a match log's events, in order).

import type { GameEvent } from '../../kernel/index.ts';

export interface BeatLine { seq: number; turn: number; beat: string; detail: Record<string, unknown> }

/** `entries` are the log's submission lines; every beat event keeps the seq that caused it. */
export function beatsOf(entries: readonly { seq: number; events: readonly GameEvent[] }[]): BeatLine[] {
  const out: BeatLine[] = [];
  for (const e of entries) {
    for (const ev of e.events) {
      if (ev.type !== 'beat') continue;
      const { type: _t, beat, turn, ...detail } = ev;
      out.push({ seq: e.seq, turn: turn as number, beat: String(beat), detail });
    }
  }
  return out;
}
