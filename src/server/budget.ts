// Rate budgets: how many requests (or WebSocket messages) each key may spend per minute. A key is
// a seat token's hash or a client address (http.ts decides which, issue 27 item 6). Every count
// starts again at each whole minute of the server's clock; one Map lookup per request, where
// @fastify/rate-limit's hook (a store object, a promise and four headers per request) was measurable
// under load.

export class Budgets {
  private used = new Map<string, number>();
  /** When the current minute ends (ms since the epoch). */
  private ends: number;

  constructor(
    /** What each key may spend per minute. */
    readonly max: number,
    private readonly now: () => number = Date.now,
  ) {
    this.ends = this.minuteEnd(now());
  }

  private minuteEnd(t: number): number {
    return t - (t % 60_000) + 60_000;
  }

  /** Spend one from `key`'s budget: false when it was already spent this minute (nothing is spent). */
  spend(key: string): boolean {
    const t = this.now();
    // the minute is checked on use, so no timer is needed and an idle server keeps nothing
    if (t >= this.ends) {
      this.used.clear();
      this.ends = this.minuteEnd(t);
    }
    const n = this.used.get(key) ?? 0;
    if (n >= this.max) return false;
    this.used.set(key, n + 1);
    return true;
  }

  /** Whole seconds until every budget is whole again (for Retry-After). */
  retryAfter(): number {
    return Math.max(1, Math.ceil((this.ends - this.now()) / 1000));
  }
}
