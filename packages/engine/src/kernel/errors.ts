import type { Json } from './json-types.ts';

/**
 * Every refusal the engine gives is one of these codes. Rulesets put finer distinctions
 * (a sub-reason, the offending field) in `detail`.
 *  - bad_request: the input is not of the right shape (not JSON, wrong types, unknown fields, too long)
 *  - illegal: well-formed, but the rules do not allow it now (not in the menu)
 *  - out_of_turn: the seat owes no decision now
 *  - game_over: the match has ended
 *  - bad_config: a configuration or edition file is invalid
 *  - corrupt_log: a match log cannot be read or does not replay
 *  - not_found: an unknown ruleset, agent, scenario or file
 *  - too_large: an input over a size limit (a drive line, a log line, a YAML or edition file)
 */
export type ErrorCode =
  | 'bad_request'
  | 'illegal'
  | 'out_of_turn'
  | 'game_over'
  | 'bad_config'
  | 'corrupt_log'
  | 'not_found'
  | 'too_large';

export type Rejection = {
  code: ErrorCode;
  reason: string;
  detail?: Json;
};

/** The one error type user mistakes are thrown as; the CLI prints it without a stack trace. */
export class ArbiterError extends Error {
  readonly code: ErrorCode;
  readonly detail: Json | undefined;
  constructor(code: ErrorCode, reason: string, detail?: Json) {
    super(reason);
    this.name = 'ArbiterError';
    this.code = code;
    this.detail = detail;
  }
  toRejection(): Rejection {
    return this.detail === undefined
      ? { code: this.code, reason: this.message }
      : { code: this.code, reason: this.message, detail: this.detail };
  }
}

export function reject(code: ErrorCode, reason: string, detail?: Json): Rejection {
  return detail === undefined ? { code, reason } : { code, reason, detail };
}
