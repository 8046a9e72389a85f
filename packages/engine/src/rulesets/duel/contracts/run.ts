// The run's encounters with ICE (DUEL-ICE, a profile rule: the seed names no operator for them).

import { CARDS } from '../cards.ts';
import type { DuelAction, Run } from '../state.ts';
import { except, fail, frameEquals, type Verdict } from './verdict.ts';

export type EncounterRecord = {
  run: Run | null;
  credits: number;
  dmg: { n: number; core: boolean } | null;
  cpDue: boolean;
};

// EncounterIce(before, after, choice, ice) ==
// /\ before.run.stage = "ice" /\ before.run.pos \in DOMAIN ice   \* at an ICE of this server
// /\ LET c == ice[before.run.pos]
//        past == IF before.run.pos = 0 THEN [stage |-> "app", pos |-> -1] ELSE [stage |-> "ice", pos |-> before.run.pos - 1] IN
//    CASE choice = "break" -> after = [before EXCEPT !.credits = @ - Break(c), !.run = past, !.cpDue = TRUE]
//                             /\ before.credits >= Break(c)
//      [] choice = "fire" /\ Sub(c) = "end_run" -> after = [before EXCEPT !.run.stage = "end", !.run.pos = -1, !.cpDue = TRUE]
//      [] choice = "fire" /\ Sub(c) = "net2"    -> after = [before EXCEPT !.dmg = 2 net, !.run = past, !.cpDue = TRUE]
export function EncounterIce(
  before: EncounterRecord,
  after: EncounterRecord,
  choice: DuelAction | null,
  ice: readonly string[],
): Verdict {
  const C = 'EncounterIce';
  const r = before.run;
  if (r === null || r.stage !== 'ice') return fail(C, 'before.run.stage = "ice"', r === null ? 'no run' : r.stage);
  if (r.pos < 0 || r.pos >= ice.length) return fail(C, 'before.run.pos \\in DOMAIN ice', String(r.pos));
  const c = CARDS[ice[r.pos]];
  const past =
    r.pos === 0
      ? ([
          [['run', 'stage'], 'app'],
          [['run', 'pos'], -1],
        ] as const)
      : ([[['run', 'pos'], r.pos - 1]] as const);
  if (choice === null) return fail(C, 'the runner chose break or fire');
  if (choice.type === 'break') {
    const cost = c.brk ?? 0;
    if (before.credits < cost) return fail(C, 'before.credits >= Break(c)', `${before.credits} < ${cost}`);
    return frameEquals(
      C,
      'break: after = [before EXCEPT !.credits = @ - Break(c), !.run = past, !.cpDue = TRUE]',
      except(
        before,
        [['credits'], before.credits - cost],
        ...past.map(([p, v]) => [[...p], v] as [string[], unknown]),
        [['cpDue'], true],
      ),
      after,
    );
  }
  if (choice.type !== 'fire') return fail(C, 'the runner chose break or fire', choice.type);
  if (c.sub === 'end_run') {
    return frameEquals(
      C,
      'fire (end the run): after = [before EXCEPT !.run.stage = "end", !.run.pos = -1, !.cpDue = TRUE]',
      except(before, [['run', 'stage'], 'end'], [['run', 'pos'], -1], [['cpDue'], true]),
      after,
    );
  }
  return frameEquals(
    C,
    'fire (2 net damage): after = [before EXCEPT !.dmg = 2 net, !.run = past, !.cpDue = TRUE]',
    except(before, [['dmg'], { n: 2, core: false }], ...past.map(([p, v]) => [[...p], v] as [string[], unknown]), [
      ['cpDue'],
      true,
    ]),
    after,
  );
}
