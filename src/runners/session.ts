// One live game held in memory: what the drive protocol (and later the server) operate on.
// Every mutation goes through the checked `act`; the session keeps the match log as it goes.
// Refused submissions are answered and forgotten: a client that sends many large bad actions must
// not grow the session, so the log holds accepted submissions only (docs/drive.md).

import {
  act,
  ArbiterError,
  cloneJson,
  isPlainJson,
  type GameEvent,
  type Json,
  type Ruleset,
  type Seat,
} from '../kernel/index.ts';
import {
  canonicalInput,
  MatchRecorder,
  recordableConfig,
  type LogEntry,
  type LogFooter,
  type LogHeader,
} from './match.ts';

export class Session<S = unknown> {
  readonly ruleset: Ruleset<S>;
  readonly header: LogHeader;
  state: S;
  readonly entries: LogEntry[] = [];
  private readonly recorder: MatchRecorder;

  constructor(ruleset: Ruleset<S>, seed: number, config: unknown) {
    this.ruleset = ruleset;
    const recorded = recordableConfig(config);
    const setupEvents: GameEvent[] = [];
    this.state = ruleset.setup(cloneJson(recorded), seed, setupEvents);
    this.recorder = new MatchRecorder({
      ruleset: ruleset.id,
      version: ruleset.version,
      seed,
      config: recorded,
      setupEvents,
    });
    this.header = this.recorder.header;
  }

  act(seat: unknown, input: unknown): { ok: true; events: GameEvent[] } | { ok: false; error: ArbiterError } {
    // the canonical form is what the log holds, so submit that (see canonicalInput)
    const submitted = isPlainJson(input) ? canonicalInput(input) : input;
    const res = act(this.ruleset, this.state, seat, submitted);
    if (!res.ok) return { ok: false, error: new ArbiterError(res.error.code, res.error.reason, res.error.detail) };
    this.state = res.state;
    this.entries.push(
      this.recorder.record({ seat: seat as Seat, input: submitted as Json, result: 'accepted', events: res.events }),
    );
    return { ok: true, events: res.events };
  }

  footer(): LogFooter {
    return this.recorder.footer(this.ruleset.outcome(this.state));
  }

  log(): Json[] {
    return [this.header, ...this.entries, this.footer()];
  }
}
