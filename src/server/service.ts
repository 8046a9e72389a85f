// The live matches of this server: each held in memory with its match engine, every change
// written to the store before it is acknowledged, built-in and external agents and turn deadlines
// played here, and frames sent to whoever watches. One queue per match orders its changes. Who the
// caller is lives in auth.ts, reading and writing rows in records.ts, the fan-out in live.ts;
// refusals are DomainErrors (errors.ts) that the HTTP edge maps to statuses.

import { randomInt } from 'node:crypto';
import {
  ArbiterError,
  canonicalJson,
  type GameEvent,
  type Json,
  type JsonObject,
  type Outcome,
  type Pending,
  type RulesetPackage,
  type Seat,
} from '@arbiter/engine/kernel';
import { PACKAGES } from '@arbiter/engine';
import { agentNames, makeAgent, type AgentEnv } from '../agents/resolve.ts';
import { MatchEngine, recordableConfig, rulesText, type EngineEffects, type SubmitResult } from '@arbiter/engine/match';
import { DEFAULT_POLICY, inProcessTransport, SeatAgent, type PolicyOptions } from '@arbiter/engine/agents';
import type { Transport } from '@arbiter/engine/agents';
import {
  audienceOf,
  claimSeat,
  holdsSeat,
  matchId,
  releaseSeat,
  seatOf,
  spectateColumn,
  type Audience,
} from './auth.ts';
import { DomainError } from './errors.ts';
import { type ChosenLineup, LiveMatch, type Subscriber } from './live.ts';
import { appliedRow, commitChange, listRecords, loadMatch, publicRecord, readChanges } from './records.ts';
import { REMOTE_CLOSE, RemoteTransport, type Channel } from './remote.ts';
import { findNul, NUL_REFUSAL } from './nul.ts';
import type { MatchRow, MatchStatus, SeatRow, Store, SubmissionRow } from './store.ts';
import type { Delay } from './watch.ts';
import type { Episodes } from './episodes.ts';

export interface CreateInput {
  ruleset: string;
  config?: JsonObject;
  seed?: number;
  seats?: { agent?: string }[];
  spectatePassword?: string;
  /** Spectators see the match this many submissions or seconds late. */
  spectateDelay?: Delay;
  /** Anyone may watch live, even where the audience sees every seat's secrets. */
  spectatePublic?: boolean;
  turnDeadlineMs?: number;
  /** Pause before each built-in agent move (watchable agent matches); kept in memory only. */
  agentDelayMs?: number;
  /** Seat every seat from this line-up (an id the server offers: `GET /api/lineups`). */
  lineup?: string;
}

export interface ServiceOptions {
  store: Store;
  /** Agent kinds with a prefix (`cmd:` ...) run programs on this machine: refused unless allowed. */
  allowExternalAgents?: boolean;
  warn?: (msg: string, detail?: Json) => void;
  /** The rulesets this server plays; default the registry's. Tests pass extra packages here. */
  packages?: readonly RulesetPackage[];
  /** Deadline per decision attempt of a remote protocol agent when the match sets no turnDeadlineMs. */
  agentDeadlineMs?: number;
  /** Failed decisions in a row after which a remote protocol seat is failed. */
  agentMaxFailures?: number;
  /** What agents that call out need (model endpoints, cassettes, stderr folder): as `arbiter play` has. */
  agentEnv?: AgentEnv;
  /** Line-ups offered to creators and the transcripts of their seats (live episodes). */
  episodes?: Episodes;
  /**
   * Finished matches kept in memory (default 64; up to a quarter more between two trims); older ones
   * nobody watches are dropped and read from the store again when asked for. Without a bound a
   * long-running server keeps every match it ever played.
   */
  keepFinished?: number;
}

const KEEP_FINISHED = 64;

export class MatchService {
  private readonly live = new Map<string, LiveMatch>();
  private readonly loading = new Map<string, Promise<LiveMatch | null>>();
  /** Ids of the finished matches in memory, oldest first (watched ones leave it for the next set). */
  private readonly finishedLive = new Set<string>();
  /** Finished matches found watched by a trim: kept until their last watcher leaves. */
  private readonly finishedWatched = new Set<string>();
  readonly store: Store;
  private readonly opts: ServiceOptions;
  private closed = false;

  /** The rulesets this server plays, in listing order. */
  readonly packages: readonly RulesetPackage[];
  /** Line-ups offered and transcripts kept (absent: no line-ups, no transcripts). */
  readonly episodes: Episodes | undefined;

  constructor(opts: ServiceOptions) {
    this.store = opts.store;
    this.packages = opts.packages ?? PACKAGES;
    this.episodes = opts.episodes;
    this.opts = opts;
  }

  /** Open the store, follow other servers' changes, and rebuild every unfinished match. */
  async start(): Promise<{ rebuilt: number; broken: string[] }> {
    await this.store.init();
    const follow = (m: LiveMatch) =>
      void m
        .run(() => this.catchUp(m))
        .catch((err) => this.warn('catch-up failed', { match: m.id, error: String(err) }));
    await this.store.onChange((id) => {
      // null: the store may have missed notifications (its connection was lost): read everything again
      if (id === null) for (const m of this.live.values()) follow(m);
      else {
        const m = this.live.get(id);
        if (m) follow(m);
        // a match being loaded now may have read its rows before this change: read them again after
        else void this.loading.get(id)?.then((l) => l && follow(l));
      }
    });
    const broken: string[] = [];
    let rebuilt = 0;
    for (const id of await this.store.unfinished()) {
      const m = await this.get(id);
      if (!m) continue;
      if (m.broken) broken.push(id);
      else rebuilt++;
    }
    return { rebuilt, broken };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const m of this.live.values()) {
      if (m.timer) clearTimeout(m.timer);
      if (m.agentTimer) clearTimeout(m.agentTimer);
    }
    // let queued changes finish writing before the store closes
    await Promise.all([...this.live.values()].map((m) => m.run(async () => undefined)));
    for (const m of this.live.values()) {
      for (const a of m.agents.values()) void Promise.resolve(a.close()).catch(() => {});
      for (const r of m.remote.values()) r.transport.closeWith(1001, 'server shutting down');
    }
    await this.store.close();
  }

  private warn(msg: string, detail?: Json): void {
    this.opts.warn?.(msg, detail);
  }

  liveCount(): number {
    return this.live.size;
  }

  /**
   * A finished match joins the finished ones in memory; past the bound, the oldest nobody is
   * watching leave it (its record, log and replay are read from the store again on the next ask).
   * Watched ones do not count: a trim moves them aside until their last watcher leaves, when they
   * come back as the newest (`subscribe`). The trim runs once the set is a quarter past the bound
   * (64 + 16 by default), not at every finished match, and visits each match once: walking the
   * whole set at every finished match was 1.6% of the server's main thread under the tic-tac-toe
   * bench, and grew with every finished match someone kept watching.
   */
  private retire(m: LiveMatch): void {
    this.finishedLive.add(m.id);
    const keep = this.opts.keepFinished ?? KEEP_FINISHED;
    if (this.finishedLive.size <= keep + Math.floor(keep / 4)) return;
    for (const id of this.finishedLive) {
      if (this.finishedLive.size <= keep) break;
      this.finishedLive.delete(id);
      const held = this.live.get(id);
      if ((held?.subs.size ?? 0) > 0) this.finishedWatched.add(id);
      else if (held?.status === 'finished') this.live.delete(id);
    }
  }

  // ---- reading ----------------------------------------------------------------------------

  /** The match in memory, loading (and verifying) it from the store on first use; null if unknown. */
  async get(id: string): Promise<LiveMatch | null> {
    const have = this.live.get(id);
    if (have) return have;
    let p = this.loading.get(id);
    if (!p) {
      p = this.load(id).finally(() => this.loading.delete(id));
      this.loading.set(id, p);
    }
    return p;
  }

  async mustGet(id: string): Promise<LiveMatch> {
    const m = typeof id === 'string' && id.length <= 64 ? await this.get(id) : null;
    if (!m) throw new ArbiterError('not_found', `no match "${String(id).slice(0, 64)}"`);
    return m;
  }

  /** A ruleset package this server plays, or not_found. */
  pkg(id: string): RulesetPackage {
    const found = this.packages.find((p) => p.ruleset.id === id);
    if (!found)
      throw new ArbiterError(
        'not_found',
        `unknown ruleset "${id}" (known: ${this.packages.map((p) => p.ruleset.id).join(', ')})`,
      );
    return found;
  }

  private async load(id: string): Promise<LiveMatch | null> {
    const m = await loadMatch(this.store, id, (r) => this.pkg(r), this.withheld);
    if (!m) return null;
    if (m.broken) this.warn('match does not replay', { match: id, problem: m.broken });
    this.live.set(id, m);
    if (!m.broken && m.status !== 'finished') m.lineup = this.lineupAgain(m);
    if (!m.broken) {
      this.seatAgents(m);
      // program and model seats are sent what they perceived before the restart, as they would have been
      m.engine.resumeSeen();
      this.afterChange(m);
    }
    return m;
  }

  private readonly withheld = (m: LiveMatch, seat: Seat | null): void =>
    this.warn('events would reveal a secret; sent without them', { match: m.id, seat });

  /** Another server changed the match: take its submissions and seats, tell our watchers. */
  private async catchUp(m: LiveMatch): Promise<void> {
    if (m.broken || this.closed) return;
    const applied = await readChanges(this.store, m);
    for (const sub of applied) m.broadcast(sub.events as GameEvent[]);
    if (applied.length === 0) m.broadcast([]);
    this.afterChange(m);
  }

  publicRecord(m: LiveMatch): JsonObject {
    return publicRecord(m);
  }

  async list(f: { ruleset?: string; status?: MatchStatus; limit?: number; offset?: number }): Promise<JsonObject[]> {
    return listRecords(this.store, (id) => this.live.get(id), f);
  }

  /** The seat a token belongs to, or a refusal. Tokens are compared as hashes in constant time. */
  seatOf(m: LiveMatch, token: string | undefined, tokenHash?: string): Promise<{ seat: Seat; tokenHash: string }> {
    return seatOf(m, this.store, token, tokenHash);
  }

  /**
   * Whether sha256(token) holds a seat of a match held in memory (the rate limiter's question: only
   * a token that was given out gets a budget of its own). Nothing is loaded from the store for it.
   */
  holdsSeat(matchId: string, tokenHash: string): boolean {
    const m = this.live.get(matchId);
    return m !== undefined && holdsSeat(m, tokenHash);
  }

  /** Who the caller is: a seat (token), or a spectator (password when the match is private). */
  audience(
    m: LiveMatch,
    token: string | undefined,
    password: string | undefined,
    tokenHash?: string,
  ): Promise<Audience> {
    return audienceOf(m, this.store, token, password, tokenHash);
  }

  /** What one audience may see now. */
  snapshot(m: LiveMatch, seat: Seat | null): JsonObject {
    return m.snapshot(seat);
  }

  subscribe(m: LiveMatch, sub: Subscriber): () => void {
    const off = m.subscribe(sub);
    return () => {
      off();
      // its last watcher left a finished match a trim had set aside: it ages from now on
      if (m.subs.size === 0 && this.finishedWatched.delete(m.id)) this.retire(m);
    };
  }

  // ---- changing ---------------------------------------------------------------------------

  async create(input: CreateInput): Promise<LiveMatch> {
    const pkg = this.pkg(input.ruleset);
    const rs = pkg.ruleset;
    const chosen = [input.spectatePassword, input.spectateDelay, input.spectatePublic].filter((x) => x !== undefined);
    if (chosen.length > 1)
      throw new ArbiterError('bad_request', 'choose one of spectatePassword, spectateDelay and spectatePublic');
    const config = recordableConfig(input.config ?? {});
    const seed = input.seed ?? randomInt(0, 2 ** 32);
    const engine = new MatchEngine(rs, { seed, config, lineHash: false }, pkg);
    const n = engine.seats.length;
    const specs = input.seats ?? [];
    if (specs.length > n)
      throw new ArbiterError('bad_request', `${rs.id} with this config has ${n} seats, ${specs.length} described`);
    const known = agentNames(pkg);
    const seats: SeatRow[] = [];
    const fromLineup = input.lineup === undefined ? null : this.chooseLineup(pkg, input.lineup, specs.length, n);
    for (let seat = 0; seat < n && fromLineup; seat++)
      seats.push({ seat, kind: 'agent', name: fromLineup.names[seat], tokenHash: null });
    for (let seat = fromLineup ? n : 0; seat < n; seat++) {
      const agent = specs[seat]?.agent;
      if (agent === undefined) {
        seats.push({ seat, kind: 'open', name: null, tokenHash: null });
        continue;
      }
      if (agent.includes(':') && !this.opts.allowExternalAgents) {
        throw new ArbiterError(
          'bad_request',
          `agent "${agent}": agents that run programs or call out are off on this server (start it with --allow-external-agents)`,
        );
      }
      if (!agent.includes(':') && !known.includes(agent))
        throw new ArbiterError('not_found', `unknown agent "${agent}" for ${rs.id} (known: ${known.join(', ')})`);
      seats.push({ seat, kind: 'agent', name: agent, tokenHash: null });
    }
    // the header names each seat's agent, as `arbiter play --agents` writes it (people: "remote")
    engine.nameAgents(
      seats.map((s) => (s.kind === 'agent' ? String(s.name) : 'remote')),
      fromLineup?.header,
    );
    const header = JSON.parse(canonicalJson(engine.header)) as JsonObject;
    const now = Date.now();
    const outcome = engine.outcome;
    const status: MatchStatus = outcome ? 'finished' : seats.some((s) => s.kind === 'open') ? 'waiting' : 'running';
    const row: MatchRow = {
      id: matchId(),
      ruleset: rs.id,
      version: rs.version,
      seed,
      config,
      header,
      status,
      spectateHash: spectateColumn({
        password: input.spectatePassword,
        delay: input.spectateDelay,
        public: input.spectatePublic,
      }),
      deadlineMs: input.turnDeadlineMs ?? null,
      seats: n,
      seq: 0,
      hash: engine.hash,
      outcome: outcome ?? null,
      createdAt: now,
      updatedAt: now,
    };
    const m = new LiveMatch(pkg, row, engine, seats, this.withheld);
    m.lineup = fromLineup;
    // agents are made (and a bad spec refused) before anything is stored
    this.seatAgents(m);
    try {
      // an episode's model seats start (preflight) now: a rejected key or a wrong model refuses the
      // creation with the provider's answer, instead of a match of defaults on the web page
      if (fromLineup) await this.startNow(m);
      await this.store.createMatch(row, seats);
    } catch (err) {
      for (const a of m.agents.values()) void Promise.resolve(a.close()).catch(() => {});
      throw err;
    }
    m.agentDelayMs = input.agentDelayMs ?? 0;
    this.live.set(row.id, m);
    this.afterChange(m);
    return m;
  }

  /** Seat the agents this server plays, each under the failure policy, as `arbiter play` seats them. */
  private seatAgents(m: LiveMatch): void {
    const policy = this.agentPolicy(m);
    for (const s of m.seats) {
      if (s.kind !== 'agent' || !s.name || m.agents.has(s.seat)) continue;
      const env = this.opts.agentEnv ?? {};
      const fromLineup = m.lineup?.seats[s.seat];
      const made =
        fromLineup && this.opts.episodes
          ? this.opts.episodes.agent(m.pkg, fromLineup, env, s.seat)
          : makeAgent(m.pkg, s.name, env, s.seat);
      const t = (made as { transport?: Transport }).transport;
      const transport = t && typeof t.decide === 'function' ? t : inProcessTransport(made);
      const agent = new SeatAgent({
        seat: s.seat,
        transport,
        policy,
        onAttempt: (rec) => {
          if (rec.ok === false) this.warn('agent decision failed', { match: m.id, ...rec } as JsonObject);
          // programs and models leave a transcript per seat, read from the match page after the end
          if (!transport.inProcess) this.opts.episodes?.record(m.id, rec);
        },
      });
      m.agents.set(s.seat, agent);
      m.engine.seatAgent(s.seat, agent);
    }
  }

  /** match_start to every agent seat of a new episode; the first that cannot start refuses it. */
  private async startNow(m: LiveMatch): Promise<void> {
    const policy = this.agentPolicy(m);
    const rules = rulesText(m.pkg.ruleset, m.pkg);
    const starts = [...m.agents].map(([seat, a]) => {
      const p = Promise.resolve().then(() =>
        a.start(m.engine.matchStart(seat, policy.deadlineMs, a.transport.inProcess ? '' : rules)),
      );
      m.started.set(
        seat,
        p.catch(() => a.fail()),
      );
      return p.catch((err: unknown) => {
        throw new ArbiterError(
          'bad_config',
          `seat ${seat} (${m.seats[seat]?.name ?? 'agent'}) cannot start: ${maskKeys(String((err as Error)?.message ?? err))}`,
        );
      });
    });
    await Promise.all(starts);
  }

  /** A line-up for a new match (refused with seats described too, or on a server without episodes). */
  private chooseLineup(pkg: RulesetPackage, id: string, described: number, seats: number): ChosenLineup {
    if (described > 0)
      throw new ArbiterError('bad_request', 'lineup and seats exclude each other (the line-up seats every seat)');
    if (!this.opts.episodes) throw new ArbiterError('bad_request', 'this server offers no line-ups');
    return this.opts.episodes.choose(pkg, id, seats);
  }

  /**
   * After a restart, a running match's line-up is chosen again from its header, so its model seats
   * get their prompts and settings back; a line-up no longer offered leaves the seats to their names.
   */
  private lineupAgain(m: LiveMatch): ChosenLineup | null {
    const id = (m.row.header.lineup as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string' || !this.opts.episodes) return null;
    try {
      const c = this.opts.episodes.choose(m.pkg, id, m.seats.length);
      const was = (m.row.header.lineup as { version?: unknown }).version;
      if (c.version === was) return c;
      this.warn('line-up changed since the match began; its seats play by name', { match: m.id, lineup: id });
    } catch (err) {
      this.warn('line-up not offered any more; its seats play by name', { match: m.id, error: String(err) });
    }
    return null;
  }

  private agentPolicy(m: LiveMatch): PolicyOptions {
    return {
      ...DEFAULT_POLICY,
      deadlineMs: m.row.deadlineMs ?? this.opts.agentDeadlineMs ?? DEFAULT_POLICY.deadlineMs,
      maxFailures: this.opts.agentMaxFailures ?? DEFAULT_POLICY.maxFailures,
    };
  }

  async join(m: LiveMatch, seat: number | undefined, name: string): Promise<{ seat: Seat; token: string }> {
    return m.run(async () => {
      const r = await claimSeat(m, this.store, seat, name);
      m.broadcast([]);
      this.afterChange(m);
      return r;
    });
  }

  async leave(m: LiveMatch, token: string | undefined): Promise<{ seat: Seat }> {
    const { seat, tokenHash } = await this.seatOf(m, token);
    return m.run(async () => {
      await releaseSeat(m, this.store, seat, tokenHash);
      m.remote.get(seat)?.transport.closeWith(REMOTE_CLOSE.left, 'the seat was left');
      m.remote.delete(seat);
      m.broadcast([]);
      return { seat };
    });
  }

  /**
   * Submit one action for `seat`. The engine judges it with the checked `act`; an accepted action
   * is written (with its seq) before this resolves. A repeated idempotency key answers the stored
   * result instead of acting twice.
   */
  async submit(
    m: LiveMatch,
    seat: Seat,
    input: Json,
    idemKey: string | null,
  ): Promise<{ seq: number; events: GameEvent[]; outcome: Outcome | null; replayed: boolean }> {
    return m.run(async () => {
      for (let attempt = 0; ; attempt++) {
        if (idemKey) {
          const prior = await this.store.byIdempotencyKey(m.id, idemKey);
          if (prior) {
            if (prior.seat !== seat)
              throw new DomainError('idempotency_conflict', 'this idempotency key was used by another seat');
            if (prior.seq > m.seq) await this.catchUp(m);
            return {
              seq: prior.seq,
              events: m.eventsOut(seat, prior.events as GameEvent[]),
              outcome: m.outcome,
              replayed: true,
            };
          }
        }
        this.usable(m);
        if (m.status === 'waiting') {
          // with a shared store, the last seat may have been taken through another server whose
          // notice is still on its way: read the match again once before refusing
          if (attempt === 0 && this.store.kind === 'postgres') {
            await this.catchUp(m);
            if (m.status !== 'waiting') continue;
          }
          throw new DomainError('match_waiting', 'the match waits for its open seats to be taken');
        }
        const r = await m.engine.submit(seat, input, { idemKey }, this.effects(m));
        if (r.ok) {
          this.afterChange(m);
          return {
            seq: m.seq,
            events: m.eventsOut(seat, r.change.entry.events, r.change.texts),
            outcome: m.outcome,
            replayed: false,
          };
        }
        if ('error' in r) throw new ArbiterError(r.error.code, r.error.reason, r.error.detail);
        // another server wrote this seq (or this key) first: take its history and judge again
        await this.catchUp(m);
        if (attempt >= 3) throw new DomainError('match_moved_on', 'the match moved on meanwhile; try again');
      }
    });
  }

  private usable(m: LiveMatch): void {
    if (m.broken) throw new DomainError('match_broken', `this match's stored history does not replay: ${m.broken}`);
    if (this.closed) throw new DomainError('shutting_down', 'the server is shutting down');
  }

  /**
   * The engine's effects for this match: every change is written (submission and new head in one
   * transaction) before it counts, then sent to whoever watches.
   */
  private effects(m: LiveMatch): EngineEffects<unknown> {
    return {
      commit: (c) => commitChange(this.store, m, c),
      applied: (c) => {
        appliedRow(m, c);
        m.broadcast(c.entry.events, c.texts);
      },
      // text holding U+0000 is refused from agents as from clients (PostgreSQL could not store it)
      screen: (input) => (findNul(input) === null ? null : NUL_REFUSAL),
    };
  }

  /** After every change: let agents move, and (re)arm the turn deadline of seats left to people. */
  private afterChange(m: LiveMatch): void {
    if (this.closed || m.broken) return;
    if (m.status === 'finished') {
      if (m.timer) clearTimeout(m.timer);
      m.timer = null;
      if (m.agentTimer) clearTimeout(m.agentTimer);
      m.agentTimer = null;
      for (const [seat, a] of m.agents) {
        void Promise.resolve(a.end({ type: 'match_end', outcome: m.outcome ?? null }))
          .catch(() => {})
          .finally(() => a.close());
        m.agents.delete(seat);
      }
      for (const r of m.remote.values()) {
        void Promise.resolve(r.agent.end({ type: 'match_end', outcome: m.outcome ?? null })).catch(() => {});
        r.transport.close();
      }
      m.remote.clear();
      this.opts.episodes?.finished(m.id);
      this.retire(m);
      return;
    }
    if (m.status !== 'running') return;
    this.askAgents(m);
    this.armDeadline(m, m.pending());
  }

  /**
   * Ask every pending agent seat (built-in, external, remote socket) that is not being asked,
   * together, as the engine asks in `arbiter play`, and submit their answers in seat order; a paced
   * match waits its delay first. People may act meanwhile.
   */
  private askAgents(m: LiveMatch): void {
    if (m.agentTimer || this.closed || m.broken || m.status !== 'running') return;
    const ask = (p: Pending) => {
      const s = m.engine.seats[p.seat];
      return s.agent !== null && !s.asking;
    };
    if (!m.pending().some(ask)) return;
    if (m.agentDelayMs > 0) {
      m.agentTimer = setTimeout(() => {
        m.agentTimer = null;
        this.startBatch(m);
      }, m.agentDelayMs);
      return;
    }
    this.startBatch(m);
  }

  private startBatch(m: LiveMatch): void {
    if (this.closed || m.broken || m.status !== 'running') return;
    void this.agentsReady(m)
      .then(() => {
        const batch = m.engine.askAgents();
        if (!batch) return;
        return batch.decisions.then(async (ds) => {
          if (m.agentDelayMs <= 0)
            return m.run(async () => {
              if (this.closed || m.broken || m.status !== 'running') {
                m.engine.release(batch);
                return;
              }
              const r = await m.engine.submitBatch(batch, ds, this.effects(m));
              if (r.conflict) await this.catchUp(m);
            });
          // paced: the batch's answers go in one at a time, a delay apart, so a spectator sees
          // every move (the log is the same as unpaced: seat order, the same answers)
          try {
            for (let i = 0; i < batch.asks.length; i++) {
              if (i > 0) await new Promise((ok) => setTimeout(ok, m.agentDelayMs));
              if (this.closed || m.broken || m.status !== 'running') return;
              const r = await m.run(() => m.engine.submitAnswer(batch, ds, i, this.effects(m)));
              if (typeof r === 'object') {
                await m.run(() => this.catchUp(m));
                return;
              }
            }
          } finally {
            m.engine.release(batch);
          }
        });
      })
      .catch((err) => this.warn('agent move failed', { match: m.id, error: String(err) }))
      .finally(() => {
        if (!this.closed && !m.broken) this.afterChange(m);
      });
  }

  /** match_start to every agent seat of the match, once; an agent that cannot start fails its seat. */
  private async agentsReady(m: LiveMatch): Promise<void> {
    const policy = this.agentPolicy(m);
    let rules: string | null = null;
    const starting: Promise<void>[] = [];
    for (const [seat, a] of m.agents) {
      let p = m.started.get(seat);
      if (!p) {
        if (!a.transport.inProcess) rules ??= rulesText(m.pkg.ruleset, m.pkg);
        p = Promise.resolve()
          .then(() => a.start(m.engine.matchStart(seat, policy.deadlineMs, a.transport.inProcess ? '' : (rules ?? ''))))
          .catch((err: unknown) => {
            this.warn('agent could not start; its seat plays its default', {
              match: m.id,
              seat,
              error: String((err as Error)?.message ?? err),
            });
            a.fail();
          });
        m.started.set(seat, p);
      }
      starting.push(p);
    }
    await Promise.all(starting);
  }

  private armDeadline(m: LiveMatch, pending: Pending[]): void {
    const limit = m.row.deadlineMs;
    if (!limit) return;
    const now = Date.now();
    // seats asked through an agent have their own deadline (the policy's)
    const owing = new Set(pending.filter((p) => !m.engine.seats[p.seat].agent).map((p) => p.seat));
    for (const s of [...m.pendingSince.keys()]) if (!owing.has(s)) m.pendingSince.delete(s);
    for (const s of owing) if (!m.pendingSince.has(s)) m.pendingSince.set(s, now);
    if (m.timer) clearTimeout(m.timer);
    m.timer = null;
    if (m.pendingSince.size === 0) return;
    const due = Math.min(...m.pendingSince.values()) + limit;
    m.timer = setTimeout(
      () => {
        m.timer = null;
        void m
          .run(() => this.expire(m))
          .catch((err) => this.warn('turn deadline failed', { match: m.id, error: String(err) }));
      },
      Math.max(0, due - now),
    );
    m.timer.unref();
  }

  /** A seat let its deadline pass: play the ruleset's default action for it, recorded as such. */
  private async expire(m: LiveMatch): Promise<void> {
    const limit = m.row.deadlineMs;
    if (!limit || this.closed || m.broken || m.status !== 'running') return;
    const now = Date.now();
    for (const [seat, since] of [...m.pendingSince]) {
      if (since + limit > now) continue;
      if (!m.engine.owes(seat) || m.engine.seats[seat].agent) continue;
      let r: SubmitResult<unknown>;
      try {
        r = await m.engine.submitDefault(seat, { reason: 'timeout', request: m.seq + 1, raw: null }, this.effects(m));
      } catch {
        continue;
      }
      if (!r.ok) await this.catchUp(m);
      m.pendingSince.delete(seat);
    }
    this.afterChange(m);
  }

  // ---- remote agents over the agent protocol -----------------------------------------------

  /**
   * A seat's token opened a protocol socket: from now on the engine asks this seat's decisions
   * through it (match_start at once, then a decision_request whenever the seat is pending), under
   * the same failure policy as every other transport. One protocol connection per seat.
   */
  attachRemote(m: LiveMatch, seat: Seat, channel: Channel): RemoteTransport {
    const have = m.remote.get(seat);
    if (have && have.transport.connected)
      throw new DomainError('seat_connected', `seat ${seat} is already played by a connected protocol agent`);
    const transport = new RemoteTransport(channel, seat);
    const policy = this.agentPolicy(m);
    const agent = new SeatAgent({
      seat,
      transport,
      policy,
      requestPrefix: `c${++m.connections}-`,
      onAttempt: (rec) => {
        // the server keeps no per-seat transcript file: dropped answers go to its log
        if (rec.stale?.length)
          this.warn('stale agent answers dropped', {
            match: m.id,
            seat,
            request: rec.request,
            stale: rec.stale,
            count: rec.stale_count ?? rec.stale.length,
          });
      },
    });
    m.remote.set(seat, { transport, agent });
    transport.start(m.engine.matchStart(seat, policy.deadlineMs, rulesText(m.pkg.ruleset, m.pkg)));
    if (m.status === 'finished') {
      transport.end({ type: 'match_end', outcome: m.outcome ?? null });
      transport.close();
      m.remote.delete(seat);
    } else {
      m.engine.seatAgent(seat, agent);
      if (m.status === 'running' && !m.broken) this.afterChange(m);
    }
    return transport;
  }

  /** The protocol socket closed. A failed seat stays failed (it plays its default at once). */
  detachRemote(m: LiveMatch, seat: Seat, transport: RemoteTransport): void {
    transport.lost();
    const r = m.remote.get(seat);
    if (!r || r.transport !== transport) return;
    if (!r.agent.failed) {
      m.remote.delete(seat);
      if (m.engine.seats[seat].agent === r.agent) m.engine.seatAgent(seat, null);
    }
    if (m.status === 'running' && !this.closed && !m.broken) this.armDeadline(m, m.pending());
  }

  async submissions(m: LiveMatch): Promise<SubmissionRow[]> {
    return this.store.submissions(m.id, 0);
  }
}

/**
 * A provider's refusal as the match creator may read it: providers quote part of a rejected key
 * ("Incorrect API key provided: sk-proj-…abcd"); whatever looks like a key is cut to its prefix.
 */
function maskKeys(text: string): string {
  return text.replace(/\b(sk-(?:ant-|proj-)?|AIza)[A-Za-z0-9_*.-]{4,}/g, '$1…');
}
