// Events and actions in words, for `arbiter play`, replays and the readable log.

import type { GameEvent } from '../../kernel/index.ts';
import { SUITS, type GroundGameAction } from './state.ts';

export function describeAction(a: GroundGameAction): string {
  switch (a.type) {
    case 'select': {
      const tgt =
        a.target === null
          ? ''
          : a.action === 'SUPPORT' || a.action === 'ATTACK'
            ? ` seat ${a.target}`
            : ` Problem ${a.target}`;
      return `select ${a.action}${tgt}${a.freedom ? ' (spending Freedom)' : ''}`;
    }
    case 'ground':
      return `GROUND—${a.mode}${a.option ? ` ${a.option} ${a.target}` : ''}`;
    case 'bond':
      return a.accept ? 'accept the Bond' : 'decline the Bond';
    case 'rivalry':
      return a.choice === 'flip' ? 'flip the Rivalry to a Bond' : 'break the Rivalry';
    case 'deny':
      return `DENY Problem ${a.problem}`;
    case 'darvo_attack':
      return `DARVO extra Attack on seat ${a.target}`;
  }
}

export function describeEvent(e: GameEvent): string {
  const who = typeof e.seat === 'number' ? `seat ${e.seat}` : '';
  switch (e.type) {
    case 'revealed':
      return `round ${e.round}: choices revealed`;
    case 'stress':
      return `${who} Stress ${e.from} → ${e.to} (${e.rule})`;
    case 'problem_claimed':
      return `${who} claims Problem ${e.problem} (${e.value} points)`;
    case 'problem_revealed':
      return `${who} reveals Problem ${e.problem}: ${typeof e.suit === 'number' ? SUITS[e.suit] : '?'} ${e.value}`;
    case 'problem_denied':
      return `${who} DENIES Problem ${e.problem}`;
    case 'darvo_triggered':
      return `${who} reaches Stress 5: DARVO begins (DENY next round)`;
    case 'round_ended':
      return `end of round ${e.round}; the Lead passes to seat ${e.lead}`;
    case 'committed':
      return `${who} commits a face-down choice`;
    case 'attack_cancelled':
      return `${who}'s Attack on seat ${e.target} is cancelled by ${e.by === 'protection' ? 'Protection' : 'GROUND—OU'}`;
    case 'game_over':
      return `game over: ${e.total} claimed against threshold ${e.threshold} (${e.success ? 'success' : 'failure'})`;
    default:
      return `${e.type}${who ? ' ' + who : ''}${typeof e.target === 'number' ? ' → seat ' + e.target : ''}${e.rule ? ` (${e.rule})` : ''}`;
  }
}
