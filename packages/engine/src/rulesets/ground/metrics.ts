// Per-game figures for `arbiter sim`: group result, claimed value, DARVO triggers, Blame and
// Denied counts, mean Stress, and how often each rule fired (from the events' `rule` field).

import type { GameEvent } from '../../kernel/index.ts';
import { outcome, tally } from './scoring.ts';
import type { GroundState } from './state.ts';
import { catalog } from './catalog.ts';

// every rule id appears in every game's figures (0 when it never fired), so means are per game
const RULE_KEYS = catalog.rules.map((r) => 'rule:' + r.id);

export function metrics(s: GroundState, events: readonly GameEvent[]): Record<string, number> {
  const t = tally(s);
  let stressSum = 0;
  for (const p of s.players) stressSum += p.stress;
  const out: Record<string, number> = {
    group_success: t.success ? 1 : 0,
    total_claimed: t.total,
    threshold: s.threshold,
    threshold_reachable: 0,
    darvo_triggers: 0,
    blame_tokens: t.blameInPlay,
    denied_problems: t.denied,
    mean_stress: stressSum / s.n,
    bonds: 0,
    rivalries: 0,
  };
  // score distribution: how many won, the best score, and the gap between best and worst seat
  const out2 = outcome(s);
  if (out2 !== null) {
    out.winners = out2.winners.length;
    const sc = out2.scores ?? [];
    out.top_score = sc.length ? Math.max(...sc) : 0;
    out.score_spread = sc.length ? Math.max(...sc) - Math.min(...sc) : 0;
  }
  out.problems_claimed = t.claimedCount;
  let inPlay = 0;
  for (const pr of s.problems) inPlay += pr.value;
  out.threshold_reachable = inPlay >= s.threshold ? 1 : 0;
  for (let a = 0; a < s.n; a++) {
    for (let b = a + 1; b < s.n; b++) {
      const r = s.rel[a * s.n + b];
      if (r === 1) out.bonds++;
      else if (r === 2) out.rivalries++;
    }
  }
  for (const k of RULE_KEYS) out[k] = 0;
  for (const e of events) {
    if (e.type === 'darvo_triggered') out.darvo_triggers++;
    const rule = e.rule;
    if (typeof rule === 'string') {
      const k = 'rule:' + rule;
      out[k] = (out[k] ?? 0) + 1;
    }
  }
  return out;
}
