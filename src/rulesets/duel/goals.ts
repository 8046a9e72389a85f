// Branch-coverage goals for the explorer: each contract branch the CI configuration must reach.

import type { GameEvent, Goal } from '../../kernel/index.ts';

const over = (reason: string) => (evs: readonly GameEvent[]) => evs.some((e) => e.type === 'game_over' && e.reason === reason);

export const goals: Goal[] = [
  { id: 'directed_end', description: 'PhaseEndDirected: a terminal operation ends the action phase', hit: (evs) => evs.some((e) => e.type === 'action_phase_end' && e.mode === 'directed') },
  { id: 'ordinary_end', description: 'PhaseEndOrdinary: the action phase ends with no clicks left', hit: (evs) => evs.some((e) => e.type === 'action_phase_end' && e.mode === 'ordinary') },
  { id: 'skipped_discard', description: 'DiscardStep skip branch', hit: (evs) => evs.some((e) => e.type === 'discard_skipped') },
  { id: 'skip_shields_negative_limit', description: 'DiscardStep skip branch taken while the maximum hand size is negative (no loss)', hit: (evs) => evs.some((e) => e.type === 'discard_skipped' && (e.max as number) < 0) },
  { id: 'discard_batch', description: 'DiscardStep with a nonempty batch', hit: (evs) => evs.some((e) => e.type === 'discarded') },
  { id: 'negative_limit_loss', description: 'DoFatal: negative maximum hand size at the discard step', hit: over('negative hand limit') },
  { id: 'damage_loss', description: 'DoFatal: more damage than cards in hand', hit: over('flatline') },
  { id: 'decking', description: 'DoFatal: required draw from an empty deck', hit: over('decked') },
  { id: 'points_win', description: 'DoCheckpoint: one objective winner', hit: over('points') },
  { id: 'simultaneous_draw', description: 'DoCheckpoint: two winners at once is a draw', hit: over('simultaneous win: draw') },
  { id: 'nested_return', description: 'ActionNestedReturn5: a run completes and its action returns', hit: (evs) => evs.some((e) => e.type === 'child_returned') },
  { id: 'cost_reaction', description: 'ActionEffectsBegin5 waits for a cost reaction', hit: (evs) => evs.some((e) => e.type === 'reaction' && e.src === 'toll') },
  { id: 'handoff', description: 'TurnHandoff5 to the other seat', hit: (evs) => evs.some((e) => e.type === 'handoff') },
];
