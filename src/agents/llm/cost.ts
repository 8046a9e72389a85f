// What model seats cost: prices come from the line-up (the user's own figures, in US dollars per
// million tokens), never from this code. A budget reserves the most a request can cost before it
// is sent and settles the real cost from the usage the provider reports, so the spend never passes
// the budget however many seats ask at once.

import { ArbiterError } from '@arbiter/engine/kernel';
import type { Usage } from './providers.ts';
import { MatchStop } from '@arbiter/engine/agents';

export type Price = {
  /** Dollars per million input tokens not read from the cache. */
  input: number;
  output: number;
  /** Dollars per million input tokens read from the prompt cache (default: the input price). */
  cached_input?: number;
  /** Dollars per million input tokens written to the cache (default: the input price). */
  cache_write?: number;
};

/** Characters per token the estimates assume (the stand-in counts the same way). */
export const CHARS_PER_TOKEN = 4;

export function costOf(u: Usage, p: Price): number {
  const plain = Math.max(0, u.input - u.cached - u.cacheWrite);
  return (
    (plain * p.input +
      u.cached * (p.cached_input ?? p.input) +
      u.cacheWrite * (p.cache_write ?? p.input) +
      u.output * p.output) /
    1e6
  );
}

/** The most one request can cost: every input token at the highest input price, the whole output limit. */
export function worstCase(inputChars: number, maxTokens: number, p: Price): number {
  const inputTokens = Math.ceil(inputChars / CHARS_PER_TOKEN);
  const top = Math.max(p.input, p.cache_write ?? p.input);
  return (inputTokens * top + maxTokens * p.output) / 1e6;
}

export class Budget {
  spent = 0;
  private reserved = 0;
  constructor(readonly limit: number) {
    if (!(limit > 0) || !Number.isFinite(limit))
      throw new ArbiterError('bad_request', `--budget must be a positive number of dollars, got ${limit}`);
  }

  /** Hold `amount` for one request, or stop the match when it could pass the budget. */
  reserve(amount: number, what: string): void {
    if (this.spent + this.reserved + amount > this.limit)
      throw new MatchStop(
        'bad_request',
        `budget reached: $${this.spent.toFixed(4)} spent of $${this.limit}, and ${what} could cost up to $${amount.toFixed(4)}`,
        { stop: 'budget', spent: this.spent, limit: this.limit },
      );
    this.reserved += amount;
  }

  settle(reservedAmount: number, actual: number): void {
    this.reserved -= reservedAmount;
    this.spent += actual;
  }
}
