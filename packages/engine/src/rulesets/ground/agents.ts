// A heuristic GROUND policy. It reads only its own view and menu (a fair agent): claim what it
// can, ground itself when stressed, support Bonds and stressed players, investigate otherwise,
// and answer mid-resolution decisions in a cooperative way. Ties are broken by the seeded agent
// random so different seeds play differently.

import type { Agent, AgentContext, AgentFactory } from '../../kernel/index.ts';
import type { GroundGameAction, GroundState } from './state.ts';
import type { GroundView, GroundViewPlayer, GroundViewProblem } from './view.ts';

function num(v: number | null | undefined, d = -1): number {
  return typeof v === 'number' ? v : d;
}

type Ctx = AgentContext<GroundState, GroundGameAction, GroundView>;

/** A Problem's value once it has been seen face up (`d` while it is anonymous or out of range). */
const cardValue = (problems: GroundViewProblem[], slot: number, d: number): number =>
  num(problems[slot]?.card?.value, d);

/**
 * Whether a GROUND option will act, judged from the view after Reveal (choices, DARVO markers and
 * REVERSE targets are public). The menu offers the watching options against every candidate (U23);
 * an agent should not pick one that guards against nothing.
 */
function groundActs(a: GroundGameAction, players: GroundViewPlayer[], seat: number): boolean {
  if (a.type !== 'ground' || a.mode === 'GR') return true;
  const q = a.target ?? -1;
  const other = players[q];
  switch (a.option) {
    case 'cancel': {
      const c = other?.choice ?? null;
      return (c !== null && c.action === 'ATTACK' && c.target === seat) || other?.darvo === 'ATTACK';
    }
    case 'protect':
      return players.some((p) => p.darvo === 'DENY');
    case 'reject_reverse':
      return other?.darvo === 'REVERSE' && other.reverseTarget === seat;
  }
  return true;
}

function pickBest(
  actions: GroundGameAction[],
  score: (a: GroundGameAction) => number,
  rnd: Ctx['random'],
): GroundGameAction {
  let best: GroundGameAction[] = [];
  let bestScore = -Infinity;
  for (const a of actions) {
    const sc = score(a);
    if (sc > bestScore) {
      bestScore = sc;
      best = [a];
    } else if (sc === bestScore) best.push(a);
  }
  return best[rnd.int(best.length)];
}

function heuristic(): Agent<GroundGameAction, GroundState, GroundView> {
  return {
    name: 'heuristic',
    choose(ctx: Ctx): GroundGameAction {
      // the runner's per-seat generator (seeded from match seed and seat): no private stream needed
      const rnd = ctx.random;
      const v = ctx.view;
      const players = v.players;
      const me = players[ctx.seat];
      const problems = v.problems;
      const relWith = (q: number): string | null => {
        for (const r of v.relations)
          if ((r.a === ctx.seat && r.b === q) || (r.b === ctx.seat && r.a === q)) return r.kind;
        return null;
      };
      const actions = ctx.menu.actions;
      const myStress = me.stress;
      switch (ctx.kind) {
        case 'select':
          return pickBest(
            actions,
            (a) => {
              if (a.type !== 'select') return 0;
              const t = num(a.target);
              switch (a.action) {
                case 'SOLVE':
                  return 100 + cardValue(problems, t, 1) - (a.freedom ? 5 : 0);
                case 'GROUND':
                  return myStress >= 4 ? 90 : myStress === 3 ? 30 : 5;
                case 'SUPPORT': {
                  const other = players[t];
                  const rel = relWith(t);
                  let sc = 20 + 4 * other.stress;
                  if (rel === 'bond' && other.darvo !== 'OFF') sc += 50; // regulate a Bond's DARVO (GR-A04)
                  if (rel === 'bond') sc += 5;
                  if (rel === 'rivalry') sc += 3;
                  return sc - (a.freedom ? 40 : 0);
                }
                case 'INVESTIGATE':
                  return (t >= 0 ? 45 : 25) - (a.freedom ? 40 : 0);
                case 'ATTACK':
                  // a stressed player who will not ground lashes out at a Rival
                  return relWith(t) === 'rivalry' ? 2 : 0;
              }
              return 0;
            },
            rnd,
          );
        case 'ground':
          return pickBest(
            actions,
            (a) => {
              if (a.type !== 'ground') return 0;
              if (!groundActs(a, players, ctx.seat)) return -100;
              if (a.mode === 'GR') return myStress >= 3 || me.freedom === 'SPENT' || me.darvo !== 'OFF' ? 60 : 10;
              switch (a.option) {
                case 'restore':
                  return 50;
                case 'cancel':
                  return 40;
                case 'reject_reverse':
                  return 55;
                case 'remove_blame':
                  return 35;
                case 'protect':
                  return 30;
                case 'break':
                  return relWith(num(a.target)) === 'rivalry' ? 20 : -10;
              }
              return 0;
            },
            rnd,
          );
        case 'bond_accept':
          return actions.find((a) => a.type === 'bond' && a.accept) ?? actions[0];
        case 'rivalry_choice':
          return actions.find((a) => a.type === 'rivalry' && a.choice === 'flip') ?? actions[0];
        case 'deny_target':
          // the least damaging DENY: the lowest-value Problem
          return pickBest(actions, (a) => (a.type === 'deny' ? -cardValue(problems, a.problem, 0) : 0), rnd);
        case 'darvo_attack_target':
          return pickBest(
            actions,
            (a) =>
              a.type !== 'darvo_attack'
                ? 0
                : relWith(a.target) === 'rivalry'
                  ? 2
                  : relWith(a.target) === 'bond'
                    ? -2
                    : 0,
            rnd,
          );
      }
      return actions[rnd.int(actions.length)];
    },
  };
}

/**
 * A competitive policy for the scoring Modes: it still claims what it can and grounds when
 * stressed, but once the group total is safe (or out of reach) it attacks the seat with the best
 * personal score, accepts Bonds only where Bonds score (COALITIONS), breaks Rivalries instead of
 * flipping them, and aims DENY and the DARVO Attack at what helps others most.
 */
function rival(): Agent<GroundGameAction, GroundState, GroundView> {
  return {
    name: 'rival',
    choose(ctx: Ctx): GroundGameAction {
      // the runner's per-seat generator (seeded from match seed and seat): no private stream needed
      const rnd = ctx.random;
      const v = ctx.view;
      const players = v.players;
      const me = players[ctx.seat];
      const myStress = me.stress;
      const valueOf = (slot: number) => cardValue(v.problems, slot, 0);
      const personal = players.map((p) => p.claimed.reduce((a, slot) => a + valueOf(slot), 0));
      const total = personal.reduce((a, b) => a + b, 0);
      const groupSafe = total >= v.threshold;
      const coalitions = v.mode === 'bonded-coalitions';
      const actions = ctx.menu.actions;
      switch (ctx.kind) {
        case 'select':
          return pickBest(
            actions,
            (a) => {
              if (a.type !== 'select') return 0;
              const t = num(a.target);
              switch (a.action) {
                case 'SOLVE':
                  return 100 + valueOf(t) - (a.freedom ? 5 : 0);
                case 'GROUND':
                  return myStress >= 4 ? 90 : 5;
                case 'ATTACK':
                  return groupSafe ? 50 + 10 * personal[t] : 8 + personal[t];
                case 'INVESTIGATE':
                  return (t >= 0 ? 40 : 20) - (a.freedom ? 40 : 0);
                // in COALITIONS a Bond pools scores, so it courts partners when nothing better is on offer
                case 'SUPPORT':
                  return coalitions ? 25 + 5 * players[t].stress : 0;
              }
              return 0;
            },
            rnd,
          );
        case 'ground':
          return pickBest(
            actions,
            (a) =>
              a.type !== 'ground'
                ? 0
                : !groundActs(a, players, ctx.seat)
                  ? -100
                  : a.mode === 'GR'
                    ? 40
                    : a.option === 'cancel' || a.option === 'reject_reverse'
                      ? 60
                      : a.option === 'remove_blame'
                        ? 50
                        : 10,
            rnd,
          );
        case 'bond_accept':
          return actions.find((a) => a.type === 'bond' && a.accept === coalitions) ?? actions[0];
        case 'rivalry_choice':
          return (
            actions.find((a) => a.type === 'rivalry' && a.choice === (coalitions ? 'flip' : 'break')) ?? actions[0]
          );
        case 'deny_target':
          return pickBest(actions, (a) => (a.type === 'deny' ? valueOf(a.problem) : 0), rnd);
        case 'darvo_attack_target':
          return pickBest(actions, (a) => (a.type === 'darvo_attack' ? personal[a.target] : 0), rnd);
      }
      return actions[rnd.int(actions.length)];
    },
  };
}

export const agents: Record<'heuristic' | 'rival', AgentFactory<GroundGameAction, GroundState, GroundView>> = {
  heuristic: () => heuristic(),
  rival: () => rival(),
};
