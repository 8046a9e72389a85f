// Readable lines for `arbiter play duel`.

import type { GameEvent, Json } from '../../kernel/index.ts';
import { CARDS } from './cards.ts';
import { FATAL_REASON } from './contracts/objective.ts';
import { CORP, RUNNER, type DuelAction, type DuelState } from './state.ts';

const SEAT = ['corp', 'runner'];
const who = (e: GameEvent, k = 'seat') => SEAT[e[k] as number] ?? String(e[k]);

export function describeEvent(e: GameEvent): string {
  const tag = e.contract ? `  [${e.contract}]` : '';
  switch (e.type) {
    case 'clicks_gained':
      return `${who(e)} gains ${e.clicks} clicks`;
    case 'turn_begin':
      return `— turn ${e.number ?? e.turn} (frame #${e.turn}): ${who(e)}'s turn formally begins${tag}`;
    case 'turn_end':
      return `— turn ${e.number ?? e.turn} (frame #${e.turn}): ${who(e)}'s turn formally ends${tag}${status(e)}`;
    case 'handoff':
      return `handoff ${SEAT[e.from as number]} → ${SEAT[e.to as number]}, new frame ${e.turn}${tag}`;
    case 'drew':
      return `${who(e)} draws ${e.n}${e.required ? ' (required draw)' : ''}`;
    case 'action':
      return `${who(e)} starts action #${e.action}: ${e.kind}${e.card ? ' ' + e.card : ''} (pays 1 click${e.credits ? `, ${e.credits} credits` : ''})`;
    case 'effects_begin':
      return `  action #${e.action}: cost reactions drained, effects begin${tag}`;
    case 'action_complete':
      return `  action #${e.action} complete${tag}`;
    case 'child_started':
      return `  action #${e.action} waits on child #${e.child}`;
    case 'child_returned':
      return `  child #${e.child} completed; action #${e.action} returns to effects${tag}`;
    case 'gained':
      return `  ${who(e)} gains ${e.credits} credit`;
    case 'advanced':
      return `  the remote agenda now has ${e.adv} advancement`;
    case 'installed':
      return `  ${who(e)} installs ${e.card ?? 'a card face down in the remote'}${e.where === 'ice' ? ' protecting the remote' : ''}`;
    case 'ice_broken':
      return `  runner breaks ${e.card} (pays ${e.credits} credits)`;
    case 'subroutine':
      return `  ${e.card} fires: ${e.effect}`;
    case 'played':
      return `  ${who(e)} plays ${e.card}`;
    case 'damage':
      if (e.flatline === true)
        return `  runner takes ${e.n} ${e.core ? 'core' : 'net'} damage with ${e.hand} card(s) in hand: flatlined`;
      return `  runner takes ${e.n} ${e.core ? 'core' : 'net'} damage, trashing ${(e.trashed as string[]).join(', ') || 'nothing'}`;
    case 'run_start':
      return `  run #${e.run} begins on the remote`;
    case 'jack_out':
      return `  runner jacks out of run #${e.run}`;
    case 'run_success':
      return `  run #${e.run} is successful`;
    case 'stolen':
      return `  runner steals ${e.card}`;
    case 'breach_empty':
      return `  the remote is empty`;
    case 'run_end':
      return `  run #${e.run} ends (${e.success ? 'successful' : 'unsuccessful'}), receipt #${e.run}`;
    case 'scored':
      return `corp scores ${e.card}`;
    case 'reaction_window':
      return `  checkpoint: reaction window opens for ${(e.abilities as string[]).map((a, i) => `${a} (${SEAT[(e.seats as number[])[i]]})`).join(', ')}`;
    case 'reaction':
      return `  ${who(e)} resolves ${e.src}: +${e.credits} credit`;
    case 'action_phase_end':
      return `${who(e)}'s action phase ends (${e.mode})${tag}`;
    case 'phase':
      return `${who(e)} enters the ${e.phase} phase${tag}`;
    case 'discard_skipped':
      return `${who(e)} skips the discard step${tag}`;
    case 'discarded':
      return `${who(e)} discards ${e.n} card(s)${e.cards ? ': ' + (e.cards as string[]).join(', ') : ''}${tag}`;
    case 'game_over': {
      const w = e.winners as number[];
      return `GAME OVER: ${w.length ? SEAT[w[0]] + ' wins' : 'draw'} (${e.reason})`;
    }
  }
  return e.type;
}

/** "  · points 5–2, credits 4/7, hands 5/3" from a turn-end event's running totals. */
function status(e: GameEvent): string {
  const p = e.points,
    c = e.credits,
    h = e.hands;
  if (!Array.isArray(p) || !Array.isArray(c) || !Array.isArray(h)) return '';
  return `\n          standing: points corp ${p[0]} – runner ${p[1]}; credits ${c[0]} / ${c[1]}; cards in hand ${h[0]} / ${h[1]}`;
}

export function describeAction(a: DuelAction): string {
  switch (a.type) {
    case 'install':
      // an agenda goes into the remote face down: the public log does not name it
      return CARDS[a.card]?.kind === 'agenda' ? 'install a card face down in the remote' : `install ${a.card}`;
    case 'play':
      return `${a.type} ${a.card}`;
    case 'resolve':
      return `resolve ${a.src}`;
    case 'discard':
      return `discard ${a.cards.join('+')}`;
  }
  return a.type;
}

/** Per-game figures for `arbiter sim`. */
export function metrics(s: DuelState, events: readonly GameEvent[]): Record<string, number> {
  let runs = 0,
    steals = 0,
    directed = 0,
    skipped = 0,
    reactions = 0;
  for (const e of events) {
    if (e.type === 'run_start') runs++;
    else if (e.type === 'stolen') steals++;
    else if (e.type === 'action_phase_end' && e.mode === 'directed') directed++;
    else if (e.type === 'discard_skipped') skipped++;
    else if (e.type === 'reaction') reactions++;
  }
  const r = s.result;
  const corpDecked = r !== null && r.reason === FATAL_REASON.empty_draw;
  // the runner's clock: flatlined (damage or a negative limit) once its deck had run dry
  const runnerDry = r !== null && r.winners[0] === CORP && r.reason !== 'points' && s.p[RUNNER].deck.length === 0;
  return {
    turn_frames: s.turns,
    // how games end, as 0/1 per game (their means are rates): the corp winning on points, and
    // ending on a deck-size clock (the corp decked, or the runner flatlined with its deck spent)
    corp_points_win: r !== null && r.reason === 'points' && r.winners.length === 1 && r.winners[0] === CORP ? 1 : 0,
    corp_decked: corpDecked ? 1 : 0,
    runner_dry_flatline: runnerDry ? 1 : 0,
    deck_out_end: corpDecked || runnerDry ? 1 : 0,
    // credits left unspent when the game ended (hoarding shows here)
    corp_credits_end: s.p[CORP].credits,
    runner_credits_end: s.p[RUNNER].credits,
    runs,
    steals,
    directed_ends: directed,
    skipped_discards: skipped,
    reactions,
    core_damage: s.core,
  };
}

type Rec = { [key: string]: Json };
const rec = (v: Json | undefined): Rec => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {});
const items = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);

/** A seat's view in words for agents: whose turn and step, both sides' figures, the remote, the run. */
export function viewText(view: Json, seat: number | null): string {
  const v = rec(view);
  const turn = rec(v.turn);
  const pts = items(v.points);
  const lines: string[] = [
    seat === null ? 'Duel (corp vs runner), watching.' : `Duel: you are the ${SEAT[seat]} (seat ${seat}).`,
    `Turn frame #${turn.id} of the ${SEAT[Number(turn.owner)]}, step ${String(v.step)}; points corp ${pts[0]} – runner ${pts[1]}.`,
  ];
  items(v.seats).forEach((x, i) => {
    const p = rec(x);
    const hand = Array.isArray(p.hand)
      ? `hand ${p.hand.map(String).join(', ') || 'empty'}`
      : `${p.handCount} card(s) in hand`;
    const heap = items(p.heap)
      .map((h) => (rec(h).card === null ? 'face down' : String(rec(h).card)))
      .join(', ');
    const score = items(p.score)
      .map((c) => `${rec(c).card} (${rec(c).pts})`)
      .join(', ');
    lines.push(
      `${SEAT[i]}: ${p.clicks} click(s), ${p.credits} credit(s), ${hand}, deck ${p.deckCount}, max hand ${p.maxHand}; discard pile: ${heap || 'empty'}; scored: ${score || 'nothing'}; installed: ${items(p.installed).map(String).join(', ') || 'nothing'}.`,
    );
  });
  const remote = v.remote === null ? null : rec(v.remote);
  lines.push(
    remote
      ? `The remote server holds ${remote.card === null ? 'a face-down card' : String(remote.card)} with ${remote.adv} advancement; ICE protecting it: ${items(v.ice).map(String).join(', ') || 'none'}.`
      : `The remote server is empty; ICE: ${items(v.ice).map(String).join(', ') || 'none'}.`,
  );
  if (v.run !== null && v.run !== undefined) lines.push(`A run is under way: ${JSON.stringify(v.run)}.`);
  if (v.action !== null && v.action !== undefined) {
    const a = rec(v.action);
    lines.push(`Action #${a.id} of the ${SEAT[Number(a.owner)]} in progress: ${a.kind}, ${a.status}.`);
  }
  const wins = items(v.windows);
  if (wins.length) lines.push(`Reaction windows open: ${JSON.stringify(wins)}.`);
  if (v.owes !== null && v.owes !== undefined) {
    const o = rec(v.owes);
    lines.push(`The ${SEAT[Number(o.seat)]} owes a decision: ${o.kind}.`);
  }
  if (v.result !== null && v.result !== undefined) {
    const r = rec(v.result);
    const w = items(r.winners);
    lines.push(`The game is over: ${w.length ? `${SEAT[Number(w[0])]} wins` : 'a draw'} (${r.reason}).`);
  }
  return lines.join('\n');
}

/**
 * What a seat perceives of an event. Duel's events are written public (DUEL-VIEW): an agenda the
 * corp installs, and the cards the corp discards face down, are left out of the event itself, so
 * every seat perceives every event whole.
 */
export function eventView(e: GameEvent, _seat: number): GameEvent {
  return e;
}
