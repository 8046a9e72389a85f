// Invariants of every reachable state and contracts of every transition, checked by the
// conformance suite, scenarios and exploration. Each names the seed rule it guards.

import type { GameEvent, Seat } from '../../kernel/index.ts';
import { FLAG, OPEN } from './board/closure.ts';
import { MINE_CH } from './board/geometry.ts';
import type { MinesAction, MinesState } from './state.ts';

export function invariants(s: MinesState): string[] {
  const bad: string[] = [];
  const b = s.a2.board;
  if (s.a3.ap < 0 || s.a3.rap < 0) bad.push('A3: AP and RAP are never negative');
  if (s.a3.phase === 'Active' && s.a3.ap === 0 && s.a3.table.dig_ap_cost > 0)
    bad.push('R10: no zero-AP window inside an Active round');
  if (b === null) return bad;
  let rem = 0;
  for (let i = 0; i < b.w * b.h; i++) {
    const open = s.a2.cover.charCodeAt(i) === OPEN;
    if (!open && b.mines.charCodeAt(i) !== MINE_CH) rem++;
    if (s.a2.cover.charCodeAt(i) === FLAG && open) bad.push('R8: flags only on concealed cells');
  }
  if (rem !== s.a2.rem) bad.push(`F1: rem ${s.a2.rem} equals the concealed safe cells ${rem}`);
  if (s.a2.cover.charCodeAt(s.a2.pos) !== OPEN) bad.push('R7: the figure stands on an open cell');
  return bad;
}

export function checkTransition(
  before: MinesState,
  after: MinesState,
  _seat: Seat,
  action: MinesAction,
  events: readonly GameEvent[],
): string[] {
  const bad: string[] = [];
  const kinds = new Set(['cell_revealed', 'flag_judged', 'round_end']);
  for (const e of events) if (!kinds.has(e.type)) bad.push(`R2: event kind ${e.type} outside the three`);
  const ends = events.filter((e) => e.type === 'round_end').length;
  if (ends > 1) bad.push(`R2/R10: ${ends} round_end events from one action`);
  // judgments come in one block right before the round_end
  const firstJudge = events.findIndex((e) => e.type === 'flag_judged');
  if (firstJudge >= 0) {
    const end = events.findIndex((e) => e.type === 'round_end');
    if (end < firstJudge) bad.push('R2: flag_judged without a following round_end');
    for (let i = firstJudge; i < end; i++)
      if (events[i].type !== 'flag_judged') bad.push('R2: judgments are not contiguous before round_end');
  }
  const sameBoard =
    before.a2.board?.id === after.a2.board?.id && before.run.boards_installed === after.run.boards_installed;
  if (sameBoard && after.a2.rem > before.a2.rem) bad.push('F1: rem grew on the same board');
  if (action.type === 'move' && events.length > 0) bad.push('R7: a move emitted events');
  if (before.a3.round === after.a3.round && after.a3.rap < before.a3.rap && action.type !== 'refresh')
    bad.push('A3: RAP fell outside a refresh');
  // EC9: every out_of_catalog refusal comes with its debug diagnostic, and no diagnostic without one
  const refusedOff = after.run.last.filter((r) => r.sub_reason === 'out_of_catalog').length;
  const diagnosedOff = after.run.diagnostics.filter((d) => d.category === 'out_of_catalog').length;
  if (refusedOff !== diagnosedOff)
    bad.push(`EC9: ${refusedOff} out_of_catalog refusal(s) but ${diagnosedOff} diagnostic(s)`);
  return bad;
}
