// A heuristic bot for each seat. It reads only its own view and the menu (fair play).

import type { AgentContext, AgentEntry, AgentFactory } from '../../kernel/index.ts';
import type { DuelAction, DuelState } from './state.ts';
import type { DuelView } from './view.ts';
import { CARDS } from './cards.ts';

type Menu = readonly DuelAction[];

const find = (menu: Menu, pred: (a: DuelAction) => boolean): DuelAction | undefined => menu.find(pred);
const playing = (card: string) => (a: DuelAction) => a.type === 'play' && a.card === card;
const installing =
  (...cards: string[]) =>
  (a: DuelAction) =>
    a.type === 'install' && cards.includes(a.card);
const is = (type: DuelAction['type']) => (a: DuelAction) => a.type === type;

// U-SPEND (profile 0.4): the corp plays burn only with 4 credits or more, keeping what it needs to
// advance and defend an agenda; the runner plays a gamble once it holds four cards (0.3: five) and
// draws only up to five (0.3: six), so it turns cards into credits for runs and its deck lasts (F-2).
const ICE_CAP = 4;
const BURN_AT = 4;
const DRAW_MAX = 5;
const GAMBLE_HAND = 3;

function corpChoice(v: DuelView, menu: Menu): DuelAction | undefined {
  const runner = v.seats[1];
  return (
    find(menu, is('score')) ??
    // a spike flatlines a runner holding fewer than three cards
    (runner.handCount < 3 ? find(menu, playing('spike')) : undefined) ??
    (v.points[0] >= 5 && v.points[1] >= 5
      ? undefined
      : v.points[0] >= 5
        ? find(menu, playing('venture'))
        : undefined) ??
    // protect an installed agenda before advancing it
    (v.ice.length < ICE_CAP ? find(menu, installing('wall', 'barb')) : undefined) ??
    find(menu, is('advance')) ??
    (v.remote === null ? find(menu, installing('ledger')) : undefined) ??
    find(menu, installing('toll', 'bell')) ??
    (v.seats[0].credits >= BURN_AT ? find(menu, playing('burn')) : undefined) ??
    find(menu, is('credit'))
  );
}

/** Credits to break every ICE on the remote. */
function breakAll(v: DuelView): number {
  return v.ice.reduce((t, c) => t + (CARDS[c].brk ?? 0), 0);
}

function runnerChoice(v: DuelView, menu: Menu): DuelAction | undefined {
  const me = v.seats[1];
  // a hand under four cards invites a flatline by net damage: refill first
  const low = me.handCount < 4;
  return (
    (low && me.maxHand >= 0 ? find(menu, is('draw')) : undefined) ??
    // run only with the credits to break every ICE on the way
    (v.remote !== null && me.credits >= breakAll(v) ? find(menu, is('run')) : undefined) ??
    find(menu, is('continue')) ??
    (me.maxHand < 0 || me.handCount > me.maxHand + 1 ? find(menu, playing('dayoff')) : undefined) ??
    find(menu, installing('coffee')) ??
    (me.handCount < DRAW_MAX ? find(menu, is('draw')) : undefined) ??
    (me.handCount > GAMBLE_HAND ? find(menu, playing('gamble')) : undefined) ??
    find(menu, is('credit'))
  );
}

// keep dayoff and spike, throw away what is least useful
const DISCARD_ORDER = ['gamble', 'coffee', 'bell', 'toll', 'burn', 'stop', 'venture', 'ledger', 'dayoff', 'spike'];
const discardCost = (a: DuelAction) =>
  a.type === 'discard' ? a.cards.reduce((t, c) => t + DISCARD_ORDER.indexOf(c), 0) : 0;

const heuristic: AgentFactory<DuelAction, DuelState, DuelView> = () => ({
  name: 'heuristic',
  choose(ctx: AgentContext<DuelState, DuelAction, DuelView>): DuelAction {
    const menu = ctx.menu.actions;
    const v = ctx.view;
    let pick: DuelAction | undefined;
    if (ctx.kind === 'action') pick = ctx.seat === 0 ? corpChoice(v, menu) : runnerChoice(v, menu);
    else if (ctx.kind === 'approach') pick = find(menu, is('continue'));
    else if (ctx.kind === 'encounter') pick = find(menu, is('break')) ?? find(menu, is('fire'));
    else if (ctx.kind === 'paid') pick = find(menu, is('score'));
    else if (ctx.kind === 'discard') pick = [...menu].sort((x, y) => discardCost(x) - discardCost(y))[0];
    return pick ?? menu[0];
  },
});

export const agents: Record<string, AgentEntry> = {
  heuristic: { factory: heuristic, description: 'scores agendas, installs and runs when it can', reads: 'view' },
};
