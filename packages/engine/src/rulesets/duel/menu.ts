// Menus: every element is a complete action that validate accepts verbatim.

import type { Menu, Pending } from '../../kernel/index.ts';
import { CARDS } from './cards.ts';
import { effectiveMaxHand, paidOptions } from './rules.ts';
import { CORP, type DuelAction, type DuelState } from './state.ts';

const CREDIT: DuelAction = { type: 'credit' };
const DRAW: DuelAction = { type: 'draw' };
const ADVANCE: DuelAction = { type: 'advance' };
const RUN: DuelAction = { type: 'run' };
const SCORE: DuelAction = { type: 'score' };
const PASS: DuelAction = { type: 'pass' };
const CONTINUE: DuelAction = { type: 'continue' };
const JACK_OUT: DuelAction = { type: 'jack_out' };
const BREAK: DuelAction = { type: 'break' };
const FIRE: DuelAction = { type: 'fire' };

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
    out.push(d.kind === 'operation' || d.kind === 'event' ? { type: 'play', card: c } : { type: 'install', card: c });
  }
  return out;
}

/** Distinct multisets of `k` cards from `hand`, each sorted. */
function batches(hand: readonly string[], k: number): string[][] {
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

/** The contract's `legal`: the menu is finite, so it has no templates. */
export function legal(s: DuelState, seat: number): Menu<DuelAction> {
  return { actions: menuActions(s, seat) };
}

function menuActions(s: DuelState, seat: number): DuelAction[] {
  if (s.result !== null || s.ask === null || s.ask.seat !== seat) return [];
  switch (s.ask.kind) {
    case 'action':
      return actionMenu(s, seat);
    case 'paid':
      return paidOptions(s, seat) ? [SCORE, PASS] : [PASS];
    case 'react': {
      const w = s.win[s.win.length - 1];
      return distinct(w.abilities.filter((a) => a.who === seat).map((a) => a.src)).map((src) => ({
        type: 'resolve' as const,
        src,
      }));
    }
    case 'approach':
      return [CONTINUE, JACK_OUT];
    case 'encounter': {
      const r = s.run;
      const brk = r === null ? 0 : (CARDS[s.ice[r.pos]].brk ?? 0);
      return s.p[seat].credits >= brk ? [BREAK, FIRE] : [FIRE];
    }
    case 'discard':
      return batches(s.p[seat].hand, s.p[seat].hand.length - effectiveMaxHand(s, seat)).map((cards) => ({
        type: 'discard' as const,
        cards,
      }));
  }
  return [];
}

/** The one decision owed now, if any (a discard names how many cards). */
export function pending(s: DuelState): Pending[] {
  if (s.result !== null || s.ask === null) return [];
  const p: Pending = { seat: s.ask.seat, kind: s.ask.kind };
  if (s.ask.kind === 'discard') p.count = s.ask.count;
  return [p];
}
