// GROUND, played at random through the trusted fast path (setup / pending / legal / step, in
// place): complete 4-player games per CPU second and microseconds per action, plus the checked
// path (validate + copy per action) for comparison.

import { SeededRandom, type GameEvent } from '@arbiter/engine/kernel';
import { ground } from '@arbiter/engine/rulesets/ground';
import { measure, type BenchCase } from './types.ts';
import { randomPlayout, randomPlayoutChecked } from './playout.ts';

export const BENCH_SEED = 20261129;

function fastCase(players: number): BenchCase {
  return {
    name: `ground/random-${players}p`,
    group: 'ground',
    run(budgetMs) {
      const rng = new SeededRandom(BENCH_SEED);
      const events: GameEvent[] = [];
      const config = { players };
      let seed = 0;
      const r = measure(
        this.name,
        budgetMs,
        () => [1, randomPlayout(ground, config, seed++ >>> 0, rng, events).moves],
        {
          path: 'step (trusted menu actions, in place)',
        },
      );
      r.extra = {
        ...r.extra,
        us_per_action: r.moves_per_cpu_s > 0 ? Math.round((1e6 / r.moves_per_cpu_s) * 1000) / 1000 : null,
        target_20k_games_per_s: players === 4 ? r.games_per_cpu_s >= 20000 : null,
      };
      return r;
    },
  };
}

const checkedCase: BenchCase = {
  name: 'ground/random-4p-checked',
  group: 'ground',
  run(budgetMs) {
    const rng = new SeededRandom(BENCH_SEED);
    const config = { players: 4 };
    let seed = 0;
    const r = measure(this.name, budgetMs, () => [1, randomPlayoutChecked(ground, config, seed++ >>> 0, rng).moves], {
      path: 'act (validate + copy)',
    });
    r.extra = {
      ...r.extra,
      us_per_action: r.moves_per_cpu_s > 0 ? Math.round((1e6 / r.moves_per_cpu_s) * 1000) / 1000 : null,
    };
    return r;
  },
};

export const cases: BenchCase[] = [fastCase(4), fastCase(2), fastCase(6), checkedCase];
