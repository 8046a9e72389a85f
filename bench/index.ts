// Every benchmark case `arbiter bench` knows, grouped by ruleset. Each ruleset's cases live in
// bench/<id>.ts and are listed here with one import.

import type { BenchCase, BenchResult } from './types.ts';
import { cases as tictactoeCases, compareTicTacToe } from './tictactoe.ts';
import { cases as bncCases } from './bnc.ts';
import { cases as groundCases } from './ground.ts';
import { cases as duelCases } from './duel.ts';
import { cases as minesCases } from './mines.ts';
import { cases as agentCases } from './agents.ts';

export const ALL_CASES: BenchCase[] = [
  ...tictactoeCases,
  ...bncCases,
  ...groundCases,
  ...duelCases,
  ...minesCases,
  ...agentCases,
];

/** Cross-case ratios (engine vs baselines), computed after all selected cases ran. */
export const POSTPROCESS: Array<(results: BenchResult[]) => void> = [compareTicTacToe];
