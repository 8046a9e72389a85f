// Placement (E04) and the per-match figures `arbiter sim bnc` aggregates.

import type { GameEvent, Outcome } from '../../kernel/index.ts';
import { BEATS } from './beats.ts';
import type { BncState, Contestant } from './state.ts';

/** Sort key: escapees by escape turn, then survivors, then eliminated latest first. */
function rankKey(c: Contestant, turns: number): number {
  if (c.status === 'escaped') return c.at!;
  if (c.status === 'active') return turns + 1;
  return 2 * turns + 2 - c.at!;
}

/** Competition ranking: equal keys share a place; the next place skips the tied ones. */
function placements(s: BncState): number[] {
  const keys = s.contestants.map((c) => rankKey(c, s.config.turns));
  return keys.map((k) => 1 + keys.filter((x) => x < k).length);
}

export function outcome(s: BncState): Outcome | null {
  if (!s.over) return null;
  const places = placements(s);
  const escaped = s.contestants.filter((c) => c.status === 'escaped').map((c) => c.seat);
  const eliminated = s.contestants.filter((c) => c.status === 'eliminated').map((c) => c.seat);
  const survivors = s.contestants.filter((c) => c.status === 'active').map((c) => c.seat);
  return {
    winners: escaped,
    places,
    scores: s.contestants.map((c) => c.reputation),
    reason: s.endReason === 'collapse' ? 'collapse after the final turn' : 'nobody is left inside',
    detail: {
      edition: s.edition,
      end: s.endReason,
      turn: s.turn,
      escaped,
      eliminated,
      survivors,
      warden_down: s.warden.down,
    },
  };
}

export function metrics(s: BncState, events: readonly GameEvent[]): Record<string, number> {
  const m: Record<string, number> = {
    escaped: s.contestants.filter((c) => c.status === 'escaped').length,
    eliminations: s.contestants.filter((c) => c.status === 'eliminated').length,
    survivors: s.contestants.filter((c) => c.status === 'active').length,
    turns: s.turn,
    warden_down: s.warden.down ? 1 : 0,
    collapse: s.endReason === 'collapse' ? 1 : 0,
    beats: 0,
  };
  // every beat gets a figure, zero included, so means are over all games
  for (const b of BEATS) m[`beat_${b.beat}`] = 0;
  for (const e of events) {
    if (e.type !== 'beat') continue;
    m.beats++;
    const k = `beat_${String(e.beat)}`;
    m[k]++;
  }
  if (s.over) placements(s).forEach((p, seat) => (m[`place_seat${seat}`] = p));
  s.contestants.forEach((c) => (m[`escaped_seat${c.seat}`] = c.status === 'escaped' ? 1 : 0));
  return m;
}
