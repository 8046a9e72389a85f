// The transition. One accepted action is one settle_batch (or the refresh path); after a round
// end the B1 role settles it and opens the next round in the same step (U-M4). A2's refusals
// inside a batch are its ActionOutcomes (run.last) and its diagnostics are kept in
// run.diagnostics: neither is an event, since the seed closes the event surface at three kinds.

import type { GameEvent, Outcome, Seat } from '../../kernel/index.ts';
import { settleBatch } from './board/engine.ts';
import type { Diagnostic, Sink } from './board/types.ts';
import { notifyRoundStart, notifySettlementDone, refreshBoard } from './orchestrator/orchestrator.ts';
import { collectingSink, nextBoard } from './setup.ts';
import type { MinesAction, MinesState } from './state.ts';

/** B1's part after a round end: count the clear, end the run, or settle and open the next round. */
function afterRound(s: MinesState, sink: Sink): void {
  if (s.a3.phase !== 'Waiting' || s.run.ended !== null) return;
  const rec = s.a3.last_round_end;
  if (rec === null) return;
  if (rec.path_tag === 'cleared') s.run.boards_cleared++;
  if (s.run.boards_cleared >= s.run.boards_target) {
    s.run.ended = 'cleared';
    return;
  }
  if (s.a3.round >= s.run.max_rounds) {
    s.run.ended = 'round_cap';
    return;
  }
  const next = rec.continuation_hint === 'new_board' ? nextBoard(s) : undefined;
  if (next) s.run.boards_installed++;
  notifySettlementDone(s, rec.continuation_hint, sink, next);
  notifyRoundStart(s);
}

function runAction(s: MinesState, a: MinesAction, sink: Sink): void {
  if (a.type === 'refresh') {
    const r = refreshBoard(s, nextBoard(s), sink);
    if (r.accepted) s.run.boards_installed++;
    s.run.last = [
      {
        accepted: r.accepted,
        outcome: r.accepted ? 'executed' : 'rejected',
        reject_reason: r.reject_reason,
        sub_reason: null,
      },
    ];
    return;
  }
  s.run.last = settleBatch(s, a.type === 'batch' ? a.intents : [a], sink);
}

export function apply(s: MinesState, _seat: Seat, a: MinesAction, events: GameEvent[]): void {
  const diagnostics: Diagnostic[] = [];
  const sink = collectingSink(events, diagnostics);
  const from = events.length;
  runAction(s, a, sink);
  for (let i = from; i < events.length; i++) {
    const e = events[i];
    if (e.type === 'cell_revealed' && e.kind === 'mine') s.run.mines_dug++;
  }
  afterRound(s, sink);
  s.run.diagnostics = diagnostics;
}

export function outcome(s: MinesState): Outcome | null {
  if (s.run.ended === null) return null;
  const won = s.run.ended === 'cleared';
  return {
    winners: won ? [0] : [],
    scores: [s.run.boards_cleared],
    reason: won ? `cleared ${s.run.boards_cleared} board(s)` : `round cap of ${s.run.max_rounds} reached`,
    detail: { rounds: s.a3.round, mines_dug: s.run.mines_dug, rap: s.a3.rap },
  };
}

export function metrics(s: MinesState, events: readonly GameEvent[]): Record<string, number> {
  let chain = 0;
  let opened = 0;
  for (const e of events) {
    if (e.type === 'cell_revealed' && e.channel !== 'initial') {
      opened++;
      if (e.channel === 'chain') chain++;
    }
  }
  return {
    rounds: s.a3.round,
    boards_cleared: s.run.boards_cleared,
    mines_dug: s.run.mines_dug,
    cells_opened: opened,
    chain_cells: chain,
    rap: s.a3.rap,
  };
}
