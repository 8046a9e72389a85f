// Batch simulation: K seeded games through the trusted fast path, summarised. Each game is a pure
// function of (ruleset, config, agents, seed), and the summary is built from per-game records in
// seed order, so the report is identical for any number of worker threads.

import { canonicalJson, type Json, type Outcome, type Ruleset, type RulesetPackage } from '../kernel/index.ts';
import { makeAgents } from '../agents/resolve.ts';
import { playFast, runMatch, type MatchOptions } from './match.ts';
import type { Agent } from '../kernel/index.ts';

export interface SimOptions {
  games: number;
  firstSeed: number;
  config: Json;
  agents: string;
  onGame?: (done: number) => void;
}

export interface Stat {
  mean: number;
  min: number;
  max: number;
}

export interface GameRecord {
  seed: number;
  seats: number;
  actions: number;
  outcome: Outcome | null;
  metrics: Record<string, number> | null;
}

export interface SimReport {
  ruleset: string;
  version: string;
  games: number;
  first_seed: number;
  agents: string;
  config: Json;
  threads: number;
  actions: Stat;
  reasons: Record<string, number>;
  /** Share of games each seat won (a shared win counts for every winner). */
  win_rate: number[];
  /** Games with no winner (draws and shared losses). */
  no_winner: number;
  mean_place: number[] | null;
  mean_score: number[] | null;
  metrics: Record<string, Stat>;
  wall_ms: number;
  games_per_s: number;
  /** Agent failures that fell back to the default action, by reason (protocol agents only). */
  defaults?: Record<string, number>;
}

class Acc {
  n = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  add(v: number) {
    this.n++;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }
  stat(): Stat {
    return this.n === 0 ? { mean: 0, min: 0, max: 0 } : { mean: round(this.sum / this.n), min: this.min, max: this.max };
  }
}

const round = (v: number) => Math.round(v * 10000) / 10000;

export function playRecord<S, A>(pkg: RulesetPackage<S, A>, seed: number, config: Json, agentSpec: string): GameRecord {
  const rs = pkg.ruleset;
  let seats = 0;
  const seating = (n: number) => makeAgents(pkg, agentSpec, (seats = n));
  const r = playFast(rs, seating, seed, config, { keepEvents: Boolean(rs.metrics) });
  return { seed, seats, actions: r.actions, outcome: r.outcome, metrics: rs.metrics ? rs.metrics(r.state, r.events ?? []) : null };
}

export function playRange<S, A>(pkg: RulesetPackage<S, A>, first: number, count: number, config: Json, agentSpec: string, onGame?: () => void): GameRecord[] {
  const out: GameRecord[] = [];
  for (let i = 0; i < count; i++) {
    out.push(playRecord(pkg, (first + i) >>> 0, config, agentSpec));
    onGame?.();
  }
  return out;
}

export function summarize<S, A>(rs: Ruleset<S, A>, opts: SimOptions, records: GameRecord[], wallMs: number, threads: number): SimReport {
  const actions = new Acc();
  const reasons: Record<string, number> = {};
  const seats = records[0]?.seats ?? 0;
  const wins = new Array(seats).fill(0);
  let places: Acc[] | null = null;
  let scores: Acc[] | null = null;
  let noWinner = 0;
  const metrics = new Map<string, Acc>();
  for (const r of records) {
    actions.add(r.actions);
    const o = r.outcome;
    const reason = o?.reason ?? 'unfinished';
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    if (o) {
      if (o.winners.length === 0) noWinner++;
      for (const w of o.winners) if (w < wins.length) wins[w]++;
      if (o.places) {
        places ??= Array.from({ length: seats }, () => new Acc());
        o.places.forEach((p, i) => places![i]?.add(p));
      }
      if (o.scores) {
        scores ??= Array.from({ length: seats }, () => new Acc());
        o.scores.forEach((s, i) => scores![i]?.add(s));
      }
    }
  }
  // a metric a game does not report counts as 0 for that game, so every mean is over all games
  const keys = new Set<string>();
  for (const r of records) for (const k of Object.keys(r.metrics ?? {})) keys.add(k);
  for (const k of keys) {
    const acc = new Acc();
    for (const r of records) acc.add(r.metrics?.[k] ?? 0);
    metrics.set(k, acc);
  }
  const sortedMetrics: Record<string, Stat> = {};
  for (const k of [...metrics.keys()].sort()) sortedMetrics[k] = metrics.get(k)!.stat();
  return {
    ruleset: rs.id,
    version: rs.version,
    games: records.length,
    first_seed: opts.firstSeed,
    agents: opts.agents,
    config: JSON.parse(canonicalJson(opts.config)),
    threads,
    actions: actions.stat(),
    reasons,
    win_rate: wins.map((w) => round(w / Math.max(1, records.length))),
    no_winner: noWinner,
    mean_place: places ? places.map((a) => a.stat().mean) : null,
    mean_score: scores ? scores.map((a) => a.stat().mean) : null,
    metrics: sortedMetrics,
    wall_ms: Math.round(wallMs),
    games_per_s: Math.round(records.length / Math.max(wallMs / 1000, 1e-6)),
  };
}

/** Single-thread simulation in this process. */
export function simulate<S, A>(pkg: RulesetPackage<S, A>, opts: SimOptions): SimReport {
  const t0 = performance.now();
  let done = 0;
  const records = playRange(pkg, opts.firstSeed, opts.games, opts.config, opts.agents, () => opts.onGame?.(++done));
  return summarize(pkg.ruleset, opts, records, performance.now() - t0, 1);
}

/** The part of the report that must not depend on threads or timing. */
export function reportFingerprint(r: SimReport): string {
  const { wall_ms: _w, games_per_s: _g, threads: _t, ...rest } = r;
  return canonicalJson(rest);
}

/**
 * Asynchronous agents (cmd:, http:, llm:): each game through the checked match runner, up to
 * `concurrency` games at once, in this process. Records come back in seed order, so the report
 * does not depend on which game finished first.
 */
export async function simulateAsync<S, A>(
  pkg: RulesetPackage<S, A>,
  opts: SimOptions,
  concurrency: number,
  seat: (seats: number) => Agent[],
  match: Partial<MatchOptions> = {},
): Promise<SimReport> {
  const t0 = performance.now();
  const records: GameRecord[] = new Array(opts.games);
  const defaults: Record<string, number> = {};
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < opts.games) {
      const i = next++;
      const seed = (opts.firstSeed + i) >>> 0;
      let seats = 0;
      const r = await runMatch(pkg.ruleset, (n) => seat((seats = n)), { ...match, seed, config: opts.config, pkg });
      for (const s of r.seats) for (const [k, v] of Object.entries(s.defaults)) defaults[k] = (defaults[k] ?? 0) + (v ?? 0);
      records[i] = { seed, seats, actions: r.footer.submissions, outcome: r.outcome, metrics: pkg.ruleset.metrics ? pkg.ruleset.metrics(r.state, r.events) : null };
      opts.onGame?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, opts.games)) }, worker));
  const report = summarize(pkg.ruleset, opts, records, performance.now() - t0, 1);
  report.defaults = Object.fromEntries(Object.entries(defaults).sort());
  return report;
}
