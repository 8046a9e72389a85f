// One live game held in memory for the drive protocol: the match engine with every seat left to
// the client. Every mutation goes through the engine's checked submission; refused submissions are
// answered and forgotten: a client that sends many large bad actions must not grow the session, so
// the log holds accepted submissions only (docs/drive.md).

import { ArbiterError, type GameEvent, type Json, type Ruleset } from '@arbiter/engine/kernel';
import { MatchEngine } from '@arbiter/engine/match';
import type { LogEntry, LogFooter, LogHeader } from '@arbiter/engine/match';

export class Session<S = unknown> {
  readonly ruleset: Ruleset<S>;
  private readonly engine: MatchEngine<S>;

  constructor(ruleset: Ruleset<S>, seed: number, config: unknown) {
    this.ruleset = ruleset;
    this.engine = new MatchEngine(ruleset, { seed, config, keepLog: true });
  }

  get header(): LogHeader {
    return this.engine.header;
  }

  get state(): S {
    return this.engine.state;
  }

  get entries(): readonly LogEntry[] {
    return this.engine.entries ?? [];
  }

  act(seat: unknown, input: unknown): { ok: true; events: GameEvent[] } | { ok: false; error: ArbiterError } {
    const made = this.engine.prepare(seat, input);
    if (!made.ok) return { ok: false, error: new ArbiterError(made.error.code, made.error.reason, made.error.detail) };
    this.engine.apply(made.change);
    return { ok: true, events: made.change.entry.events };
  }

  footer(): LogFooter {
    return this.engine.footer();
  }

  log(): Json[] {
    return [this.header, ...this.entries, this.footer()];
  }
}
