// A match's log as one audience may read it while the match runs: the header without the seed (it
// decides every hidden draw), and each submission cut as that audience saw it when it happened —
// the same cut as its live frames, judged against the state of that moment. Judging past events
// against the current state instead would tell, by what comes back withheld, what is secret now.

import {
  canonicalJson,
  type GameEvent,
  type Json,
  type JsonObject,
  type RulesetPackage,
  type Seat,
} from '../kernel/index.ts';
import { eventsGuarded } from './audience.ts';
import { MatchEngine, type StoredEntry } from './match-engine.ts';

export interface RunningLogInput {
  /** The match log header (seed and config are read from it). */
  header: JsonObject;
  entries: readonly StoredEntry[];
}

/**
 * The running log for `seat` (null: a spectator), one canonical JSON line each. In games of
 * imperfect information inputs are hidden (`input: null, hidden: true`) and events cut per audience;
 * in games of perfect information everything is shown. Replays the stored history to know each
 * moment's state; a history that does not replay ends the log where it stops.
 */
export function runningLog<S>(pkg: RulesetPackage<S>, log: RunningLogInput, seat: Seat | null): string[] {
  const header: JsonObject = { ...log.header, partial: true };
  delete header.seed;
  const perfect = pkg.gameType.information === 'perfect';
  const engine = new MatchEngine(
    pkg.ruleset,
    { seed: Number(log.header.seed), config: log.header.config ?? {}, lineHash: false },
    pkg,
  );
  if (!perfect && header.setup_events)
    header.setup_events = eventsGuarded(pkg, engine.state, seat, engine.setupEvents).events as Json;
  const lines = [canonicalJson(header)];
  for (const sub of log.entries) {
    if (engine.replayStored(sub) !== null) break;
    const e: JsonObject = {
      seq: sub.seq,
      seat: sub.seat,
      input: sub.input,
      result: sub.result,
      events: sub.events as Json,
    };
    if (perfect) {
      if (sub.result === 'defaulted' && sub.default !== undefined) e.default = sub.default;
    } else {
      e.input = null;
      e.hidden = true;
      e.events = eventsGuarded(pkg, engine.state, seat, sub.events as GameEvent[]).events as Json;
    }
    lines.push(canonicalJson(e));
  }
  return lines;
}
