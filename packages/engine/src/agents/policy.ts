// The one failure policy every transport goes through. Per decision: a deadline; the answer must
// carry the request id (answers to older requests are dropped and noted as stale); a bad answer
// (not JSON, not a decision, refused by the ruleset, too large) gets one retry with the reason fed
// back; then the ruleset's declared default action, reported to the runner as a default record.
// After K defaults in a row the seat is failed: it plays its default at once and its transport
// is closed (a hung program costs its deadline K times, then nothing).

import {
  defaultActionOf,
  validateAction,
  type Rejection,
  type Agent,
  type AgentContext,
  type Json,
  type JsonObject,
  type Seat,
} from '../kernel/index.ts';
import {
  decisionSchema,
  type DecisionRequest,
  type FailureReason,
  type MatchEnd,
  type MatchStart,
} from './protocol.ts';
import { MatchStop, type Reply, type StaleAnswers, type Transport } from './transport.ts';
import { clipRaw, type DefaultInfo } from '../engine/log.ts';

export interface PolicyOptions {
  /** Milliseconds per decision attempt. */
  deadlineMs: number;
  /** Defaults in a row after which the seat is failed. */
  maxFailures: number;
  /** Characters of a bad answer kept in the log record. */
  rawLimit: number;
}

/**
 * The environment's ARBITER_AGENT_DEADLINE_MS where there is an environment (Node); a browser has no
 * `process`, and the engine must load there too, so it is looked up rather than assumed.
 */
function deadlineOverride(): number {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return Number(env?.ARBITER_AGENT_DEADLINE_MS);
}

export const DEFAULT_POLICY: PolicyOptions = {
  deadlineMs: deadlineOverride() || 10_000,
  maxFailures: 3,
  rawLimit: 400,
};

/** The log's record of a default (docs/logs.md): which request, why, the answer cut short, the rejection. */
export type DefaultRecord = DefaultInfo;

/** One attempt as the transcript keeps it. */
export type AttemptRecord = {
  seat: Seat;
  request: string;
  attempt: number;
  latency_ms: number;
  ok: boolean;
  reason?: FailureReason;
  detail?: string;
  answer?: string;
  /** The newest stale answers (at most STALE_KEPT, each cut to 200 characters). */
  stale?: string[];
  /** How many stale answers came in all, when more came than `stale` keeps. */
  stale_count?: number;
  meta?: JsonObject;
};

export interface SeatDecision {
  action: Json;
  defaulted?: DefaultRecord;
  /** The request id the accepted answer carried (for the decision_result notice). */
  request?: string;
}

const MAX_MESSAGE = 500;
function clipMessage(s: string): string {
  return s.length > MAX_MESSAGE ? s.slice(0, MAX_MESSAGE - 1) + '…' : s;
}

function truncate(s: string, n: number): string {
  return s.length > n ? s.slice(0, n) + `…(${s.length} chars)` : s;
}

/** Wraps a plain in-process agent (random, heuristics) as a transport: same policy, no deadline. */
export function inProcessTransport(agent: Agent): Transport {
  return {
    name: agent.name,
    inProcess: true,
    start() {},
    decide(req, _signal, ctx) {
      const out = agent.choose(ctx);
      if (out instanceof Promise) {
        return out.then(
          (action) => ({ ok: true, message: { request: req.request, action: action ?? null }, raw: '' }),
          (err: unknown) => ({ ok: false, reason: 'error', detail: String((err as Error)?.message ?? err) }),
        );
      }
      return { ok: true, message: { request: req.request, action: out ?? null }, raw: '' };
    },
    close: () => agent.close?.(),
  };
}

export interface SeatAgentInit {
  seat: Seat;
  transport: Transport;
  policy: PolicyOptions;
  onAttempt?: (rec: AttemptRecord) => void;
  /** Put before every request id (a server numbers each connection, so ids stay unique in the match). */
  requestPrefix?: string;
}

/** One seat: its transport under the failure policy. The match runner talks only to these. */
export class SeatAgent implements Agent {
  readonly name: string;
  readonly seat: Seat;
  readonly transport: Transport;
  readonly policy: PolicyOptions;
  private readonly onAttempt?: (rec: AttemptRecord) => void;
  private readonly prefix: string;
  private counter = 0;
  private inARow = 0;
  failed = false;
  /** Defaults by reason, for reports. */
  readonly defaults: Partial<Record<FailureReason, number>> = {};

  constructor(init: SeatAgentInit) {
    this.seat = init.seat;
    this.transport = init.transport;
    this.name = init.transport.name;
    this.policy = init.policy;
    this.onAttempt = init.onAttempt;
    this.prefix = init.requestPrefix ?? '';
  }

  choose(): Json {
    throw new Error('SeatAgent decides through decide(), not choose()');
  }

  /**
   * Pick up where the seat's agent was before a restart: `answers` are its decisions so far, in
   * order (null for an accepted answer, else the default's reason), as the log recorded them. The
   * request ids go on from there, and the failure policy's count of defaults in a row, its verdict
   * (a failed seat stays failed) and the counts by reason are what they were.
   */
  resume(answers: readonly (FailureReason | null)[]): void {
    for (const reason of answers) {
      this.counter++;
      if (reason === null) {
        this.inARow = 0;
        continue;
      }
      this.defaults[reason] = (this.defaults[reason] ?? 0) + 1;
      if (reason === 'seat_failed' || ++this.inARow >= this.policy.maxFailures) this.fail();
    }
  }

  /** Fail the seat now (its agent could not start): it plays its default at once from here on. */
  fail(): void {
    if (this.failed) return;
    this.failed = true;
    void Promise.resolve(this.transport.close()).catch(() => {});
  }

  start(msg: MatchStart): Promise<void> | void {
    return this.transport.start(msg);
  }

  /**
   * Ask for one decision. `ctx` carries the snapshot state the answer is checked against;
   * `base` is the request without its id, deadline and attempt.
   */
  async decide(
    ctx: AgentContext,
    base: Omit<DecisionRequest, 'request' | 'deadline_ms' | 'attempt' | 'previous'>,
    declaredDefault: string | null,
  ): Promise<SeatDecision> {
    const n = ++this.counter;
    const idOf = (attempt: number) => `${this.prefix}s${this.seat}-${n}${attempt > 1 ? `-a${attempt}` : ''}`;
    const fallback = (
      reason: FailureReason,
      request: string,
      raw?: string,
      rejection?: Rejection,
      reply?: Reply,
    ): SeatDecision => {
      this.defaults[reason] = (this.defaults[reason] ?? 0) + 1;
      if (reason !== 'seat_failed' && ++this.inARow >= this.policy.maxFailures && !this.failed) {
        this.failed = true;
        // a failed seat plays its default at once from now on; free what its transport holds
        void Promise.resolve(this.transport.close()).catch(() => {});
      }
      const rec: DefaultRecord = { reason, request, raw: raw === undefined || raw === '' ? null : clipRaw(raw) };
      if (rejection) rec.error = rejection;
      // a model transport's own account of the failure (HTTP status, provider message)
      if (reply && !reply.ok && reply.status !== undefined) rec.status = reply.status;
      if (reply && !reply.ok && reply.message !== undefined) rec.message = clipMessage(reply.message);
      const action = defaultActionOf(ctx.menu, declaredDefault);
      this.transport.notify?.({ type: 'decision_result', request, accepted: true, defaulted: { reason, action } });
      return { action, defaulted: rec };
    };
    if (this.failed) return fallback('seat_failed', idOf(1));

    let previous: DecisionRequest['previous'];
    for (let attempt = 1; attempt <= 2; attempt++) {
      const request = idOf(attempt);
      const req: DecisionRequest = { ...base, request, deadline_ms: this.policy.deadlineMs, attempt };
      if (previous) req.previous = previous;
      const t0 = performance.now();
      const reply = await this.ask(req, ctx);
      const latency = Math.round((performance.now() - t0) * 10) / 10;
      const stale = this.transport.takeStale?.() ?? { texts: [], count: 0 };
      const verdict = this.judge(reply, req, ctx, stale);
      // built-in agents keep no transcript: nothing crossed a boundary
      if (!this.transport.inProcess) this.record(request, attempt, latency, verdict, reply, stale);
      if (verdict.ok) {
        this.inARow = 0;
        return { action: verdict.action, request };
      }
      const retryable =
        verdict.reason === 'invalid_json' || verdict.reason === 'refused' || verdict.reason === 'oversize';
      // a stale failure keeps the last answer that came for an older request, so the log shows it
      const raw =
        verdict.reason === 'stale' && !reply.raw && stale.texts.length > 0
          ? stale.texts[stale.texts.length - 1]
          : reply.raw;
      if (!retryable || attempt === 2) return fallback(verdict.reason, request, raw, verdict.rejection, reply);
      this.transport.notify?.({
        type: 'decision_result',
        request,
        accepted: false,
        rejection: { code: verdict.code, reason: verdict.detail ?? verdict.reason },
      });
      previous = {
        reason: verdict.reason,
        rejection: { code: verdict.code, reason: verdict.detail ?? verdict.reason },
      };
      if (reply.raw) previous.answer = truncate(reply.raw, this.policy.rawLimit);
    }
    /* c8 ignore next */
    throw new Error('unreachable');
  }

  private record(
    request: string,
    attempt: number,
    latency: number,
    verdict: { ok: boolean; reason?: FailureReason; detail?: string },
    reply: Reply,
    stale: StaleAnswers,
  ): void {
    if (!this.onAttempt) return;
    const rec: AttemptRecord = { seat: this.seat, request, attempt, latency_ms: latency, ok: verdict.ok };
    if (!verdict.ok) {
      rec.reason = verdict.reason;
      if (verdict.detail) rec.detail = verdict.detail;
    }
    if (reply.raw) rec.answer = truncate(reply.raw, 4000);
    if (stale.texts.length) rec.stale = stale.texts.map((s) => truncate(s, 200));
    if (stale.count > stale.texts.length) rec.stale_count = stale.count;
    if (reply.meta) rec.meta = reply.meta;
    this.onAttempt(rec);
  }

  /** Accepted decisions are confirmed to the agent once the runner applied them. */
  confirm(request: string): void {
    this.transport.notify?.({ type: 'decision_result', request, accepted: true });
  }

  private ask(req: DecisionRequest, ctx: AgentContext): Promise<Reply> | Reply {
    if (this.transport.inProcess) {
      try {
        return this.transport.decide(req, new AbortController().signal, ctx);
      } catch (err) {
        return { ok: false, reason: 'error', detail: String((err as Error)?.message ?? err) };
      }
    }
    // a slot the transport must wait for is not the seat's time: the deadline starts after it
    const admit = this.transport.admit?.(req);
    return admit ? admit.then((refused) => refused ?? this.askInTime(req, ctx)) : this.askInTime(req, ctx);
  }

  /** One attempt under the deadline; a MatchStop from the transport stops the match. */
  private askInTime(req: DecisionRequest, ctx: AgentContext): Promise<Reply> {
    const ac = new AbortController();
    return new Promise<Reply>((resolve, reject) => {
      let done = false;
      const finish = (r: Reply) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(r);
      };
      const timer = setTimeout(() => {
        ac.abort();
        const timeout: Reply = {
          ok: false,
          reason: 'timeout',
          detail: `no answer within ${this.policy.deadlineMs} ms`,
        };
        const meta = this.transport.abandoned?.();
        if (meta) timeout.meta = meta;
        finish(timeout);
      }, this.policy.deadlineMs);
      Promise.resolve()
        .then(() => this.transport.decide(req, ac.signal, ctx))
        .then(finish, (err: unknown) => {
          if (err instanceof MatchStop) {
            done = true;
            clearTimeout(timer);
            reject(err);
          } else finish({ ok: false, reason: 'error', detail: String((err as Error)?.message ?? err) });
        });
    });
  }

  private judge(
    reply: Reply,
    req: DecisionRequest,
    ctx: AgentContext,
    stale: StaleAnswers,
  ):
    | { ok: true; action: Json }
    | { ok: false; reason: FailureReason; code: string; detail?: string; rejection?: Rejection } {
    if (!reply.ok) {
      // a deadline that passed while only answers to older requests came in is a stale failure
      if (reply.reason === 'timeout' && stale.count > 0)
        return {
          ok: false,
          reason: 'stale',
          code: 'stale',
          detail: `only answers to older requests arrived (${stale.count})`,
        };
      return { ok: false, reason: reply.reason, code: reply.reason, detail: reply.detail };
    }
    // in-process agents hand over a value, not a message: nothing to parse or match
    const parsed = this.transport.inProcess
      ? { success: true as const, data: reply.message as { request: string; action: Json } }
      : decisionSchema.safeParse(reply.message);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        reason: 'invalid_json',
        code: 'bad_request',
        detail: `not a decision message: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
      };
    }
    if (parsed.data.request !== req.request)
      return {
        ok: false,
        reason: 'stale',
        code: 'stale',
        detail: `answer for request ${parsed.data.request}, expected ${req.request}`,
      };
    let verdict;
    try {
      verdict = validateAction(ctx.ruleset, ctx.state, ctx.seat, parsed.data.action);
    } catch (err) {
      const why = `the answer could not be checked: ${(err as Error).message}`;
      return {
        ok: false,
        reason: 'refused',
        code: 'bad_request',
        detail: why,
        rejection: { code: 'bad_request', reason: why },
      };
    }
    if (!verdict.ok)
      return {
        ok: false,
        reason: 'refused',
        code: verdict.error.code,
        detail: verdict.error.reason,
        rejection: verdict.error,
      };
    return { ok: true, action: parsed.data.action };
  }

  end(msg: MatchEnd): Promise<void> | void {
    if (this.failed) return;
    return this.transport.end?.(msg);
  }

  close(): Promise<void> | void {
    return this.transport.close();
  }
}
