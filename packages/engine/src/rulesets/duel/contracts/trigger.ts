// The two profile contracts the seed's operators leave implicit (issue 28): points scored make a
// checkpoint due at once, and a "when your turn begins" ability belongs to the seat whose turn begins.

import type { Ability } from '../state.ts';
import { fail, frameEquals, type Verdict } from './verdict.ts';

// Reconstructed from the seed's "a points win happens at the next checkpoint" read with the source
// game's "a checkpoint follows every instruction" (notes: CR 10.3.3–5, 1.7.2a):
// PointsCheckpointDue(tBefore, tAfter, after) ==
//   (\E p \in Players : tAfter[p] # tBefore[p]) => after.cpDue
// The point totals are the checker's own count (not the engine's), so a step that scores, steals or
// places a token cannot leave the win test to whichever checkpoint happens to come next.
export function PointsCheckpointDue(
  tBefore: readonly number[],
  tAfter: readonly number[],
  afterCpDue: boolean,
): Verdict {
  const C = 'PointsCheckpointDue';
  let changed = false;
  for (let p = 0; p < tBefore.length; p++) if (tBefore[p] !== tAfter[p]) changed = true;
  if (changed && !afterCpDue)
    return fail(C, 'points changed => after.cpDue', `points ${tBefore.join('/')} -> ${tAfter.join('/')}`);
  return null;
}

// Reconstructed from the seed's TurnFormalBegin5 (the begin event belongs to the frame's owner) and
// the source game's "when your turn begins" (a conditional ability of the seat whose turn it is):
// TurnBeginTriggers(owner, before, after, held) ==
// /\ after = before \o [i \in 1..Len(held) |-> [src |-> held[i], who |-> owner]]
// where `held` lists, in install order, the begin abilities on cards the owner has installed.
export function TurnBeginTriggers(
  owner: number,
  beforeQueue: readonly Ability[],
  afterQueue: readonly Ability[],
  held: readonly string[],
): Verdict {
  return frameEquals(
    'TurnBeginTriggers',
    'after.queue = before.queue \\o <<[src |-> c, who |-> owner] : c \\in HeldBeginAbilities(owner)>>',
    [...beforeQueue, ...held.map((src) => ({ src, who: owner }))],
    afterQueue,
  );
}
