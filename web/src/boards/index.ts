// Which board draws which ruleset: one line per ruleset with its own board; anything else gets the
// generic renderer (the view as a tree, the menu as buttons and schema forms).
import { ownBoard, type Board } from './types.ts';
import { GenericBoard } from './generic.tsx';
import { TicTacToeBoard } from './tictactoe.tsx';
import { MinesBoard } from './mines/MinesBoard.tsx';
import { GroundBoard } from './ground/GroundBoard.tsx';
import { BncBoard } from './bnc/BncBoard.tsx';
import { DuelBoard } from './duel/DuelBoard.tsx';

const BOARDS: Record<string, Board> = {
  tictactoe: ownBoard(TicTacToeBoard),
  mines: ownBoard(MinesBoard),
  ground: ownBoard(GroundBoard),
  bnc: ownBoard(BncBoard),
  duel: ownBoard(DuelBoard),
};

export function boardFor(rulesetId: string): Board {
  return BOARDS[rulesetId] ?? GenericBoard;
}
