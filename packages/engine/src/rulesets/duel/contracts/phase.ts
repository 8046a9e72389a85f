// Phase-ending contracts: ordinary and directed end of the action phase, entering discard, and the
// discard step with its separate skip branch.

import type { GameEvent } from '../../../kernel/index.ts';
import type { Frame, HeapItem } from '../state.ts';
import { except, fail, frameEquals, type Verdict } from './verdict.ts';

/** The procedure record of the current turn: step, decision state and pending checkpoint work. */
export type ProcRecord = {
  phase: string;
  step: string;
  directed: boolean;
  /** An action frame exists (is resolving). */
  acting: boolean;
  /** Open priority/reaction windows. */
  windows: number;
  cpDue: boolean;
  /** Triggered abilities not yet placed in a reaction window. */
  queued: number;
};

// Seed (prose): ordinary end happens when the action phase offers no further action window.
// PhaseEndOrdinary(before, after, noActionOpportunity, triggered) ==
// /\ before.phase = "action" /\ before.step = "A2" /\ noActionOpportunity
// /\ ~before.directed /\ ~before.acting /\ before.windows = 0
// /\ after = [before EXCEPT !.step = "A5", !.cpDue = TRUE, !.queued = @ + triggered]
export function PhaseEndOrdinary(
  before: ProcRecord,
  after: ProcRecord,
  noActionOpportunity: boolean,
  triggered: number,
): Verdict {
  const C = 'PhaseEndOrdinary';
  if (before.phase !== 'action') return fail(C, 'before.phase = "action"', before.phase);
  if (before.step !== 'A2') return fail(C, 'at the action-window step', before.step);
  if (!noActionOpportunity) return fail(C, 'noActionOpportunity (no clicks remain)');
  if (before.directed) return fail(C, '~before.directed');
  if (before.acting) return fail(C, '~before.acting');
  if (before.windows !== 0) return fail(C, 'before.windows = 0');
  return frameEquals(
    C,
    'after = [before EXCEPT !.step = "A5", !.cpDue = TRUE, !.queued = @ + triggered]',
    except(before, [['step'], 'A5'], [['cpDue'], true], [['queued'], (n: number) => n + triggered]),
    after,
  );
}

// Seed (prose): "A directed end can close the current action-phase opportunities and make
// checkpoint work due. It still has to pass its ending checkpoint and reaction-drain relations
// before entering discard."
// PhaseEndDirected(before, after, triggered) ==
// /\ before.phase = "action" /\ before.directed /\ ~before.acting
// /\ after = [before EXCEPT !.step = "A5", !.directed = FALSE, !.windows = 0, !.cpDue = TRUE,
//                          !.queued = @ + triggered]
export function PhaseEndDirected(before: ProcRecord, after: ProcRecord, triggered: number): Verdict {
  const C = 'PhaseEndDirected';
  if (before.phase !== 'action') return fail(C, 'before.phase = "action"', before.phase);
  if (!before.directed) return fail(C, 'before.directed');
  if (before.acting) return fail(C, '~before.acting (resolving work counts complete)');
  return frameEquals(
    C,
    'after = [before EXCEPT !.step = "A5", !.directed = FALSE, !.windows = 0, !.cpDue = TRUE, !.queued = @ + triggered]',
    except(
      before,
      [['step'], 'A5'],
      [['directed'], false],
      [['windows'], 0],
      [['cpDue'], true],
      [['queued'], (n: number) => n + triggered],
    ),
    after,
  );
}

// PhaseEndComplete(bf, af, bp, ap, endingCheckpointDrained) ==
// /\ bf.phase = "action" /\ bp.step = "A5" /\ endingCheckpointDrained
// /\ af = [bf EXCEPT !.phase = "discard"] /\ ap = [bp EXCEPT !.phase = "discard", !.step = "D1"]
export function PhaseEndComplete(
  bf: Frame,
  af: Frame,
  bp: ProcRecord,
  ap: ProcRecord,
  endingCheckpointDrained: boolean,
): Verdict {
  const C = 'PhaseEndComplete';
  if (bf.phase !== 'action') return fail(C, 'before.phase = "action"', bf.phase);
  if (bp.step !== 'A5') return fail(C, 'at the phase-ending step', bp.step);
  if (!endingCheckpointDrained)
    return fail(
      C,
      'endingCheckpointDrained',
      JSON.stringify({ cpDue: bp.cpDue, queued: bp.queued, windows: bp.windows }),
    );
  return (
    frameEquals(C, 'frame after = [before EXCEPT !.phase = "discard"]', except(bf, [['phase'], 'discard']), af) ??
    frameEquals(
      C,
      'procedure after = [before EXCEPT !.phase = "discard", !.step = "D1"]',
      except(bp, [['phase'], 'discard'], [['step'], 'D1']),
      ap,
    )
  );
}

/** The discard record of the turn owner. */
type DiscardRecord = {
  hand: string[];
  heap: HeapItem[];
  skip: boolean;
  step: string;
};

/** hand − batch as a multiset, keeping the order of what remains; null when batch ⊄ hand. */
function removeBatch(hand: readonly string[], batch: readonly string[]): string[] | null {
  const rest = hand.slice();
  for (const c of batch) {
    const i = rest.indexOf(c);
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return rest;
}

// Seed (prose): "At discard, the effective maximum hand size is an input. The ordinary discard
// relation chooses the required batch, updates membership and arrival faces, and records its event
// when there is a nonempty batch. A skipped discard step and a negative-limit ending check have
// different branches." Reconstructed, with batch = NONE for the automatic branches:
// DiscardStep(before, after, effMax, batch, faceUp, events) ==
//   IF before.skip THEN batch = NONE /\ after = [before EXCEPT !.skip = FALSE, !.step = "D2"]
//   ELSE /\ effMax >= 0   \* a negative limit is DoFatal's branch, never a discard
//        /\ LET need == Len(before.hand) - effMax IN
//           IF need <= 0 THEN batch = NONE /\ after = [before EXCEPT !.step = "D2"] /\ events = {}
//           ELSE /\ Len(batch) = need /\ batch \subseteq before.hand /\ events = {Discarded(batch)}
//                /\ after = [before EXCEPT !.hand = @ \ batch, !.heap = @ \o Faces(batch, faceUp), !.step = "D2"]
export function DiscardStep(
  before: DiscardRecord,
  after: DiscardRecord,
  effMax: number,
  batch: string[] | null,
  faceUp: boolean,
  events: readonly GameEvent[],
): Verdict {
  const C = 'DiscardStep';
  if (before.step !== 'D1') return fail(C, 'at the discard step', before.step);
  if (before.skip) {
    if (batch !== null) return fail(C, 'a skipped step discards nothing');
    return frameEquals(
      C,
      'skip branch: after = [before EXCEPT !.skip = FALSE, !.step = "D2"]',
      except(before, [['skip'], false], [['step'], 'D2']),
      after,
    );
  }
  if (effMax < 0) return fail(C, 'effMax >= 0 (a negative limit is the DoFatal branch)', String(effMax));
  const need = before.hand.length - effMax;
  if (need <= 0) {
    if (batch !== null) return fail(C, 'no batch when the hand is within the limit');
    if (events.some((e) => e.type === 'discarded')) return fail(C, 'no discard event for an empty batch');
    return frameEquals(
      C,
      'empty branch: after = [before EXCEPT !.step = "D2"]',
      except(before, [['step'], 'D2']),
      after,
    );
  }
  if (batch === null) return fail(C, 'a nonempty required batch is chosen', `need ${need}`);
  if (batch.length !== need) return fail(C, 'Len(batch) = need', `${batch.length} vs ${need}`);
  const rest = removeBatch(before.hand, batch);
  if (rest === null) return fail(C, 'batch \\subseteq before.hand');
  if (events.filter((e) => e.type === 'discarded').length !== 1) return fail(C, 'events = {Discarded(batch)}');
  return frameEquals(
    C,
    'after = [before EXCEPT !.hand = @ \\ batch, !.heap = @ \\o Faces(batch), !.step = "D2"]',
    except(
      before,
      [['hand'], rest],
      [['heap'], (h: HeapItem[]) => [...h, ...batch.map((card) => ({ card, up: faceUp }))]],
      [['step'], 'D2'],
    ),
    after,
  );
}
