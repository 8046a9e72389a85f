// B1, minimal: the orchestrator that opens and closes rounds and swaps boards around A2 and A3.
// It is the only caller of install/retire outside tests, and the refresh path lives here.

import { settleDone, startRound, trySpendRefresh } from '../ledger/ledger.ts';
import { checkBoardShape, checkInvariants, dropBoard, installBoard, retireBoard, type World } from '../board/engine.ts';
import type { Board } from '../board/geometry.ts';
import type { InstallResult, InvariantCategory, Sink } from '../board/types.ts';

/** notify_round_start: a board must be installed and no round running. */
export function notifyRoundStart(w: World): boolean {
  if (w.a2.board === null) return false;
  return startRound(w.a3);
}

/**
 * notify_settlement_done: the round's settlement is over (Waiting -> Idle). On new_board the
 * cleared board is retired and `next` (if given) installed.
 */
export function notifySettlementDone(
  w: World,
  hint: 'same_board' | 'new_board',
  sink: Sink,
  next?: Board,
): InstallResult | null {
  if (!settleDone(w.a3)) return null;
  if (hint === 'same_board') return null;
  retireBoard(w, sink);
  return next === undefined ? null : installBoard(w, next, sink);
}

type RefreshResult = {
  accepted: boolean;
  reject_reason: 'phase' | 'resource_face' | 'board_invalid' | null;
  category: InvariantCategory | null;
};

/**
 * refresh_board: inside an Active round, pay the refresh cost from RAP, retire the board and
 * install `next` (flags, figure and opened cells all reset; the initial expansion replays).
 * The new board is checked before anything is paid, so a bad board costs nothing.
 */
export function refreshBoard(w: World, next: Board, sink: Sink): RefreshResult {
  if (w.a2.board === null || w.a3.phase !== 'Active')
    return { accepted: false, reject_reason: 'phase', category: null };
  checkBoardShape(next);
  const category = checkInvariants(next);
  if (category !== null) {
    sink.diagnose({ level: 'error', category, message: `refresh board ${next.id} violates ${category}` });
    return { accepted: false, reject_reason: 'board_invalid', category };
  }
  if (!trySpendRefresh(w.a3)) return { accepted: false, reject_reason: 'resource_face', category: null };
  dropBoard(w);
  installBoard(w, next, sink, { refresh: true });
  return { accepted: true, reject_reason: null, category: null };
}
