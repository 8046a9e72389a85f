// One live match in memory and its fan-out: the match engine (state, hashes, seats and their
// agents), its stored rows, the queue that orders its changes, and who is watching, with the cut of
// what each audience may see in a frame. Persistence and auth live elsewhere (records.ts, auth.ts).

import type { GameEvent, JsonObject, Menu, Outcome, Pending, RulesetPackage, Seat } from '@arbiter/engine/kernel';
import type { SeatAgent } from '@arbiter/engine/agents';
import { eventsGuarded, publicPending, type EventTexts, type LogHeader, type MatchEngine } from '@arbiter/engine/match';
import type { RemoteTransport } from './remote.ts';
import type { MatchRow, MatchStatus, SeatRow } from './store.ts';
import type { Lineup, LineupSeat } from '../agents/lineup.ts';

/** The line-up a live episode plays (episodes.ts chooses it; kept here, where the match holds it, so
 * neither module needs the other's definitions). */
export type ChosenLineup = {
  lineup: Lineup;
  version: string;
  seats: LineupSeat[];
  /** The header's agent names, as `arbiter play --lineup` writes them. */
  names: string[];
  header: Pick<LogHeader, 'lineup' | 'seats'>;
};

/** A WebSocket (or any push channel) watching one match as one audience. */
export interface Subscriber {
  seat: Seat | null;
  send(frame: JsonObject): void;
}

/**
 * A seat played by a remote agent over the protocol socket: its transport under the one failure
 * policy (the engine asks it like any agent seat). A failed seat keeps its entry (with the socket
 * closed) and plays its default at once until a new protocol connection takes the seat.
 */
export type RemoteSeat = { transport: RemoteTransport; agent: SeatAgent };

/** Told when events were withheld from an audience because they would have revealed a secret. */
export type Withheld = (m: LiveMatch, seat: Seat | null) => void;

/**
 * One match in memory: its match engine, its rows, and who is watching. The engine decides; the
 * service adds persistence, agents and the turn deadline of seats played by people.
 */
export class LiveMatch {
  readonly engine: MatchEngine<unknown>;
  status: MatchStatus;
  seats: SeatRow[];
  readonly subs = new Set<Subscriber>();
  /** When each seat left to a person began to owe its decision (for turn deadlines). */
  readonly pendingSince = new Map<Seat, number>();
  timer: NodeJS.Timeout | null = null;
  /** Pause before each batch of agent moves (0: none), and the timer of the next paced batch. */
  agentDelayMs = 0;
  agentTimer: NodeJS.Timeout | null = null;
  /** Seats played by remote agents over the agent protocol (docs/agents.md). */
  readonly remote = new Map<Seat, RemoteSeat>();
  /** Agents this server plays (built-in, and with --allow-external-agents cmd:, http:, llm:). */
  readonly agents = new Map<Seat, SeatAgent>();
  /** Agents whose match_start is done (or failed, which fails the seat). */
  readonly started = new Map<Seat, Promise<void>>();
  /** Protocol connections so far (request ids carry it, so they stay unique in the match). */
  connections = 0;
  /** Set when the stored history does not replay: the match refuses changes. */
  broken: string | null = null;
  /** The line-up its seats came from, when one was chosen (its model seats' settings live here). */
  lineup: ChosenLineup | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly pkg: RulesetPackage,
    public row: MatchRow,
    engine: MatchEngine<unknown>,
    seats: SeatRow[],
    private readonly withheld: Withheld = () => {},
  ) {
    this.engine = engine;
    this.status = row.status;
    this.seats = seats;
  }

  get id(): string {
    return this.row.id;
  }

  get state(): unknown {
    return this.engine.state;
  }

  get seq(): number {
    return this.engine.seq;
  }

  get outcome(): Outcome | null {
    return this.engine.outcome;
  }

  /** Run `fn` after every change queued before it (one writer per match in this process). */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  pending(): Pending[] {
    return this.engine.pending();
  }

  /** What one audience may see now. */
  snapshot(seat: Seat | null, events: GameEvent[] = [], texts?: EventTexts): JsonObject {
    const rs = this.pkg.ruleset;
    const pending = this.status === 'running' ? this.pending() : [];
    const own = seat === null ? [] : pending.filter((p) => p.seat === seat);
    const menu: Menu | null = seat !== null && own.length > 0 ? rs.legal(this.state, seat) : null;
    return {
      match: this.id,
      seq: this.seq,
      status: this.status,
      seat,
      view: rs.view(this.state, seat),
      pending: publicPending(pending),
      yours: own,
      menu: menu,
      events: this.eventsOut(seat, events, texts),
      outcome: this.outcome ?? null,
    };
  }

  /**
   * The events of a change that go to `seat` (null: a spectator), in a frame or an answer, after
   * the last guard against the audience's secrets. (The menu and the seat's own pending entries
   * are its own to know: a mines menu may offer to dig a mine.)
   */
  eventsOut(seat: Seat | null, events: readonly GameEvent[], texts?: EventTexts): GameEvent[] {
    const r = eventsGuarded(this.pkg, this.state, seat, events, texts);
    if (r.withheld) this.withheld(this, seat);
    return r.events;
  }

  subscribe(sub: Subscriber): () => void {
    this.subs.add(sub);
    return () => this.subs.delete(sub);
  }

  /** Send every watcher a state frame cut for its audience (made once per audience). */
  broadcast(events: GameEvent[], texts: EventTexts = new Map()): void {
    if (this.subs.size === 0) return;
    const bySeat = new Map<Seat | null, JsonObject>();
    for (const s of this.subs) {
      let f = bySeat.get(s.seat);
      if (!f) {
        f = { type: 'state', ...this.snapshot(s.seat, events, texts) };
        bySeat.set(s.seat, f);
      }
      try {
        s.send(f);
      } catch {
        this.subs.delete(s);
      }
    }
  }
}
