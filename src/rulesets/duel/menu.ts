// Menus: every element is a complete action that validate accepts verbatim.

import { CARDS } from './cards.ts';
import { effectiveMaxHand, paidOptions } from './engine.ts';
import { CORP, type DuelAction, type DuelState } from './types.ts';

const CREDIT: DuelAction = { do: 'credit' };
const DRAW: DuelAction = { do: 'draw' };
const ADVANCE: DuelAction = { do: 'advance' };
const RUN: DuelAction = { do: 'run' };
const SCORE: DuelAction = { do: 'score' };
const PASS: DuelAction = { do: 'pass' };
const CONTINUE: DuelAction = { do: 'continue' };
const JACK_OUT: DuelAction = { do: 'jack_out' };

function distinct(cards: readonly string[]): string[] {
  return [...new Set(cards)].sort();
}

function actionMenu(s: DuelState, seat: number): DuelAction[] {
  const me = s.p[seat];
  const out: DuelAction[] = [CREDIT];
  if (me.deck.length > 0) out.push(DRAW);
  if (seat === CORP && s.remote !== null && me.credits >= 1) out.push(ADVANCE);
  if (seat !== CORP) out.push(RUN);
  for (const c of distinct(me.hand)) {
    const d = CARDS[c];
    if (d.cost > me.credits) continue;
    const verb = d.kind === 'operation' || d.kind === 'event' ? 'play' : 'install';
    out.push({ do: verb, card: c });
  }
  return out;
}

/** Distinct multisets of `k` cards from `hand`, each sorted. */
export function batches(hand: readonly string[], k: number): string[][] {
  const sorted = hand.slice().sort();
  const out: string[][] = [];
  const cur: string[] = [];
  const rec = (start: number) => {
    if (cur.length === k) {
      out.push(cur.slice());
      return;
    }
    for (let i = start; i < sorted.length; i++) {
      if (i > start && sorted[i] === sorted[i - 1]) continue;
      cur.push(sorted[i]);
      rec(i + 1);
      cur.pop();
    }
  };
  rec(0);
  return out;
}

export function menu(s: DuelState, seat: number): DuelAction[] {
  if (s.result !== null || s.ask === null || s.ask.seat !== seat) return [];
  switch (s.ask.kind) {
    case 'action':
      return actionMenu(s, seat);
    case 'paid':
      return paidOptions(s, seat) ? [SCORE, PASS] : [PASS];
    case 'react': {
      const w = s.win[s.win.length - 1];
      return distinct(w.abilities.filter((a) => a.who === seat).map((a) => a.src)).map((src) => ({ do: 'resolve', src }));
    }
    case 'approach':
      return [CONTINUE, JACK_OUT];
    case 'discard':
      return batches(s.p[seat].hand, s.p[seat].hand.length - effectiveMaxHand(s, seat)).map((cards) => ({ do: 'discard', cards }));
  }
  return [];
}
