// duel benchmarks: the explorer on the CI preset (states per CPU second, with and without the
// per-transition contract checks) and random full-size games per CPU second.

import { SeededRandom, type GameEvent } from '@arbiter/engine/kernel';
import { duel, duelPackage, type DuelState } from '@arbiter/engine/rulesets/duel';
import { explore } from '../src/runners/explore.ts';
import { measure, type BenchCase, type BenchResult } from './types.ts';

function exploreCase(name: string, checked: boolean, statesPerMs: number): BenchCase {
  return {
    name,
    group: 'duel',
    run(budgetMs: number): BenchResult {
      // a state bound sized to the budget (statesPerMs: about the no-check rate of a whole run);
      // the whole CI preset is 340,571 states
      const maxStates = Math.max(5000, Math.round(budgetMs * statesPerMs));
      const r = explore(duel, { config: duelPackage.presets.ci, checkTransitions: checked, maxStates });
      const ms = r.cpuSeconds * 1000;
      return {
        case: name,
        games: r.complete ? 1 : 0,
        moves: r.states,
        cpu_ms: Math.round(ms),
        games_per_cpu_s: 0,
        moves_per_cpu_s: r.statesPerSecond,
        extra: {
          states: r.states,
          transitions: r.transitions,
          complete: r.complete,
          checks: checked,
          wall_s: r.seconds,
        },
      };
    },
  };
}

function randomGame(seed: number): [number, number] {
  const rnd = new SeededRandom(seed);
  const s: DuelState = duel.setup({}, seed);
  const events: GameEvent[] = [];
  let moves = 0;
  while (s.result === null) {
    const seat = s.ask!.seat;
    const menu = duel.legal(s, seat).actions;
    duel.apply(s, seat, menu[rnd.int(menu.length)], events);
    moves++;
    events.length = 0;
  }
  return [1, moves];
}

let seed = 0;
export const cases: BenchCase[] = [
  exploreCase('duel/explore-ci', false, 250),
  exploreCase('duel/explore-ci-checked', true, 30),
  {
    name: 'duel/random-games',
    group: 'duel',
    run: (budgetMs) => measure('duel/random-games', budgetMs, () => randomGame(++seed)),
  },
];
