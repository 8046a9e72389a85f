// The one decision a protocol transport waits for at a time, shared by every transport that reads
// answers as text (`cmd:` lines, remote WebSocket messages): it judges each text against the open
// request, keeps the late ones as stale, and settles the wait exactly once.

import type { Reply, StaleAnswers } from './transport.ts';

/**
 * How many stale texts are kept between two decisions (the newest). An agent that floods the
 * channel while nothing is asked must not grow the server's memory or the transcript without
 * bound; the count of all of them is still kept.
 */
export const STALE_KEPT = 16;

export class AnswerSlot {
  private open: { request: string; resolve: (r: Reply) => void } | null = null;
  private stale: string[] = [];
  private staleCount = 0;

  /** True while a decision is awaited. */
  get waiting(): boolean {
    return this.open !== null;
  }

  /** Wait for the answer to `request`; `send` puts the request on the wire once the wait is open. */
  wait(request: string, signal: AbortSignal, send: () => void): Promise<Reply> {
    return new Promise<Reply>((resolve) => {
      this.open = { request, resolve };
      signal.addEventListener('abort', () => this.settle({ ok: false, reason: 'timeout' }), { once: true });
      send();
    });
  }

  /** End the open wait (if any) with `r`; later calls do nothing until the next wait. */
  settle(r: Reply): void {
    const c = this.open;
    if (!c) return;
    this.open = null;
    c.resolve(r);
  }

  /** One complete text from the agent. */
  receive(text: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      if (this.open) this.settle({ ok: false, reason: 'invalid_json', raw: text, detail: 'the answer is not JSON' });
      else this.keepStale(text);
      return;
    }
    const request =
      msg !== null && typeof msg === 'object' && !Array.isArray(msg)
        ? (msg as { request?: unknown }).request
        : undefined;
    // a message with no request id while one is open is judged (and refused) by the policy;
    // one naming another request answers an older one (or nothing asked): dropped, noted as stale
    if (this.open && (request === undefined || request === this.open.request))
      this.settle({ ok: true, message: msg, raw: text });
    else this.keepStale(text);
  }

  private keepStale(text: string): void {
    this.staleCount++;
    if (this.stale.length === STALE_KEPT) this.stale.shift();
    this.stale.push(text);
  }

  /** Stale answers since the last call: the newest `STALE_KEPT` texts, and how many came in all. */
  takeStale(): StaleAnswers {
    const s = { texts: this.stale, count: this.staleCount };
    this.stale = [];
    this.staleCount = 0;
    return s;
  }
}
