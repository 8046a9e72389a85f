// Branch-coverage goals for the explorer: each contract branch the CI configuration must reach.

import type { GameEvent, Goal } from '../../kernel/index.ts';
import { CARDS } from './cards.ts';
import { CORP, RUNNER, type DuelState } from './state.ts';

const over = (reason: string) => (evs: readonly GameEvent[]) =>
  evs.some((e) => e.type === 'game_over' && e.reason === reason);

export const goals: Goal<DuelState>[] = [
  {
    id: 'directed_end',
    description: 'PhaseEndDirected: a terminal operation ends the action phase',
    hit: (evs) => evs.some((e) => e.type === 'action_phase_end' && e.mode === 'directed'),
  },
  {
    id: 'ordinary_end',
    description: 'PhaseEndOrdinary: the action phase ends with no clicks left',
    hit: (evs) => evs.some((e) => e.type === 'action_phase_end' && e.mode === 'ordinary'),
  },
  {
    id: 'skipped_discard',
    description: 'DiscardStep skip branch',
    hit: (evs) => evs.some((e) => e.type === 'discard_skipped'),
  },
  {
    id: 'skip_shields_negative_limit',
    description: 'DiscardStep skip branch taken while the maximum hand size is negative (no loss)',
    hit: (evs) => evs.some((e) => e.type === 'discard_skipped' && (e.max as number) < 0),
  },
  {
    id: 'discard_batch',
    description: 'DiscardStep with a nonempty batch',
    hit: (evs) => evs.some((e) => e.type === 'discarded'),
  },
  {
    id: 'negative_limit_loss',
    description: 'DoFatal: negative maximum hand size at the discard step',
    hit: over('negative hand limit'),
  },
  { id: 'damage_loss', description: 'DoFatal: more damage than cards in hand', hit: over('flatline') },
  { id: 'decking', description: 'DoFatal: required draw from an empty deck', hit: over('decked') },
  { id: 'points_win', description: 'DoCheckpoint: one objective winner', hit: over('points') },
  {
    id: 'simultaneous_draw',
    description: 'DoCheckpoint: two winners at once is a draw',
    hit: over('simultaneous win: draw'),
  },
  {
    id: 'nested_return',
    description: 'ActionNestedReturn5: a run completes and its action returns',
    hit: (evs) => evs.some((e) => e.type === 'child_returned'),
  },
  {
    id: 'cost_reaction',
    description: 'ActionEffectsBegin5 waits for a cost reaction',
    hit: (evs) => evs.some((e) => e.type === 'reaction' && e.src === 'toll'),
  },
  { id: 'handoff', description: 'TurnHandoff5 to the other seat', hit: (evs) => evs.some((e) => e.type === 'handoff') },
  {
    id: 'ice_broken',
    description: 'EncounterIce: the runner pays to break ICE and the run goes on',
    hit: (evs) => evs.some((e) => e.type === 'ice_broken'),
  },
  {
    id: 'ice_ends_run',
    description: 'EncounterIce: an end-the-run subroutine fires and the run ends unsuccessful',
    hit: (evs) => evs.some((e) => e.type === 'subroutine' && e.effect === 'end the run'),
  },
  {
    id: 'ice_damage',
    description: 'EncounterIce, DUEL-DMG: a damage subroutine fires during a run',
    hit: (evs) => evs.some((e) => e.type === 'subroutine' && e.effect === '2 net damage'),
  },
  {
    id: 'success_past_ice',
    description: 'EncounterIce, DUEL-RUN: a run gets past the ICE on the remote and succeeds',
    hit: (evs, before) => before.ice.length > 0 && evs.some((e) => e.type === 'run_success'),
  },
  {
    id: 'ice_unaffordable',
    description:
      'EncounterIce, U-BREAK: the runner meets ICE it has too few credits to break, so the subroutine is its only choice',
    hit: (evs, before) =>
      before.run !== null &&
      before.run.stage === 'ice' &&
      before.p[RUNNER].credits < (CARDS[before.ice[before.run.pos]].brk ?? 0) &&
      evs.some((e) => e.type === 'subroutine'),
  },
  {
    id: 'steal',
    description: 'DUEL-RUN: a breach steals the remote agenda',
    hit: (evs) => evs.some((e) => e.type === 'stolen'),
  },
  {
    id: 'breach_empty',
    description: 'DUEL-RUN: a breach finds the remote empty',
    hit: (evs) => evs.some((e) => e.type === 'breach_empty'),
  },
  {
    id: 'jack_out',
    description: 'DUEL-RUN: the runner jacks out at the approach',
    hit: (evs) => evs.some((e) => e.type === 'jack_out'),
  },
  {
    id: 'corp_score',
    description: 'DUEL-PAID: the corp scores a fully advanced agenda in a paid-ability window',
    hit: (evs) => evs.some((e) => e.type === 'scored'),
  },
  {
    id: 'score_short_of_win',
    description:
      'PointsCheckpointDue: the corp scores an agenda that does not win (its checkpoint still comes at once)',
    hit: (evs) => evs.some((e) => e.type === 'scored') && !evs.some((e) => e.type === 'game_over'),
  },
  {
    id: 'begin_beside_other_abilities',
    description:
      'TurnBeginTriggers: the corp\'s turn begins while the runner has two "when your turn begins" cards installed (neither fires)',
    // installed cards stay installed, so the after-state holds what was installed at the begin
    hit: (evs, _before, after) =>
      evs.some((e) => e.type === 'turn_begin' && e.seat === CORP) &&
      after.p[RUNNER].installed.filter((c) => CARDS[c].onTurnBegin === true).length >= 2,
  },
  {
    id: 'coffee',
    description: 'TurnFormalBegin5, DUEL-REACT: a "when your turn begins" ability resolves',
    hit: (evs) => evs.some((e) => e.type === 'reaction' && e.src === 'coffee'),
  },
  {
    id: 'two_ability_window',
    description: 'DUEL-REACT: a reaction window holds two abilities at once',
    hit: (evs) =>
      evs.some((e) => e.type === 'reaction_window' && Array.isArray(e.abilities) && e.abilities.length >= 2),
  },
  {
    id: 'bell_on_directed_end',
    description: 'PhaseEndDirected: a "when your action phase ends" ability fires on the directed end',
    hit: (evs) =>
      evs.some((e) => e.type === 'action_phase_end' && e.mode === 'directed') &&
      evs.some((e) => e.type === 'reaction_window' && Array.isArray(e.abilities) && e.abilities.includes('bell')),
  },
];
