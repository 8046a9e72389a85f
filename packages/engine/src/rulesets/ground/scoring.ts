// Game end and the three Modes' scoring (GR-E01..E04), with the tiebreak readings of U11/U12.

import type { GameEvent, Outcome } from '../../kernel/index.ts';
import { BOND, type GroundState } from './state.ts';

type Tally = {
  total: number;
  success: boolean;
  blameHeld: number[];
  personal: number[];
  bonds: number[];
  denied: number;
  claimedCount: number;
  blameInPlay: number;
};

export function tally(s: GroundState): Tally {
  const n = s.n;
  const blameHeld = new Array(n).fill(0);
  let blameInPlay = 0;
  for (const p of s.players) {
    if (p.token.side === 'blame' && p.token.at >= 0) {
      blameHeld[p.token.at]++;
      blameInPlay++;
    }
  }
  let total = 0;
  let denied = 0;
  let claimedCount = 0;
  const claimedValue = new Array(n).fill(0);
  for (const pr of s.problems) {
    if (pr.denied) denied++;
    if (pr.claimedBy >= 0) {
      total += pr.value;
      claimedCount++;
      claimedValue[pr.claimedBy] += pr.value;
    }
  }
  const bonds = new Array(n).fill(0);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) if (a !== b && s.rel[a * n + b] === BOND) bonds[a]++;
  const personal = claimedValue.map((v, i) => v - blameHeld[i]); // GR-E03, GR-T02
  return { total, success: total >= s.threshold, blameHeld, personal, bonds, denied, claimedCount, blameInPlay };
}

/** Bond networks (GR-E04): connected components over Bonds only, lowest seat first. */
function coalitions(s: GroundState): number[][] {
  const n = s.n;
  const seen = new Array(n).fill(false);
  const out: number[][] = [];
  for (let start = 0; start < n; start++) {
    if (seen[start]) continue;
    const comp: number[] = [];
    const stack = [start];
    seen[start] = true;
    while (stack.length) {
      const a = stack.pop()!;
      comp.push(a);
      for (let b = 0; b < n; b++) {
        if (!seen[b] && s.rel[a * n + b] === BOND) {
          seen[b] = true;
          stack.push(b);
        }
      }
    }
    comp.sort((x, y) => x - y);
    out.push(comp);
  }
  return out;
}

/** Rank entries by a key list (each key: higher is better); equal keys share a place. */
function rank<T>(items: T[], key: (t: T) => number[]): number[] {
  const keys = items.map(key);
  const cmp = (a: number[], b: number[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return b[i] - a[i];
    return 0;
  };
  return keys.map((k) => 1 + keys.filter((o) => cmp(o, k) < 0).length);
}

export function outcome(s: GroundState): Outcome | null {
  if (s.phase !== 'over') return null;
  const t = tally(s);
  const n = s.n;
  const all = Array.from({ length: n }, (_, i) => i);
  if (s.mode === 'shared-ground') {
    // GR-E02: one shared score; mastery = successes (claimed Problems, U11) − Blame in play − Denied
    const mastery = t.claimedCount - t.blameInPlay - t.denied;
    return {
      winners: t.success ? all : [],
      places: all.map(() => 1),
      scores: all.map(() => t.total),
      reason: t.success ? 'group success' : 'group failure',
      detail: {
        mode: s.mode,
        total: t.total,
        threshold: s.threshold,
        success: t.success,
        mastery,
        successes: t.claimedCount,
        blame_in_play: t.blameInPlay,
        denied: t.denied,
      },
    };
  }
  if (!t.success) {
    // the group must meet the threshold first (GR-E03/E04); a group failure has no winner (U12)
    return {
      winners: [],
      places: all.map(() => 1),
      scores: t.personal,
      reason: 'group failure, nobody wins',
      detail: { mode: s.mode, total: t.total, threshold: s.threshold, success: false },
    };
  }
  if (s.mode === 'personal-edge') {
    // GR-E03: highest personal score; then lower Stress, then more Bonds; still equal: shared victory (U12)
    const places = rank(all, (i) => [t.personal[i], -s.players[i].stress, t.bonds[i]]);
    return {
      winners: all.filter((i) => places[i] === 1),
      places,
      scores: t.personal,
      reason: 'group success; highest personal score wins',
      detail: {
        mode: s.mode,
        total: t.total,
        threshold: s.threshold,
        success: true,
        bonds: t.bonds,
        blame: t.blameHeld,
      },
    };
  }
  // GR-E04: coalition score = sum of members' personal scores; tiebreak lower combined Stress, fewer Blame
  const cs = coalitions(s);
  const score = cs.map((c) => c.reduce((a, i) => a + t.personal[i], 0));
  const stressSum = cs.map((c) => c.reduce((a, i) => a + s.players[i].stress, 0));
  const blame = cs.map((c) => c.reduce((a, i) => a + t.blameHeld[i], 0));
  const cPlaces = rank(
    cs.map((_, k) => k),
    (k) => [score[k], -stressSum[k], -blame[k]],
  );
  const places = new Array(n).fill(0);
  const scores = new Array(n).fill(0);
  cs.forEach((c, k) =>
    c.forEach((i) => {
      places[i] = cPlaces[k];
      scores[i] = score[k];
    }),
  );
  return {
    winners: all.filter((i) => places[i] === 1),
    places,
    scores,
    reason: 'group success; highest coalition wins',
    detail: {
      mode: s.mode,
      total: t.total,
      threshold: s.threshold,
      success: true,
      coalitions: cs,
      coalition_scores: score,
    },
  };
}

export function finalEvents(s: GroundState, ev: GameEvent[]): void {
  const t = tally(s);
  ev.push({ type: 'game_over', total: t.total, threshold: s.threshold, success: t.success, rule: 'GR-R09' });
  ev.push({
    type: 'scored',
    mode: s.mode,
    rule: s.mode === 'shared-ground' ? 'GR-E02' : s.mode === 'personal-edge' ? 'GR-E03' : 'GR-E04',
  });
}
