// Events and actions in words, for `arbiter play`, replays and the readable log.

import type { GameEvent, Json } from '../../kernel/index.ts';
import { SUITS, type GroundGameAction } from './state.ts';

/** What a Select choice aims at, in words: a seat for SUPPORT and ATTACK, else a Problem slot. */
function targetWords(action: unknown, target: unknown): string {
  // GROUND and untargeted choices carry no target (null, or -1 in some records)
  if (typeof target !== 'number' || target < 0) return '';
  return action === 'SUPPORT' || action === 'ATTACK' ? ` seat ${target}` : ` Problem ${target}`;
}

export function describeAction(a: GroundGameAction): string {
  switch (a.type) {
    case 'select':
      return `select ${a.action}${targetWords(a.action, a.target)}${a.freedom ? ' (spending Freedom)' : ''}`;
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
    case 'revealed': {
      // the only record of who chose what once the round has resolved (the view clears choices)
      const picks = items(e.choices).map((c) => {
        const r = rec(c);
        return `seat ${r.seat} ${r.action}${targetWords(r.action, r.target)}${r.freedom ? ' (Freedom)' : ''}`;
      });
      return `round ${e.round}: choices revealed${picks.length ? ` — ${picks.join('; ')}` : ''}`;
    }
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
    case 'ground': {
      // a GROUND mode resolves (GR, OU, or a mode aimed at a seat); a mode without a target has none
      const aim = typeof e.target === 'number' && e.target >= 0 ? ` on seat ${e.target}` : '';
      return `${who} resolves GROUND—${e.mode}${e.option ? ` ${e.option}` : ''}${aim}`;
    }
    case 'attack_cancelled':
      return `${who}'s Attack on seat ${e.target} is cancelled by ${e.by === 'protection' ? 'Protection' : 'GROUND—OU'}`;
    case 'game_over':
      return `game over: ${e.total} claimed against threshold ${e.threshold} (${e.success ? 'success' : 'failure'})`;
    default: {
      const words = moreWords(e, who);
      if (words !== null) return `${words}${e.rule ? ` (${e.rule})` : ''}`;
      // the plain form, for an event this file does not know
      return `${e.type}${who ? ' ' + who : ''}${typeof e.target === 'number' ? ' → seat ' + e.target : ''}${e.rule ? ` (${e.rule})` : ''}`;
    }
  }
}

type Rec = { [key: string]: Json };
const rec = (v: Json | undefined): Rec => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {});
const items = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);

/** A seat's view in words for agents: round and phase, every player's public figures, own hand, Problems. */
export function viewText(view: Json, seat: number | null): string {
  const v = rec(view);
  const lines: string[] = [
    `GROUND, ${String(v.mode)} mode: round ${v.round}, phase ${v.phase}, lead seat ${v.lead}; the table needs ${v.threshold} points of claimed Problems. ${seat === null ? 'You are watching.' : `You are seat ${seat}.`}`,
  ];
  for (const x of items(v.players)) {
    const p = rec(x);
    const me = p.seat === seat ? ' (you)' : '';
    const hand = p.hand ? `, hand ${JSON.stringify(p.hand)}` : `, ${p.handSize} card(s) in hand`;
    const choice = p.choice ? `, choice ${JSON.stringify(p.choice)}` : p.committed ? ', committed face down' : '';
    const ground = p.ground ? `, GROUND ${JSON.stringify(p.ground)}` : '';
    lines.push(
      `seat ${p.seat}${me}: Stress ${p.stress}, Freedom ${p.freedom}${p.darvo ? `, DARVO ${JSON.stringify(p.darvo)}` : ''}, protection ${JSON.stringify(p.protection)}, claimed ${JSON.stringify(p.claimed)}${hand}${choice}${ground}${p.reverseTarget !== null && p.reverseTarget !== undefined ? `, REVERSE targets seat ${p.reverseTarget}` : ''}.`,
    );
  }
  for (const x of items(v.problems)) {
    const pr = rec(x);
    const card = rec(pr.card);
    lines.push(
      pr.card
        ? `Problem ${pr.slot}: ${card.name} (${card.suit} ${card.value})${pr.faceUp ? ' face up' : ' face down'}${pr.denied ? ', DENIED' : ''}${pr.claimedBy !== null && pr.claimedBy !== undefined ? `, claimed by seat ${pr.claimedBy}` : ''}.`
        : `Problem ${pr.slot}: unknown, face down${pr.denied ? ', DENIED' : ''}.`,
    );
  }
  const rels = items(v.relations).map((r) => `${rec(r).kind} ${rec(r).a}–${rec(r).b}`);
  lines.push(`Relations: ${rels.length ? rels.join(', ') : 'none'}. Deck ${v.deckSize}, discard ${v.discardSize}.`);
  if (v.decision) lines.push(`Open decision: ${JSON.stringify(v.decision)}.`);
  return lines.join('\n');
}

/**
 * What a seat perceives of an event. GROUND's events carry no hidden value (a commit says only
 * that a seat committed; choices and modes appear once revealed; a draw names no card), so each
 * seat perceives each event whole; test/agents/observe.test.ts checks it against `secrets`.
 */
export function eventView(e: GameEvent, _seat: number): GameEvent {
  return e;
}

const other = (v: Json | undefined) => (typeof v === 'number' && v >= 0 ? `seat ${v}` : 'nobody');
const via = (v: Json | undefined) =>
  v === 'bond' ? ' through their Bond' : v === 'rivalry' ? ' through their Rivalry' : '';

/** Words for the resolution events (each names its rule id after the words, as the others do). */
function moreWords(e: GameEvent, who: string): string | null {
  const to = other(e.target as Json);
  switch (e.type) {
    case 'support':
      return `${who} supports ${to}${via(e.through as Json)}${e.fresh ? ' (a new Bond)' : ''}`;
    case 'attack':
      return `${who} attacks ${to}${via(e.through as Json)}`;
    case 'bond_formed':
      return `${who} and ${to} form a Bond`;
    case 'bond_declined':
      return `${to} declines a Bond with ${who}`;
    case 'rivalry_formed':
      return `${who} and ${to} become rivals (a Rivalry forms)`;
    case 'relation_broken':
      return `the relation between ${who} and ${to} breaks`;
    case 'relation_flipped':
      return `the relation between ${who} and ${to} turns into a ${e.to === 'bond' ? 'Bond' : 'Rivalry'}`;
    case 'no_free_slot':
      return `${who} and ${to}: no free relation slot, so no relation forms`;
    case 'blame_placed':
      return `${who} places Blame on ${to}`;
    case 'blame_removed':
      return `${who} removes the Blame from ${other(e.owner as Json)}`;
    case 'blame_stays':
      return `the Blame stays in front of ${other(e.at as Json)}`;
    case 'focus_placed':
      return `${who} places the Focus on ${to}`;
    case 'focus_not_placed':
      return `${who}'s Focus stays where it is`;
    case 'focus_removed':
      return `${who}'s Focus is removed`;
    case 'protection_gained':
      return `${who} gains a Protection token`;
    case 'reverse':
      return `${who} REVERSES onto ${to}: the Focus flips to Blame`;
    case 'reverse_rejected':
      return `${to} rejects ${who}'s REVERSE`;
    case 'darvo_advanced':
      return `${who}'s DARVO moves on to ${String(e.next)}`;
    case 'darvo_attack':
      return `${who}'s DARVO makes an extra Attack on ${to}${e.auto ? ' (chosen automatically)' : ''}`;
    case 'darvo_cancelled':
      return `${who}'s DARVO is cancelled by ${other(e.by as Json)}'s Support`;
    case 'darvo_ended':
      return `${who}'s DARVO ends`;
    case 'darvo_will_end':
      return `${who}'s DARVO will end after this stage`;
    case 'darvo_no_retrigger':
      return `${who} cannot start DARVO again yet`;
    case 'darvo_not_regulated':
      return `${who}'s Support does not calm ${to}'s DARVO`;
    case 'deny_no_target':
      return `${who}'s DENY finds no Problem to deny`;
    case 'investigate_missed':
      return `${who} investigates Problem ${e.problem} but finds nothing new`;
    case 'investigate_untargeted':
      return `${who} investigates without a target`;
    case 'solve_blocked':
      return `${who} cannot solve Problem ${e.problem}`;
    case 'solve_lost':
      return `${who} loses Problem ${e.problem} to ${other(e.claimedBy as Json)}, who solved it first`;
    case 'problem_restored':
      return `${who} restores Problem ${e.problem}`;
    case 'freedom_ready':
      return `${who}'s Freedom is ready again`;
    case 'freedom_spent':
      return `${who} spends Freedom`;
    case 'drew':
      return `${who} draws a card`;
    case 'draw_skipped':
      return `${who} draws nothing (the deck is empty)`;
    case 'deck_reshuffled':
      return `the deck is reshuffled (${String(e.size)} cards)`;
    case 'ground_committed':
      return `${who} commits a GROUND mode face down`;
    case 'ground_revealed': {
      const picks = items(e.choices as Json).map((c) => {
        const r = rec(c);
        return `seat ${String(r.seat)} GROUND—${String(r.mode)}${r.option ? ` ${String(r.option)}${targetWords('SUPPORT', r.target)}` : ''}`;
      });
      return `GROUND modes revealed: ${picks.join('; ') || 'none'}`;
    }
    case 'scored':
      return 'the game is scored';
    default:
      return null;
  }
}
