// The service's refusals, as domain codes. The match service, auth and the stores never pick an
// HTTP status: they throw a DomainError naming what went wrong, and the HTTP edge (http.ts) maps
// each domain code to its status in one table. Each code also names the drive protocol's error
// code that goes on the wire, so clients keep seeing the codes they know.

import { ArbiterError, type ErrorCode, type Json } from '@arbiter/engine/kernel';

/** Every domain code and the protocol error code a client receives for it. */
export const DOMAIN_ERRORS = {
  /** A request that needs a seat token came without one. */
  token_required: 'bad_request',
  /** The token holds no seat in this match. */
  token_unknown: 'bad_request',
  /** An Authorization header that is not `Bearer TOKEN`. */
  malformed_auth: 'bad_request',
  /** A private match's spectator without its password (or a wrong one). */
  spectate_password: 'bad_request',
  /** A running match whose audience sees every secret, watchable only once over. */
  spectate_closed: 'bad_request',
  /** A spectator tried to act. */
  spectator_acts: 'bad_request',
  /** No open seat is left to join. */
  no_open_seat: 'illegal',
  /** The seat asked for is taken. */
  seat_not_open: 'illegal',
  /** The seat was taken by someone else between the check and the claim. */
  seat_taken: 'illegal',
  /** A protocol agent already plays this seat. */
  seat_connected: 'illegal',
  /** The match is over: nobody joins it. */
  match_over: 'game_over',
  /** A waiting match nobody joined in time. */
  match_expired: 'game_over',
  /** The match waits for its open seats. */
  match_waiting: 'out_of_turn',
  /** Other servers kept changing the match while this one judged an action. */
  match_moved_on: 'out_of_turn',
  /** An idempotency key already used by another seat of the match. */
  idempotency_conflict: 'bad_request',
  /** The match's stored history does not replay: it refuses changes. */
  match_broken: 'corrupt_log',
  /** The server is draining. */
  shutting_down: 'bad_request',
  /** JSON nested deeper than the edge allows. */
  too_deep: 'bad_request',
  /** A seat's transcript that this audience may not read yet (it holds answers not yet played). */
  transcript_withheld: 'bad_request',
} as const satisfies Record<string, ErrorCode>;

export type DomainCode = keyof typeof DOMAIN_ERRORS;

export const DOMAIN_CODES = Object.keys(DOMAIN_ERRORS) as DomainCode[];

/** A refusal of the match service, named by its domain code (the edge chooses the status). */
export class DomainError extends ArbiterError {
  readonly domain: DomainCode;
  constructor(domain: DomainCode, reason: string, detail?: Json) {
    super(DOMAIN_ERRORS[domain], reason, detail);
    this.domain = domain;
  }
}
