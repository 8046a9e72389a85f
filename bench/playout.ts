// Random playouts through the public contract, shared by every ruleset's benchmark: the acting
// seat is the first pending one and the action a seeded pick from its menu.

import { act, step, type GameEvent, type Ruleset, type SeededRandom, type Json } from '@arbiter/engine/kernel';

/** Trusted fast path: `step` applies the menu action in place. `trace` (tests) gets the picks. */
export function randomPlayout<S, A extends Json>(
  rs: Ruleset<S, A>,
  config: unknown,
  seed: number,
  rng: SeededRandom,
  events: GameEvent[],
  trace?: A[],
): { state: S; moves: number } {
  const state = rs.setup(config, seed);
  let moves = 0;
  for (;;) {
    const pending = rs.pending(state);
    if (pending.length === 0) break;
    const seat = pending[0].seat;
    const actions = rs.legal(state, seat).actions;
    // index straight into the menu: no copy of the action
    const action = actions[rng.int(actions.length)];
    if (trace) trace.push(action);
    step(rs, state, seat, action, events);
    moves++;
  }
  // benchmarks do not keep events; dropping them per game keeps memory flat
  events.length = 0;
  return { state, moves };
}

/** The same game through the checked path: every move is validated and applied to a copy. */
export function randomPlayoutChecked<S, A extends Json>(
  rs: Ruleset<S, A>,
  config: unknown,
  seed: number,
  rng: SeededRandom,
  trace?: A[],
): { state: S; moves: number } {
  let state = rs.setup(config, seed);
  let moves = 0;
  for (;;) {
    const pending = rs.pending(state);
    if (pending.length === 0) break;
    const seat = pending[0].seat;
    const actions = rs.legal(state, seat).actions;
    const action = actions[rng.int(actions.length)];
    if (trace) trace.push(action);
    const res = act(rs, state, seat, action);
    if (!res.ok) throw new Error(`${rs.id}: a menu action was refused: ${res.error.reason}`);
    state = res.state;
    moves++;
  }
  return { state, moves };
}
