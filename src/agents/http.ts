// `http:URL` — an agent as a web service: every protocol message is POSTed to the URL as JSON;
// the response to a decision_request is the decision. Any language, any machine; the same
// deadlines, retries and recorded defaults as every other transport (policy.ts).

import { ArbiterError, type Json } from '@arbiter/engine/kernel';
import type { DecisionRequest, DecisionResult, MatchEnd, MatchStart } from '@arbiter/engine/agents';
import type { Reply, Transport, TransportAgent } from '@arbiter/engine/agents';

export interface HttpOptions {
  /** Most bytes read from one response (default 4 MiB). */
  maxBytes?: number;
  /** Time allowed for match_start, decision_result and match_end posts (default 5000 ms). */
  noticeMs?: number;
}

/** Reads a response body up to `max` bytes; null when it is longer (the rest is not read). */
async function readCapped(res: Response, max: number): Promise<string | null> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    parts.push(value);
  }
  return Buffer.concat(parts).toString('utf8');
}

class HttpTransport implements Transport {
  readonly name: string;
  private readonly url: URL;
  private readonly maxBytes: number;
  private readonly noticeMs: number;
  private closed = false;

  constructor(url: string, opts: HttpOptions = {}) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new ArbiterError('bad_request', `http: needs a URL, e.g. http:http://127.0.0.1:8080/agent (got "${url}")`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new ArbiterError('bad_request', `http: agent URL must be http(s), got ${u.protocol}`);
    this.url = u;
    this.name = `http:${url}`;
    this.maxBytes = opts.maxBytes ?? 4 << 20;
    this.noticeMs = opts.noticeMs ?? 5000;
  }

  private post(msg: unknown, signal: AbortSignal): Promise<Response> {
    return fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(msg),
      signal,
    });
  }

  async start(msg: MatchStart): Promise<void> {
    let res: Response;
    try {
      res = await this.post(msg, AbortSignal.timeout(this.noticeMs));
      await res.arrayBuffer().catch(() => {});
    } catch (err) {
      throw new ArbiterError('not_found', `http: agent at ${this.url.href} is unreachable (${(err as Error).message})`);
    }
    if (!res.ok)
      throw new ArbiterError(
        'bad_request',
        `http: agent at ${this.url.href} refused match_start with HTTP ${res.status}`,
      );
  }

  async decide(req: DecisionRequest, signal: AbortSignal): Promise<Reply> {
    if (this.closed) return { ok: false, reason: 'exited', detail: 'the agent was closed' };
    let res: Response;
    try {
      res = await this.post(req, signal);
    } catch (err) {
      if (signal.aborted) return { ok: false, reason: 'timeout' };
      return { ok: false, reason: 'error', detail: `request failed: ${(err as Error).message}` };
    }
    let text: string | null;
    try {
      text = await readCapped(res, this.maxBytes);
    } catch (err) {
      if (signal.aborted) return { ok: false, reason: 'timeout' };
      return { ok: false, reason: 'error', detail: `reading the answer failed: ${(err as Error).message}` };
    }
    if (text === null) return { ok: false, reason: 'oversize', detail: `an answer longer than ${this.maxBytes} bytes` };
    if (!res.ok) return { ok: false, reason: 'error', raw: text, detail: `HTTP ${res.status}` };
    try {
      return { ok: true, message: JSON.parse(text), raw: text };
    } catch {
      return { ok: false, reason: 'invalid_json', raw: text, detail: 'the answer is not JSON' };
    }
  }

  private notice(msg: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.post(msg, AbortSignal.timeout(this.noticeMs)).then(
      (r) =>
        r.arrayBuffer().then(
          () => {},
          () => {},
        ),
      () => {},
    );
  }

  notify(msg: DecisionResult): void {
    void this.notice(msg);
  }

  end(msg: MatchEnd): Promise<void> {
    return this.notice(msg);
  }

  close(): void {
    this.closed = true;
  }
}

export function httpAgent(url: string, opts: HttpOptions = {}): TransportAgent {
  const transport = new HttpTransport(url, opts);
  return {
    name: transport.name,
    transport,
    choose(): Json {
      throw new ArbiterError('bad_request', 'an http: agent answers through the match runner, not choose()');
    },
  };
}
