// Turn-frame contracts: validity, formal begin, formal end and handoff.

import type { GameEvent } from '../../../kernel/index.ts';
import type { Frame } from '../state.ts';
import { except, fail, frameEquals, type Verdict } from './verdict.ts';

/** Phase sequence per seat: the first seat (corp) draws first; the second seat has no draw phase. */
const FRAME_FIELDS = new Set(['owner', 'phase', 'id', 'formalBegun', 'formalEnded', 'begunCounts']);

const PHASES: readonly (readonly string[])[] = [
  ['draw', 'action', 'discard'],
  ['action', 'discard'],
];

// Seed: "TurnFrameValid5 expects a record with owner, phase, id, formalBegun, formalEnded and
// begunCounts. The owner is one of the two profile seats, the identifier is positive, the flags are
// Boolean and begun counts are nonnegative integers indexed by both seats." (prose; no formula given)
export function TurnFrameValid5(f: Frame): Verdict {
  const C = 'TurnFrameValid5';
  if (f === null || typeof f !== 'object') return fail(C, 'frame is a record');
  let n = 0;
  for (const k in f) {
    n++;
    if (!FRAME_FIELDS.has(k)) return fail(C, 'record has exactly the frame fields', k);
  }
  if (n !== 6) return fail(C, 'record has exactly the frame fields', Object.keys(f).join(','));
  if (f.owner !== 0 && f.owner !== 1) return fail(C, 'owner \\in Players', String(f.owner));
  if (!PHASES[f.owner].includes(f.phase)) return fail(C, 'phase \\in PhaseSeq(owner)', f.phase);
  if (!Number.isInteger(f.id) || f.id < 1) return fail(C, 'id > 0', String(f.id));
  if (typeof f.formalBegun !== 'boolean') return fail(C, 'formalBegun \\in BOOLEAN');
  if (typeof f.formalEnded !== 'boolean') return fail(C, 'formalEnded \\in BOOLEAN');
  const c = f.begunCounts;
  if (!Array.isArray(c) || c.length !== 2 || !c.every((n) => Number.isInteger(n) && n >= 0)) {
    return fail(C, 'begunCounts \\in [Players -> Nat]', JSON.stringify(c));
  }
  return null;
}

function eventsAre(events: readonly GameEvent[], expected: { type: string; turn: number; seat: number }): boolean {
  // the contract's event set has exactly one element; extra tags on the engine's event (its
  // contract name) are not part of the seed's event identity
  return (
    events.length === 1 &&
    events[0].type === expected.type &&
    events[0].turn === expected.turn &&
    events[0].seat === expected.seat
  );
}

function TurnBeginEvent5(f: Frame) {
  return { type: 'turn_begin', turn: f.id, seat: f.owner };
}
function TurnEndEvent5(f: Frame) {
  return { type: 'turn_end', turn: f.id, seat: f.owner };
}

// TurnFormalBegin5(before, after, atActualFormalBeginStep, events) ==
// /\ TurnFrameValid5(before) /\ ~before.formalBegun /\ ~before.formalEnded
// /\ atActualFormalBeginStep /\ events = {TurnBeginEvent5(before)}
// /\ after = [before EXCEPT !.formalBegun = TRUE,!.begunCounts[before.owner] = @+1]
export function TurnFormalBegin5(
  before: Frame,
  after: Frame,
  atActualFormalBeginStep: boolean,
  events: readonly GameEvent[],
): Verdict {
  const C = 'TurnFormalBegin5';
  const v = TurnFrameValid5(before);
  if (v) return fail(C, 'TurnFrameValid5(before)', v.conjunct);
  if (before.formalBegun) return fail(C, '~before.formalBegun');
  if (before.formalEnded) return fail(C, '~before.formalEnded');
  if (!atActualFormalBeginStep) return fail(C, 'atActualFormalBeginStep');
  if (!eventsAre(events, TurnBeginEvent5(before)))
    return fail(C, 'events = {TurnBeginEvent5(before)}', JSON.stringify(events));
  return frameEquals(
    C,
    'after = [before EXCEPT !.formalBegun = TRUE, !.begunCounts[before.owner] = @+1]',
    except(before, [['formalBegun'], true], [['begunCounts', before.owner], (n: number) => n + 1]),
    after,
  );
}

// Seed (prose): "TurnFormalEnd5 marks the formal end at its actual boundary." Reconstructed as the
// mirror of TurnFormalBegin5:
// TurnFormalEnd5(before, after, atActualFormalEndStep, events) ==
// /\ TurnFrameValid5(before) /\ before.formalBegun /\ ~before.formalEnded
// /\ atActualFormalEndStep /\ events = {TurnEndEvent5(before)}
// /\ after = [before EXCEPT !.formalEnded = TRUE]
export function TurnFormalEnd5(
  before: Frame,
  after: Frame,
  atActualFormalEndStep: boolean,
  events: readonly GameEvent[],
): Verdict {
  const C = 'TurnFormalEnd5';
  const v = TurnFrameValid5(before);
  if (v) return fail(C, 'TurnFrameValid5(before)', v.conjunct);
  if (!before.formalBegun) return fail(C, 'before.formalBegun');
  if (before.formalEnded) return fail(C, '~before.formalEnded');
  if (!atActualFormalEndStep) return fail(C, 'atActualFormalEndStep');
  if (!eventsAre(events, TurnEndEvent5(before)))
    return fail(C, 'events = {TurnEndEvent5(before)}', JSON.stringify(events));
  return frameEquals(C, 'after = [before EXCEPT !.formalEnded = TRUE]', except(before, [['formalEnded'], true]), after);
}

// Seed (prose): "TurnHandoff5 additionally requires the old turn procedure to be complete. Handoff
// opens the other seat's next frame, clears its formal flags and preserves begun counts; the next
// formal begin occurs later." Reconstructed:
// TurnHandoff5(before, after, oldProcedureComplete, freshId) ==
// /\ TurnFrameValid5(before) /\ before.formalBegun /\ before.formalEnded /\ oldProcedureComplete
// /\ freshId > before.id
// /\ after = [before EXCEPT !.owner = Other(@), !.phase = First(Other(before.owner)), !.id = freshId,
//                          !.formalBegun = FALSE, !.formalEnded = FALSE]      \* begunCounts kept
export function TurnHandoff5(before: Frame, after: Frame, oldProcedureComplete: boolean, freshId: number): Verdict {
  const C = 'TurnHandoff5';
  const v = TurnFrameValid5(before);
  if (v) return fail(C, 'TurnFrameValid5(before)', v.conjunct);
  if (!before.formalBegun) return fail(C, 'before.formalBegun');
  if (!before.formalEnded) return fail(C, 'before.formalEnded');
  if (!oldProcedureComplete) return fail(C, 'oldProcedureComplete');
  if (!(freshId > before.id)) return fail(C, 'freshId > before.id', `${freshId} <= ${before.id}`);
  const other = 1 - before.owner;
  return frameEquals(
    C,
    'after = [before EXCEPT !.owner = Other, !.phase = First(Other), !.id = freshId, flags FALSE] (begunCounts preserved)',
    except(
      before,
      [['owner'], other],
      [['phase'], PHASES[other][0]],
      [['id'], freshId],
      [['formalBegun'], false],
      [['formalEnded'], false],
    ),
    after,
  );
}
