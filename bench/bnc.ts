// bnc: whole 45-turn matches. `scripted-matches` is the target figure (scripted temperaments on
// the trusted fast path, ≥ 1,000 matches per CPU-second); `menu-random-checked` plays uniformly
// random menu actions through the checked `act` (schema + rules + copy per submission) for scale.

import type { BenchCase } from './types.ts';
import { measure } from './types.ts';
import { act, SeededRandom } from '@arbiter/engine/kernel';
import { bnc, playScripted, TEMPERAMENTS } from '@arbiter/engine/rulesets/bnc';

let seed = 1;

function randomChecked(seed: number): number {
  let s = bnc.setup({}, seed);
  const rnd = new SeededRandom(seed);
  let n = 0;
  while (!s.over) {
    const p = bnc.pending(s)[0];
    const menu = bnc.legal(s, p.seat).actions;
    const r = act(bnc, s, p.seat, menu[rnd.int(menu.length)]);
    if (!r.ok) throw new Error(`bench: menu action refused: ${r.error.reason}`);
    s = r.state;
    n++;
  }
  return n;
}

export const cases: BenchCase[] = [
  {
    name: 'bnc/scripted-matches',
    group: 'bnc',
    run: (budgetMs) =>
      measure('bnc/scripted-matches', budgetMs, () => {
        const m = playScripted(seed++, TEMPERAMENTS, false);
        return [1, m.actions];
      }),
  },
  {
    name: 'bnc/menu-random-checked',
    group: 'bnc',
    run: (budgetMs) => measure('bnc/menu-random-checked', budgetMs, () => [1, randomChecked(seed++)]),
  },
];
