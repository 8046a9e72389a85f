// The checked entry points around a ruleset: `act` (untrusted input, never mutates its argument)
// and `step` (trusted menu actions, in place, for simulations). Both go through the ruleset's own
// `apply`, so there is one transition, not a fast toy copy of it.

import type { GameEvent, Ruleset, Seat, Validation } from './contract.ts';
import { reject, type Rejection } from './errors.ts';
import { cloneJson, type Json } from './json.ts';
import { validateByMenu } from './menu.ts';

export type ActResult<S> = { ok: true; state: S; events: GameEvent[] } | { ok: false; error: Rejection };

export function cloneState<S>(rs: Ruleset<S>, state: S): S {
  return rs.clone ? rs.clone(state) : cloneJson(state);
}

/** The checks every ruleset shares: seat shape, game over, seat owes a decision. */
function checkSeat<S>(rs: Ruleset<S>, state: S, seat: unknown): Rejection | null {
  if (typeof seat !== 'number' || !Number.isInteger(seat)) {
    return reject('bad_request', 'seat must be an integer', { seat: describeValue(seat) });
  }
  const n = rs.seats(state);
  if (seat < 0 || seat >= n) {
    return reject('bad_request', `seat ${seat} does not exist (seats are 0..${n - 1})`, { seat });
  }
  if (rs.outcome(state) !== null) return reject('game_over', 'the game is over');
  const pending = rs.pending(state);
  if (!pending.some((p) => p.seat === seat)) {
    return reject('out_of_turn', `seat ${seat} owes no decision now`, {
      seat,
      pending: pending.map((p) => p.seat),
    });
  }
  return null;
}

/** Apply untrusted input. The given state is never changed; on rejection nothing happens. */
export function act<S>(rs: Ruleset<S>, state: S, seat: unknown, input: unknown): ActResult<S> {
  const bad = checkSeat(rs, state, seat);
  if (bad) return { ok: false, error: bad };
  let checked;
  try {
    checked = validateAction(rs, state, seat as Seat, input);
  } catch (err) {
    // a validator must not throw; if one does, the input is still refused and nothing changes
    return { ok: false, error: reject('bad_request', `input could not be checked: ${(err as Error).message}`) };
  }
  if (!checked.ok) return checked;
  const next = cloneState(rs, state);
  const events: GameEvent[] = [];
  rs.apply(next, seat as Seat, checked.action, events);
  return { ok: true, state: next, events };
}

/** The ruleset's own `validate`, or the kernel default (menu membership). Never changes `state`. */
export function validateAction<S, A extends Json>(
  rs: Ruleset<S, A>,
  state: S,
  seat: Seat,
  input: unknown,
): Validation<A> {
  return rs.validate ? rs.validate(state, seat, input) : validateByMenu(rs.legal(state, seat).actions, input);
}

/** Trusted fast path: apply a menu action in place. The caller owns `state`. */
export function step<S, A extends Json>(rs: Ruleset<S, A>, state: S, seat: Seat, action: A, events: GameEvent[]): void {
  rs.apply(state, seat, action, events);
}

function describeValue(v: unknown): Json {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'string') return v.length > 40 ? v.slice(0, 40) + '…' : v;
  return Array.isArray(v) ? 'array' : typeof v;
}
