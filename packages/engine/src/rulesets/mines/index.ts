// The mines package: assembly only.

import { catalogRulesPage, type RulesetPackage } from '../../kernel/index.ts';
import { minesAgents } from './agents.ts';
import { MINES_PRESETS } from './config.ts';
import { mines } from './ruleset.ts';
import type { MinesAction, MinesState } from './state.ts';
import type { MinesView } from './view.ts';
import { playInTerminal } from './terminal.ts';
import { minesTools } from './tools.ts';
import { chainOpen } from './board/closure.ts';
import { checkInvariants, createA2, installBoard, settleBatch, type World } from './board/engine.ts';
import { computeDigits, textToBytes, type Board } from './board/geometry.ts';
import { generate } from './generator/generator.ts';
import { solveBoard } from './generator/solver.ts';
import { economyTable } from './ledger/economy.ts';
import { createLedger, startRound } from './ledger/ledger.ts';

export { mines };
export type { MinesAction, MinesState };

export const minesPackage: RulesetPackage<MinesState, MinesAction, MinesView> = {
  ruleset: mines,
  gameType: {
    seats: { min: 1, max: 1 },
    turns: 'sequential',
    chance: 'setup',
    information: 'imperfect',
    outcome: ['winners', 'scores'],
  },
  agents: {
    solver: {
      factory: minesAgents.solver,
      description: 'deduces safe cells from the visible digits; guesses only when stuck',
      reads: 'view',
    },
  },
  presets: MINES_PRESETS,
  tools: minesTools,
  scenarios: 'scenarios/mines',
  rulesPage: () => catalogRulesPage(mines, minesPackage.gameType),
  terminal: playInTerminal,
};

/** The parts `bench/` measures on their own (bench reaches a ruleset only through this file). */
export const minesParts = {
  generate,
  solveBoard,
  chainOpen,
  checkInvariants,
  computeDigits,
  textToBytes,
  createA2,
  installBoard,
  settleBatch,
  createLedger,
  startRound,
  economyTable,
};
export type { Board, World };

// what the web page's mines board reads: the view's shape, the words of intents and refusals, the
// move path a view implies (boards reach a ruleset only through this file)
export { intentWords, refusalSentence } from './describe.ts';
export { isOpenGlyph, viewMovePath } from './board/path.ts';
export type { Cell, Intent } from './board/types.ts';
export type { MinesView } from './view.ts';
