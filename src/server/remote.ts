// A remote agent: a program anywhere that holds a seat token and speaks the agent protocol
// (arbiter-agent/1) over the server's WebSocket. This file is only the transport — it moves
// protocol messages over one socket; the failure policy (deadline, request ids, one retry, the
// declared default, K failures in a row) is the same SeatAgent every other transport runs under.

import type { AgentContext } from '@arbiter/engine/kernel';
import type { DecisionRequest, DecisionResult, MatchEnd, MatchStart } from '@arbiter/engine/agents';
import { AnswerSlot } from '@arbiter/engine/agents';
import type { Reply, StaleAnswers, Transport } from '@arbiter/engine/agents';

/** The bits of a WebSocket the transport needs (kept small so tests can drive it without a socket). */
export interface Channel {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** Close codes a protocol socket may see from the server. */
export const REMOTE_CLOSE = {
  /** match_end was sent: the match is over. */
  ended: 1000,
  /** K decisions in a row failed: the seat now plays its default at once. */
  seatFailed: 4408,
  /** Another protocol connection already plays this seat. */
  taken: 4409,
  /** The seat was left (its token no longer works). */
  left: 4410,
} as const;

export class RemoteTransport implements Transport {
  readonly name: string;
  private readonly slot = new AnswerSlot();
  private gone = false;
  private ended = false;
  private oversize = false;

  constructor(
    private readonly channel: Channel,
    seat: number,
  ) {
    this.name = `remote:seat-${seat}`;
  }

  private send(msg: unknown): void {
    if (this.gone) return;
    try {
      this.channel.send(JSON.stringify(msg));
    } catch {
      this.lost();
    }
  }

  start(msg: MatchStart): void {
    this.send(msg);
  }

  /** One text message from the agent. */
  onMessage(text: string): void {
    this.slot.receive(text);
  }

  /** The socket refused a message over its size limit (it closes right after). */
  onOversize(): void {
    this.oversize = true;
    this.slot.settle({
      ok: false,
      reason: 'oversize',
      detail: 'a message over the server size limit closed the socket',
    });
  }

  /** The socket closed (agent gone, network lost, server draining). */
  lost(): void {
    this.gone = true;
    if (this.oversize) return;
    this.slot.settle({ ok: false, reason: 'exited', detail: 'the agent disconnected' });
  }

  get connected(): boolean {
    return !this.gone;
  }

  decide(req: DecisionRequest, signal: AbortSignal, _ctx: AgentContext): Promise<Reply> {
    if (this.gone) return Promise.resolve({ ok: false, reason: 'exited', detail: 'the agent disconnected' });
    return this.slot.wait(req.request, signal, () => this.send(req));
  }

  takeStale(): StaleAnswers {
    return this.slot.takeStale();
  }

  notify(msg: DecisionResult): void {
    this.send(msg);
  }

  end(msg: MatchEnd): void {
    this.send(msg);
    this.ended = true;
  }

  /** Close the socket: after match_end normally, otherwise because the policy failed the seat. */
  close(): void {
    this.closeWith(
      this.ended ? REMOTE_CLOSE.ended : REMOTE_CLOSE.seatFailed,
      this.ended ? 'match over' : 'seat failed',
    );
  }

  closeWith(code: number, reason: string): void {
    if (this.gone) return;
    this.slot.settle({ ok: false, reason: 'exited', detail: reason });
    this.gone = true;
    try {
      this.channel.close(code, reason);
    } catch {
      /* already closed */
    }
  }
}
