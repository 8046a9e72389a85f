// A heuristic bot for each seat. It reads only its own view and the menu (fair play).

import type { AgentFactory, AgentContext, Json } from '../../kernel/index.ts';
import type { DuelAction } from './types.ts';

interface SeatView {
  credits: number;
  handCount: number;
  hand?: string[];
  maxHand: number;
}
interface DuelView {
  seats: SeatView[];
  remote: { card: string | null; adv: number } | null;
  points: number[];
}

function find(menu: readonly Json[], pred: (a: DuelAction) => boolean): Json | undefined {
  return menu.find((a) => pred(a as unknown as DuelAction));
}

function corpChoice(v: DuelView, menu: readonly Json[]): Json | undefined {
  const runner = v.seats[1];
  return (
    find(menu, (a) => a.do === 'score') ??
    // a spike flatlines a runner holding fewer than three cards
    (runner.handCount < 3 ? find(menu, (a) => a.do === 'play' && a.card === 'spike') : undefined) ??
    (v.points[0] >= 5 && v.points[1] >= 5 ? undefined : find(menu, (a) => a.do === 'play' && a.card === 'venture' && v.points[0] >= 5)) ??
    find(menu, (a) => a.do === 'advance') ??
    (v.remote === null ? find(menu, (a) => a.do === 'install' && a.card === 'ledger') : undefined) ??
    find(menu, (a) => a.do === 'install' && (a.card === 'toll' || a.card === 'bell')) ??
    find(menu, (a) => a.do === 'play' && a.card === 'burn') ??
    find(menu, (a) => a.do === 'credit')
  );
}

function runnerChoice(v: DuelView, menu: readonly Json[]): Json | undefined {
  const me = v.seats[1];
  // a hand under four cards invites a flatline by net damage: refill first
  const low = me.handCount < 4;
  return (
    (low && me.maxHand >= 0 ? find(menu, (a) => a.do === 'draw') : undefined) ??
    (v.remote !== null ? find(menu, (a) => a.do === 'run') : undefined) ??
    find(menu, (a) => a.do === 'continue') ??
    (me.maxHand < 0 || me.handCount > me.maxHand + 1 ? find(menu, (a) => a.do === 'play' && a.card === 'dayoff') : undefined) ??
    find(menu, (a) => a.do === 'install' && a.card === 'coffee') ??
    (me.handCount < 6 ? find(menu, (a) => a.do === 'draw') : undefined) ??
    (me.handCount > 4 ? find(menu, (a) => a.do === 'play' && a.card === 'gamble') : undefined) ??
    find(menu, (a) => a.do === 'credit')
  );
}

export const heuristic: AgentFactory = () => ({
  name: 'heuristic',
  choose(ctx: AgentContext): Json {
    const menu = ctx.menu.actions;
    const v = ctx.view as unknown as DuelView;
    let pick: Json | undefined;
    if (ctx.kind === 'action') pick = ctx.seat === 0 ? corpChoice(v, menu) : runnerChoice(v, menu);
    else if (ctx.kind === 'approach') pick = find(menu, (a) => a.do === 'continue');
    else if (ctx.kind === 'paid') pick = find(menu, (a) => a.do === 'score');
    else if (ctx.kind === 'discard') {
      // keep dayoff and spike, throw away what is least useful
      const order = ['gamble', 'coffee', 'bell', 'toll', 'burn', 'stop', 'venture', 'ledger', 'dayoff', 'spike'];
      const cost = (a: DuelAction) => (a.cards ?? []).reduce((t, c) => t + order.indexOf(c), 0);
      pick = [...menu].sort((x, y) => cost(x as unknown as DuelAction) - cost(y as unknown as DuelAction))[0];
    }
    return pick ?? menu[0];
  },
});

export const agents: Record<string, AgentFactory> = { heuristic };
