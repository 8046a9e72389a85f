// A whole match between scripted temperaments on the trusted fast path (menu-equivalent actions
// applied in place), for the benchmark, the simulation figures and the policy tests.

import { SeededRandom, type GameEvent } from '../../kernel/index.ts';
import { choosePolicy, type Memory, type Temperament } from './agents.ts';
import { submit } from './resolve.ts';
import { setupState } from './setup.ts';
import type { BncState } from './state.ts';

export interface FastMatch { state: BncState; events: GameEvent[]; actions: number }

export function playScripted(seed: number, lineup: readonly Temperament[], keepEvents = true): FastMatch {
  const s = setupState({ contestants: lineup.length }, seed);
  const mems: Memory[] = lineup.map(() => ({ visited: [] }));
  const rnd = new SeededRandom(seed ^ 0x6b6e63);
  const events: GameEvent[] = [];
  const scratch: GameEvent[] = [];
  let actions = 0;
  while (!s.over) {
    for (const c of s.contestants) {
      if (c.status !== 'active' || c.submitted !== null || s.over) continue;
      const a = choosePolicy(lineup[c.seat], s, c.seat, mems[c.seat], rnd);
      submit(s, c.seat, a, keepEvents ? events : scratch);
      if (!keepEvents) scratch.length = 0;
      actions++;
    }
  }
  return { state: s, events, actions };
}
