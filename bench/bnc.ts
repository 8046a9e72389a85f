// bnc: whole 45-turn matches between the four scripted temperaments on the trusted fast path.

import type { BenchCase } from './types.ts';
import { measure } from './types.ts';
import { playScripted } from '../src/rulesets/bnc/play.ts';
import { TEMPERAMENTS } from '../src/rulesets/bnc/agents.ts';

let seed = 1;

export const cases: BenchCase[] = [
  {
    name: 'bnc/scripted-matches',
    group: 'bnc',
    run: (budgetMs) =>
      measure(`bnc/scripted-matches`, budgetMs, () => {
        const m = playScripted(seed++, TEMPERAMENTS, false);
        return [1, m.actions];
      }),
  },
];
