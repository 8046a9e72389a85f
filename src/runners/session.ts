// One live game held in memory: what the drive protocol (and later the server) operate on.
// Every mutation goes through the checked `act`; the session keeps the match log as it goes.

import { act, ArbiterError, canonicalJson, StreamHash, type GameEvent, type Json, type Ruleset, type Seat } from '../kernel/index.ts';
import { ENGINE, type LogEntry, type LogFooter, type LogHeader } from './match.ts';

export class Session<S = unknown> {
  readonly ruleset: Ruleset<S>;
  readonly header: LogHeader;
  state: S;
  readonly entries: LogEntry[] = [];
  private readonly hash = new StreamHash();
  private eventCount = 0;

  constructor(ruleset: Ruleset<S>, seed: number, config: Json) {
    this.ruleset = ruleset;
    const setupEvents: GameEvent[] = [];
    this.state = this.ruleset.setup(config, seed, setupEvents);
    this.header = { ruleset: this.ruleset.id, version: this.ruleset.version, engine: ENGINE, seed, config };
    if (setupEvents.length > 0) this.header.setup_events = setupEvents;
    for (const e of setupEvents) this.hash.update(canonicalJson(e));
    this.eventCount = setupEvents.length;
  }

  act(seat: unknown, input: unknown): { ok: true; events: GameEvent[] } | { ok: false; error: ArbiterError } {
    const res = act(this.ruleset, this.state, seat, input);
    const seq = this.entries.length + 1;
    if (!res.ok) {
      // refusals that name a real seat are logged (they are part of the match record)
      if (typeof seat === 'number' && Number.isInteger(seat) && seat >= 0 && seat < this.ruleset.seats(this.state)) {
        this.entries.push({ seq, seat, input: (input ?? null) as Json, result: 'rejected', events: [], error: res.error });
      }
      return { ok: false, error: new ArbiterError(res.error.code, res.error.reason, res.error.detail) };
    }
    this.state = res.state;
    for (const e of res.events) this.hash.update(canonicalJson(e));
    this.eventCount += res.events.length;
    this.entries.push({ seq, seat: seat as Seat, input: input as Json, result: 'accepted', events: res.events });
    return { ok: true, events: res.events };
  }

  footer(): LogFooter {
    return { end: true, outcome: this.ruleset.outcome(this.state), hash: this.hash.digest(), events: this.eventCount, submissions: this.entries.length };
  }

  log(): Json[] {
    return [this.header, ...this.entries, this.footer()] as unknown as Json[];
  }
}
