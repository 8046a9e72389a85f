// What a transport (in-process, `cmd:`, `http:`, `llm:`) must provide. A transport only moves
// protocol messages; the failure policy (deadlines, request ids, retry, default) is one piece of
// code in policy.ts, the same for all of them.

import { ArbiterError, type Agent, type AgentContext, type JsonObject } from '../kernel/index.ts';
import type { DecisionRequest, DecisionResult, FailureReason, MatchEnd, MatchStart } from './protocol.ts';

export type Reply =
  /** A message from the agent, parsed as JSON (the policy checks its shape, request id and action). */
  | { ok: true; message: unknown; raw: string; meta?: JsonObject }
  /**
   * The transport already knows the attempt failed (no answer, a line too long, the program gone).
   * `status` and `message` (a model provider's HTTP status and error message, or the transport's
   * own words) go into the log's default record.
   */
  | {
      ok: false;
      reason: FailureReason;
      raw?: string;
      detail?: string;
      meta?: JsonObject;
      status?: number | null;
      message?: string;
    };

export interface Transport {
  readonly name: string;
  /**
   * Called once before the match (and before any other seat's match_start is awaited to
   * completion): a missing program or an unreachable service must throw an ArbiterError here.
   */
  start(msg: MatchStart): Promise<void> | void;
  /**
   * Ask for one decision. Must settle when `signal` aborts (the deadline passed). `ctx` is the
   * in-process context; transports that cross a process boundary send only `req`.
   */
  decide(req: DecisionRequest, signal: AbortSignal, ctx: AgentContext): Promise<Reply> | Reply;
  notify?(msg: DecisionResult): void;
  end?(msg: MatchEnd): Promise<void> | void;
  /** Release everything (kill the process group, close sockets). Safe to call more than once. */
  close(): Promise<void> | void;
  /** Stale answers (wrong request id) that arrived since the last call. */
  takeStale?(): StaleAnswers;
  /** Per-seat figures for reports (token usage ...). */
  usage?(): JsonObject;
  /** True when the transport answers synchronously in-process (no deadline can apply). */
  readonly inProcess?: boolean;
  /**
   * Wait until the transport may send (a free concurrency slot). The decision's deadline starts only
   * after this settles, so a seat is not charged for its neighbours; the wait has its own limit, and
   * a failure reply gives the attempt up with that reply.
   */
  admit?(req: DecisionRequest): Promise<Reply | null>;
  /** What the transport had sent for an attempt the deadline gave up (its prompt), for the transcript. */
  abandoned?(): JsonObject | undefined;
}

/**
 * An error that stops the whole match instead of defaulting one decision (a cassette with no answer
 * for a request, a spending budget reached): the failure policy passes it on to the runner.
 */
export class MatchStop extends ArbiterError {
  readonly stop = true;
}

/** Answers that came for no open request: the newest few, raw, and how many came in all. */
export type StaleAnswers = { texts: string[]; count: number };

/** An agent backed by a protocol transport (`cmd:`, `http:`, `llm:`); plain agents are wrapped. */
export type TransportAgent = Agent & { transport: Transport };
