// Every benchmark case `arbiter bench` knows, grouped by ruleset. Each ruleset's cases live in
// bench/<id>.ts and are listed here with one import.

import type { BenchCase } from './types.ts';
import { cases as tictactoeCases } from './tictactoe.ts';

export const ALL_CASES: BenchCase[] = [...tictactoeCases];
