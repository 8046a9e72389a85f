// Action-frame contracts: the cost boundary before effects, and the matching child return.

import type { ActionFrame } from '../state.ts';
import { except, fail, frameEquals, type Verdict } from './verdict.ts';

// ActionEffectsBegin5(before,after,costCheckpointAndReactionsDrained) ==
// /\ before.status = "CostReactions" /\ costCheckpointAndReactionsDrained
// /\ after = [before EXCEPT !.status = "Effects"]
export function ActionEffectsBegin5(
  before: ActionFrame | null,
  after: ActionFrame | null,
  costCheckpointAndReactionsDrained: boolean,
): Verdict {
  const C = 'ActionEffectsBegin5';
  if (before === null) return fail(C, 'before is an action frame');
  if (before.status !== 'CostReactions') return fail(C, 'before.status = "CostReactions"', before.status);
  if (!costCheckpointAndReactionsDrained) return fail(C, 'costCheckpointAndReactionsDrained');
  return frameEquals(C, 'after = [before EXCEPT !.status = "Effects"]', except(before, [['status'], 'Effects']), after);
}

// Seed (prose): "Nested work then records a concrete structure identifier. ActionNestedReturn5
// compares the completed identifier with the recorded one before restoring the effects stage ... A
// completion receipt for child 32 does not satisfy that return." Reconstructed:
// ActionNestedReturn5(before, after, completedId) ==
// /\ before.status = "Nested" /\ completedId = before.child
// /\ after = [before EXCEPT !.status = "Effects", !.child = 0]
export function ActionNestedReturn5(
  before: ActionFrame | null,
  after: ActionFrame | null,
  completedId: number,
): Verdict {
  const C = 'ActionNestedReturn5';
  if (before === null) return fail(C, 'before is an action frame');
  if (before.status !== 'Nested') return fail(C, 'before.status = "Nested"', before.status);
  if (completedId !== before.child)
    return fail(C, 'completedId = before.child', `receipt ${completedId}, waiting on ${before.child}`);
  return frameEquals(
    C,
    'after = [before EXCEPT !.status = "Effects", !.child = 0]',
    except(before, [['status'], 'Effects'], [['child'], 0]),
    after,
  );
}

// Seed (prose): "The action's complete status is the advance condition for its caller. Completion of
// one child, exhaustion of a balance, or a participant's pass is not an alternative proof." Engine form:
// ActionComplete(before, after, effectsResolved) ==
// /\ before.status = "Effects" /\ effectsResolved /\ after = [before EXCEPT !.status = "Complete"]
export function ActionComplete(
  before: ActionFrame | null,
  after: ActionFrame | null,
  effectsResolved: boolean,
): Verdict {
  const C = 'ActionComplete';
  if (before === null) return fail(C, 'before is an action frame');
  if (before.status !== 'Effects') return fail(C, 'before.status = "Effects"', before.status);
  if (!effectsResolved) return fail(C, 'all effects resolved');
  return frameEquals(
    C,
    'after = [before EXCEPT !.status = "Complete"]',
    except(before, [['status'], 'Complete']),
    after,
  );
}

// Seed (prose): "The action's complete status is the advance condition for its caller." The step
// that drops a finished action frame and hands control back to the action window (or to a pending
// directed end). Engine form:
// ActionDone(before, after, nextStep) ==
// /\ before.action # NONE /\ before.action.status = "Complete"
// /\ after.action = NONE /\ after.step = nextStep   \* "AD" after a terminal action, else "A1"
export function ActionDone(
  before: ActionFrame | null,
  after: ActionFrame | null,
  nextStep: string,
  afterStep: string,
): Verdict {
  const C = 'ActionDone';
  if (before === null) return fail(C, 'before is an action frame');
  if (before.status !== 'Complete')
    return fail(C, 'before.status = "Complete" (complete is the advance condition for its caller)', before.status);
  if (after !== null) return fail(C, 'after.action = NONE');
  if (afterStep !== nextStep) return fail(C, `after.step = "${nextStep}"`, afterStep);
  return null;
}
