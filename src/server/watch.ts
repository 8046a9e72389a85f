// Who may watch a match, and how late. A ruleset whose spectator view is omniscient (bnc's audience
// sees every seat's moves and whispers) is not watchable live by anyone who asks while it runs: a
// contestant could drop its token and read the others' hands. Its creator chooses at creation a
// spectate password (live, for those who have it), a delay (spectators see the match as it was N
// submissions or N seconds ago), or public live watching; without a choice, spectators wait for
// the end (unless every seat is a built-in agent: then there is nobody to cheat for). Other rulesets' spectators see what every seat may see, live, as before.
//
// The choice is kept in the match row's `spectate_hash` column beside the password hash it already
// held: `scrypt$…` (password), `delay$turns$N`, `delay$seconds$N`, `public`, or NULL.

import { act, type GameEvent, type Json, type JsonObject, type RulesetPackage } from '@arbiter/engine/kernel';
import { eventsGuarded, publicPending } from '@arbiter/engine/match';
import type { LiveMatch } from './live.ts';
import type { Store, SubmissionRow } from './store.ts';

export type Delay = { turns: number } | { seconds: number };
export type WatchPolicy =
  | { kind: 'open' }
  | { kind: 'password'; hash: string }
  | { kind: 'delay'; delay: Delay }
  | { kind: 'public' };

/** The policy a match row holds (NULL: the ruleset's default, judged by `mayWatchLive`). */
export function watchPolicy(stored: string | null): WatchPolicy {
  if (stored === null) return { kind: 'open' };
  if (stored === 'public') return { kind: 'public' };
  const d = /^delay\$(turns|seconds)\$(\d+)$/.exec(stored);
  if (d) return { kind: 'delay', delay: d[1] === 'turns' ? { turns: Number(d[2]) } : { seconds: Number(d[2]) } };
  return { kind: 'password', hash: stored };
}

/** The stored form of a delay or of public watching. */
export function storedPolicy(o: { delay?: Delay; public?: boolean }): string | null {
  if (o.delay) return 'turns' in o.delay ? `delay$turns$${o.delay.turns}` : `delay$seconds$${o.delay.seconds}`;
  return o.public ? 'public' : null;
}

/** Whether the ruleset's spectator sees everything the seats hide from each other (bnc's audience). */
export function omniscientAudience(pkg: RulesetPackage, state: unknown): boolean {
  const rs = pkg.ruleset;
  return (
    pkg.gameType.information !== 'perfect' && rs.secrets !== undefined && rs.secrets(state as never, null).length === 0
  );
}

/**
 * Whether some seat is held by someone who could watch as well as play: a person, a remote
 * program, an agent that runs a program or calls a service. Built-in agents and model seats
 * (`llm:`, asked by this server with only their own seat's view) cannot watch.
 */
export function contested(m: LiveMatch): boolean {
  return m.seats.some(
    (s) => !(s.kind === 'agent' && s.name !== null && (!s.name.includes(':') || s.name.startsWith('llm:'))),
  );
}

/**
 * Whether spectators are kept out of the running match by default: its audience is omniscient and
 * the match is contested. A match of built-in agents and models only has nobody to cheat for.
 */
export function closedByDefault(m: LiveMatch): boolean {
  return contested(m) && omniscientAudience(m.pkg, m.state);
}

/** The submissions a delayed spectator may see now: the newest seq they reach. */
function targetSeq(seq: number, subs: readonly SubmissionRow[], d: Delay, now: number): number {
  if ('turns' in d) return Math.max(0, seq - d.turns);
  let target = subs.length > 0 ? subs[0].seq - 1 : seq;
  for (const s of subs) if (s.at <= now - d.seconds * 1000) target = s.seq;
  return target;
}

/** The state a delayed audience last reached, per match, so each change costs one replayed step. */
const reached = new WeakMap<LiveMatch, { seq: number; state: unknown }>();

/**
 * What a delayed spectator may see now: the spectator's view of the match as it was `d` ago,
 * rebuilt from the stored submissions, with the events of the submissions it moved past.
 */
export async function delayedSnapshot(store: Store, m: LiveMatch, d: Delay, now = Date.now()): Promise<JsonObject> {
  const rs = m.pkg.ruleset;
  let at = reached.get(m);
  if (!at || at.seq > m.seq) at = { seq: 0, state: rs.setup(m.row.config, m.row.seed) };
  const later = await store.submissions(m.id, at.seq);
  const target = targetSeq(m.seq, later, d, now);
  let state = at.state;
  let seq = at.seq;
  const events: GameEvent[] = [];
  for (const s of later) {
    if (s.seq > target) break;
    const r = act(rs, state, s.seat, s.input);
    if (!r.ok) break; // the live match replays the same rows; a refusal there marks it broken
    state = r.state;
    seq = s.seq;
    // each step's events cut as a spectator saw them at that moment (the engine's audience cut)
    events.push(...eventsGuarded(m.pkg, state, null, r.events).events);
  }
  if (seq >= at.seq) reached.set(m, { seq, state });
  const outcome = rs.outcome(state);
  return {
    match: m.id,
    seq,
    status: seq === m.seq ? m.status : 'running',
    seat: null,
    view: rs.view(state, null) as Json,
    pending: publicPending(outcome ? [] : rs.pending(state)),
    yours: [],
    menu: null,
    events: events as unknown as Json[],
    outcome: (outcome ?? null) as Json,
    delayed: d as unknown as Json,
  };
}

/**
 * A delayed spectator's push channel: every live change makes it look again, at once for a delay
 * in turns, that many seconds later for a delay in seconds, and send what the delay lets it see
 * (nothing when that has not moved).
 */
export function delayedSender(
  store: Store,
  m: LiveMatch,
  d: Delay,
  send: (frame: JsonObject) => void,
  first: number,
): { send(frame: JsonObject): void; stop(): void } {
  let last = first;
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const look = () => {
    if (stopped) return;
    void delayedSnapshot(store, m, d)
      .then((f) => {
        if (stopped || f.seq === last) return;
        last = f.seq as number;
        send({ type: 'state', ...f });
      })
      .catch(() => {});
  };
  return {
    send() {
      if (!('seconds' in d)) return look();
      const t = setTimeout(
        () => {
          timers.delete(t);
          look();
        },
        d.seconds * 1000 + 5,
      );
      t.unref();
      timers.add(t);
    },
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
    },
  };
}
