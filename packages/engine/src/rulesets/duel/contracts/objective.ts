// Objective points, winners, the checkpoint and the fatal conditions.

import type { Ability, ScoreItem, Window } from '../state.ts';
import { except, fail, frameEquals, type Verdict } from './verdict.ts';

/** The fixed reference-profile threshold (not a parameter of all objective games). */
const THRESHOLD = 7;

export function Points(score: readonly ScoreItem[]): number {
  let t = 0;
  for (const it of score) t += it.pts;
  return t;
}

// ObjectiveWinners(t) == {p \in Players : Points(t, p) >= 7}
export function ObjectiveWinners(points: readonly number[]): number[] {
  const w: number[] = [];
  for (let p = 0; p < points.length; p++) if (points[p] >= THRESHOLD) w.push(p);
  return w;
}

/** The recorded game outcome for a set of winners: one winner wins, two at once is a draw. */
export function OutcomeOf(winners: readonly number[]): { winners: number[]; reason: string } {
  return winners.length === 1
    ? { winners: [winners[0]], reason: 'points' }
    : { winners: [], reason: 'simultaneous win: draw' };
}

type CheckpointRecord = {
  cpDue: boolean;
  result: { winners: number[]; reason: string } | null;
  queue: Ability[];
  win: Window[];
};

// Seed (prose): "DoCheckpoint combines current objective winners with supplied simultaneous winners
// at a ready checkpoint. It records the outcome and clears the checkpoint obligation. Its ordering
// tests winners before the ordinary pending-retirement branch." Reconstructed:
// DoCheckpoint(before, after, ready, simWinners, t, active) ==
// /\ ready /\ before.cpDue /\ before.result = NONE
// /\ LET W == ObjectiveWinners(t) \cup simWinners IN
//    IF W # {} THEN after = [before EXCEPT !.result = OutcomeOf(W), !.cpDue = FALSE]
//    ELSE after = [before EXCEPT !.cpDue = FALSE, !.queue = << >>,
//                  !.win = IF before.queue = << >> THEN @ ELSE Append(@, ReactionWindow(before.queue, active))]
export function DoCheckpoint(
  before: CheckpointRecord,
  after: CheckpointRecord,
  ready: boolean,
  simWinners: readonly number[],
  points: readonly number[],
  active: number,
): Verdict {
  const C = 'DoCheckpoint';
  if (!ready) return fail(C, 'ready');
  if (!before.cpDue) return fail(C, 'before.cpDue');
  if (before.result !== null) return fail(C, 'before.result = NONE');
  const W = [...new Set([...ObjectiveWinners(points), ...simWinners])].sort();
  if (W.length > 0) {
    return frameEquals(
      C,
      'W # {} => after = [before EXCEPT !.result = OutcomeOf(W), !.cpDue = FALSE] (winners tested before retirement)',
      except(before, [['result'], OutcomeOf(W)], [['cpDue'], false]),
      after,
    );
  }
  const win =
    before.queue.length === 0
      ? before.win
      : [...before.win, { kind: 'react', prio: active, passed: false, abilities: before.queue }];
  return frameEquals(
    C,
    'W = {} => after = [before EXCEPT !.cpDue = FALSE, !.queue = <<>>, !.win = retire(queue)]',
    except(before, [['cpDue'], false], [['queue'], []], [['win'], win]),
    after,
  );
}

export type FatalCondition = 'damage' | 'negative_limit' | 'empty_draw';
export const FATAL_REASON: Record<FatalCondition, string> = {
  damage: 'flatline',
  negative_limit: 'negative hand limit',
  empty_draw: 'decked',
};

// Seed (prose): "DoFatal handles its stated damage, discard-step and required-draw conditions under
// a supplied valid-procedure guard ... Merely observing one of those values elsewhere does not
// establish the same ending event." Reconstructed:
// DoFatal(before, after, validProcedure, cond, holds, loser) ==
// /\ validProcedure /\ before.result = NONE /\ holds(cond)   \* evaluated at cond's own boundary
// /\ after = [before EXCEPT !.result = [winners |-> {Other(loser)}, reason |-> Reason(cond)]]
export function DoFatal(
  before: { result: unknown },
  after: { result: unknown },
  validProcedure: boolean,
  cond: FatalCondition,
  holdsAtItsBoundary: boolean,
  loser: number,
): Verdict {
  const C = 'DoFatal';
  if (!validProcedure) return fail(C, 'validProcedure');
  if (before.result !== null) return fail(C, 'before.result = NONE');
  if (!holdsAtItsBoundary) return fail(C, `condition ${cond} holds at its own boundary`);
  return frameEquals(
    C,
    'after = [before EXCEPT !.result = loss of the affected seat]',
    except(before, [['result'], { winners: [1 - loser], reason: FATAL_REASON[cond] }]),
    after,
  );
}
