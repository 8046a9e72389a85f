// Store access for live matches: a match rebuilt (and verified) from its rows, another server's
// changes read back in, an engine change turned into the submission row written before it counts,
// and the public records the lobby lists. Every read and write of match rows goes through here.

import { canonicalJson, type Json, type JsonObject, type RulesetPackage } from '@arbiter/engine/kernel';
import { MatchEngine, publicPending, type Change } from '@arbiter/engine/match';
import { LiveMatch, type Withheld } from './live.ts';
import { findNul, scrubNul } from './nul.ts';
import type { MatchRow, MatchStatus, Store, SubmissionRow } from './store.ts';
import { closedByDefault, watchPolicy } from './watch.ts';
import { lineupOfHeader } from './episodes.ts';

/**
 * The match `id` rebuilt from the store: its engine replays every stored submission, each checked,
 * and must end at the stored hash. A match that does not replay comes back with `broken` set.
 */
export async function loadMatch(
  store: Store,
  id: string,
  pkgOf: (ruleset: string) => RulesetPackage,
  withheld: Withheld,
): Promise<LiveMatch | null> {
  const row = await store.getMatch(id);
  if (!row) return null;
  const pkg = pkgOf(row.ruleset);
  const seats = await store.getSeats(id);
  const engine = new MatchEngine(pkg.ruleset, { seed: row.seed, config: row.config, lineHash: false }, pkg);
  const m = new LiveMatch(pkg, { ...row }, engine, seats, withheld);
  if (pkg.ruleset.version !== row.version)
    m.broken = `stored with ruleset version ${row.version}, this server has ${pkg.ruleset.version}`;
  else if (canonicalJson(row.header.setup_events ?? []) !== canonicalJson(engine.setupEvents))
    m.broken = 'setup events differ from the stored header';
  if (!m.broken) {
    // the agents are seated after the replay (service.load); the engine notes what each was told.
    // Only where someone will be asked again: a finished match, or one without agents, needs none of it
    if (row.status !== 'finished' && seats.some((s) => s.kind === 'agent')) engine.beginResume();
    replayInto(m, await store.submissions(id, 0));
    if (!m.broken && engine.hash !== row.hash)
      m.broken = `event-stream hash ${engine.hash} differs from the stored ${row.hash}`;
  }
  return m;
}

/** Apply stored submissions (ours after a restart, or another server's), each checked by the engine. */
function replayInto(m: LiveMatch, subs: SubmissionRow[]): SubmissionRow[] {
  const applied: SubmissionRow[] = [];
  for (const sub of subs) {
    const problem = m.engine.replayStored(sub);
    if (problem !== null) {
      m.broken = problem;
      break;
    }
    applied.push(sub);
  }
  return applied;
}

/** Read what another server wrote since our seq (row, seats, submissions) and apply it; the applied rows. */
export async function readChanges(store: Store, m: LiveMatch): Promise<SubmissionRow[]> {
  const [row, seats, subs] = await Promise.all([
    store.getMatch(m.id),
    store.getSeats(m.id),
    store.submissions(m.id, m.seq),
  ]);
  if (row) {
    m.row = row;
    m.status = row.status;
  }
  m.seats = seats;
  return replayInto(m, subs);
}

/** Write one engine change (the submission and the new head in one transaction). */
export function commitChange(
  store: Store,
  m: LiveMatch,
  c: Change<unknown>,
): Promise<'ok' | 'conflict' | 'duplicate_key'> {
  const e = c.entry;
  const status: MatchStatus = c.outcome ? 'finished' : m.status;
  const dflt = (e.default ?? null) as Json;
  const sub: SubmissionRow = {
    seq: e.seq,
    seat: e.seat,
    input: e.input,
    result: e.result === 'defaulted' ? 'defaulted' : 'accepted',
    events: e.events,
    // what a failing agent sent may hold U+0000, which PostgreSQL cannot store
    default: findNul(dflt) === null ? dflt : scrubNul(dflt),
    idemKey: c.idemKey,
    hash: c.hash,
    at: Date.now(),
  };
  return store.append(m.id, sub, { status, seq: e.seq, hash: c.hash, outcome: c.outcome ?? null });
}

/**
 * The match row's copy after a change was applied in memory. Updated in place (nothing keeps an
 * earlier copy of `m.row`): a copy of the whole row per action was ~3% of a move's own CPU.
 */
export function appliedRow(m: LiveMatch, c: Change<unknown>): void {
  const status: MatchStatus = c.outcome ? 'finished' : m.status;
  m.status = status;
  const row = m.row;
  row.status = status;
  row.seq = c.entry.seq;
  row.hash = c.hash;
  row.outcome = c.outcome ?? null;
  row.updatedAt = Date.now();
}

/** How spectators may watch, for the public record: live, password, delay (with it), public, or after the end. */
function watchKind(m: LiveMatch): Json {
  const p = watchPolicy(m.row.spectateHash);
  if (p.kind === 'delay') return { delay: p.delay as unknown as Json };
  if (p.kind !== 'open') return p.kind;
  return closedByDefault(m) ? 'after_end' : 'live';
}

/** What anyone may read of a match held in memory. */
export function publicRecord(m: LiveMatch): JsonObject {
  const r = m.row;
  const rec: JsonObject = {
    id: r.id,
    ruleset: r.ruleset,
    version: r.version,
    title: m.pkg.ruleset.title,
    status: m.status,
    private: watchPolicy(r.spectateHash).kind === 'password',
    watch: watchKind(m),
    seats: m.seats.map((s) => ({ seat: s.seat, kind: s.kind, name: s.name })),
    seq: m.seq,
    pending: m.status === 'running' ? publicPending(m.pending()) : [],
    outcome: m.outcome ?? null,
    turnDeadlineMs: r.deadlineMs,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
  // the seed decides every hidden draw: it is published only once the match is over
  if (m.status === 'finished') rec.seed = r.seed;
  if (m.broken) rec.problem = m.broken;
  const lineup = lineupOfHeader(r.header);
  if (lineup !== null) rec.lineup = lineup;
  return rec;
}

/** The lobby's page of matches: the live record where the match is in memory, else its stored row. */
export async function listRecords(
  store: Store,
  live: (id: string) => LiveMatch | undefined,
  f: { ruleset?: string; status?: MatchStatus; limit?: number; offset?: number },
): Promise<JsonObject[]> {
  const rows = await store.listMatches({
    ruleset: f.ruleset,
    status: f.status,
    limit: f.limit ?? 50,
    offset: f.offset ?? 0,
  });
  return rows.map((r) => {
    const m = live(r.id);
    return m ? publicRecord(m) : storedRecord(r);
  });
}

function storedRecord(r: MatchRow): JsonObject {
  const rec: JsonObject = {
    id: r.id,
    ruleset: r.ruleset,
    version: r.version,
    status: r.status,
    private: watchPolicy(r.spectateHash).kind === 'password',
    seats: r.seats,
    seq: r.seq,
    outcome: r.outcome,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
  if (r.status === 'finished') rec.seed = r.seed;
  return rec;
}
