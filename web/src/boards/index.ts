// Which board draws which ruleset: one line per ruleset with its own board; anything else gets the
// generic renderer (the view as a tree, the menu as buttons and schema forms).
import type { Board } from './types.ts';
import { GenericBoard } from './generic.tsx';
import { TicTacToeBoard } from './tictactoe.tsx';

const BOARDS: Record<string, Board> = {
  tictactoe: TicTacToeBoard,
};

export function boardFor(rulesetId: string): Board {
  return BOARDS[rulesetId] ?? GenericBoard;
}
