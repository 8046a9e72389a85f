// Invariants every reachable state keeps.

import type { TicTacToeState } from './state.ts';

export function invariants(s: TicTacToeState): string[] {
  const bad: string[] = [];
  const x = s.board.filter((c) => c === 0).length;
  const o = s.board.filter((c) => c === 1).length;
  if (x - o !== 0 && x - o !== 1) bad.push('TTT-2: marks must alternate (X count − O count is 0 or 1)');
  if (x + o !== s.moves) bad.push('moves counter equals the number of marks');
  return bad;
}
