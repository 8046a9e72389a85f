// Batch simulation: K seeded games through the trusted fast path, summarised as they go. Each game
// is a pure function of (ruleset, config, agents, seed); games are grouped in fixed shards of
// seeds, each shard folded into a bounded aggregate (aggregate.ts) and shards merged in seed
// order, so the report is identical on one thread, on a worker pool and on a Redis queue, and
// memory does not grow with the number of games.

import { canonicalJson, type Json, type Outcome, type Ruleset, type RulesetPackage } from '@arbiter/engine/kernel';
import {
  addValue,
  binFigure,
  mergeFigure,
  newFigure,
  summarizeFigure,
  wilson,
  type Binned,
  type Figure,
  type FigureSummary,
} from './aggregate.ts';
import { makeAgents } from '../agents/resolve.ts';
import { playFast, runMatch, type MatchOptions } from '@arbiter/engine/match';
import type { Agent } from '@arbiter/engine/kernel';

export interface SimOptions {
  games: number;
  firstSeed: number;
  config: Json;
  agents: string;
  onGame?: (done: number) => void;
}

export interface GameRecord {
  seed: number;
  seats: number;
  actions: number;
  outcome: Outcome | null;
  metrics: Record<string, number> | null;
}

const round = (v: number) => Math.round(v * 10000) / 10000;

/** A shard is a fixed run of seeds; every way of running a sim (one thread, a pool, a queue) plays the same shards and merges them in order. */
const SHARD_GAMES = 1000;

export interface SimReport {
  ruleset: string;
  version: string;
  games: number;
  first_seed: number;
  agents: string;
  config: Json;
  threads: number;
  actions: FigureSummary;
  reasons: Record<string, number>;
  /** Share of games each seat won (a shared win counts for every winner). */
  win_rate: number[];
  /** 95% Wilson interval of each seat's win rate. */
  win_ci95: [number, number][];
  /** Games with no winner (draws and shared losses). */
  no_winner: number;
  mean_place: number[] | null;
  /** Share of games in which each seat took each place: place_share[seat][place-1]. */
  place_share: number[][] | null;
  mean_score: number[] | null;
  metrics: Record<string, FigureSummary>;
  /** Distributions for charts (`sim --html`, the web report page): game length and each metric. */
  histograms: { actions: Binned; metrics: Record<string, Binned> };
  wall_ms: number;
  games_per_s: number;
  /** Agent failures that fell back to the default action, by reason (protocol agents only). */
  defaults?: Record<string, number>;
  /** The game's name as its rules text names it (`version` is this implementation's version). */
  title?: string;
  /** The seats win or lose together under this config (the ruleset says so): no per-seat standings. */
  cooperative?: boolean;
  /** The figures the ruleset declares most telling, shown first, with the config values they depend on. */
  headline?: { metric: string; label: string; note?: string; by: Record<string, string | number> }[];
  /** What each `rule:ID` metric counts: the rule's heading and summary from the ruleset's catalog. */
  rules?: Record<string, { group?: string; summary: string }>;
}

/** The mergeable state of a sim in progress: plain JSON, bounded whatever the number of games. */
export type SimAggregate = {
  games: number;
  seats: number;
  actions: Figure;
  reasons: Record<string, number>;
  wins: number[];
  noWinner: number;
  places: Figure[] | null;
  scores: Figure[] | null;
  metrics: Record<string, Figure>;
};

export function emptyAggregate(): SimAggregate {
  return {
    games: 0,
    seats: 0,
    actions: newFigure(),
    reasons: {},
    wins: [],
    noWinner: 0,
    places: null,
    scores: null,
    metrics: {},
  };
}

const figures = (n: number) => Array.from({ length: n }, () => newFigure());

export function addRecord(agg: SimAggregate, r: GameRecord): void {
  agg.games++;
  if (r.seats > agg.seats) {
    agg.seats = r.seats;
    while (agg.wins.length < r.seats) agg.wins.push(0);
  }
  addValue(agg.actions, r.actions);
  const o = r.outcome;
  const reason = o?.reason ?? 'unfinished';
  agg.reasons[reason] = (agg.reasons[reason] ?? 0) + 1;
  if (o) {
    if (o.winners.length === 0) agg.noWinner++;
    for (const w of o.winners) if (w < agg.wins.length) agg.wins[w]++;
    if (o.places) {
      agg.places ??= figures(r.seats);
      o.places.forEach((p, i) => agg.places![i] && addValue(agg.places![i], p));
    }
    if (o.scores) {
      agg.scores ??= figures(r.seats);
      o.scores.forEach((v, i) => agg.scores![i] && addValue(agg.scores![i], v));
    }
  }
  for (const [k, v] of Object.entries(r.metrics ?? {})) addValue((agg.metrics[k] ??= newFigure()), v);
}

/** Fold shard `b` into `a`. Shards are merged in seed order, so the result is deterministic. */
export function mergeAggregate(a: SimAggregate, b: SimAggregate): void {
  a.games += b.games;
  a.seats = Math.max(a.seats, b.seats);
  while (a.wins.length < b.wins.length) a.wins.push(0);
  b.wins.forEach((w, i) => (a.wins[i] += w));
  a.noWinner += b.noWinner;
  mergeFigure(a.actions, b.actions);
  for (const [k, v] of Object.entries(b.reasons)) a.reasons[k] = (a.reasons[k] ?? 0) + v;
  const mergeList = (x: Figure[] | null, y: Figure[] | null): Figure[] | null => {
    if (y === null) return x;
    const out = x ?? figures(y.length);
    y.forEach((f, i) => mergeFigure((out[i] ??= newFigure()), f));
    return out;
  };
  a.places = mergeList(a.places, b.places);
  a.scores = mergeList(a.scores, b.scores);
  for (const [k, f] of Object.entries(b.metrics)) mergeFigure((a.metrics[k] ??= newFigure()), f);
}

export function playRecord<S, A extends Json>(
  pkg: RulesetPackage<S, A>,
  seed: number,
  config: Json,
  agentSpec: string,
): GameRecord {
  const rs = pkg.ruleset;
  let seats = 0;
  const seating = (n: number) => makeAgents(pkg, agentSpec, (seats = n));
  const r = playFast(rs, seating, seed, config, { keepEvents: Boolean(rs.metrics) });
  return {
    seed,
    seats,
    actions: r.actions,
    outcome: r.outcome,
    metrics: rs.metrics ? rs.metrics(r.state, r.events ?? []) : null,
  };
}

/** Play one shard (a run of seeds) into an aggregate; `onGame` is called after each game. */
export function playShard<S, A extends Json>(
  pkg: RulesetPackage<S, A>,
  first: number,
  count: number,
  config: Json,
  agentSpec: string,
  onGame?: () => void,
): SimAggregate {
  const agg = emptyAggregate();
  for (let i = 0; i < count; i++) {
    addRecord(agg, playRecord(pkg, (first + i) >>> 0, config, agentSpec));
    onGame?.();
  }
  return agg;
}

/** The shards of a run, in order: [first seed, count]. */
export function shardsOf(opts: { games: number; firstSeed: number }): [number, number][] {
  const out: [number, number][] = [];
  for (let start = 0; start < opts.games; start += SHARD_GAMES)
    out.push([(opts.firstSeed + start) >>> 0, Math.min(SHARD_GAMES, opts.games - start)]);
  return out;
}

export function summarize<S, A extends Json>(
  rs: Ruleset<S, A>,
  opts: SimOptions,
  agg: SimAggregate,
  wallMs: number,
  threads: number,
): SimReport {
  const n = agg.games;
  // a metric a game does not report counts as 0 for that game, so every figure is over all games
  const metrics: Record<string, FigureSummary> = {};
  const metricBins: Record<string, Binned> = {};
  for (const k of Object.keys(agg.metrics).sort()) {
    const f: Figure = JSON.parse(JSON.stringify(agg.metrics[k]));
    for (let i = f.moments.n; i < n; i++) addValue(f, 0);
    metrics[k] = summarizeFigure(f);
    metricBins[k] = binFigure(f);
  }
  const placeShare = agg.places
    ? agg.places.map((f) =>
        Array.from({ length: agg.seats }, (_, p) => round((f.hist.counts[String(p + 1)] ?? 0) / Math.max(1, n))),
      )
    : null;
  return {
    ruleset: rs.id,
    version: rs.version,
    games: n,
    first_seed: opts.firstSeed,
    agents: opts.agents,
    config: JSON.parse(canonicalJson(opts.config)),
    threads,
    actions: summarizeFigure(agg.actions),
    reasons: Object.fromEntries(
      Object.keys(agg.reasons)
        .sort()
        .map((k) => [k, agg.reasons[k]]),
    ),
    win_rate: agg.wins.map((w) => round(w / Math.max(1, n))),
    win_ci95: agg.wins.map((w) => wilson(w, n)),
    no_winner: agg.noWinner,
    mean_place: agg.places ? agg.places.map((f) => summarizeFigure(f).mean) : null,
    place_share: placeShare,
    mean_score: agg.scores ? agg.scores.map((f) => summarizeFigure(f).mean) : null,
    metrics,
    histograms: { actions: binFigure(agg.actions), metrics: metricBins },
    wall_ms: Math.round(wallMs),
    games_per_s: Math.round(n / Math.max(wallMs / 1000, 1e-6)),
    ...presentation(rs, opts.config, Object.keys(metrics)),
  };
}

/** The report's reading aids, all from the ruleset: its title, its headline and its rule catalog. */
function presentation<S, A extends Json>(
  rs: Ruleset<S, A>,
  config: Json,
  metricNames: string[],
): Pick<SimReport, 'title' | 'cooperative' | 'headline' | 'rules'> {
  const setting = rs.report?.setting?.(config);
  const catalog = new Map(rs.catalog.rules.map((r) => [r.id, r]));
  const rules: NonNullable<SimReport['rules']> = {};
  for (const name of metricNames) {
    const entry = name.startsWith('rule:') ? catalog.get(name.slice(5)) : undefined;
    if (entry)
      rules[entry.id] = entry.group ? { group: entry.group, summary: entry.summary } : { summary: entry.summary };
  }
  const headline = (rs.report?.headline ?? [])
    .filter((h) => metricNames.includes(h.metric))
    .map((h) => ({ ...h, by: setting?.by ?? {} }));
  return {
    title: rs.title,
    ...(setting ? { cooperative: setting.cooperative } : {}),
    ...(headline.length ? { headline } : {}),
    ...(Object.keys(rules).length ? { rules } : {}),
  };
}

/** Single-thread simulation in this process: the same shards as every other way, in order. */
export function simulate<S, A extends Json>(pkg: RulesetPackage<S, A>, opts: SimOptions): SimReport {
  const t0 = performance.now();
  let done = 0;
  const total = emptyAggregate();
  for (const [first, count] of shardsOf(opts))
    mergeAggregate(
      total,
      playShard(pkg, first, count, opts.config, opts.agents, () => opts.onGame?.(++done)),
    );
  return summarize(pkg.ruleset, opts, total, performance.now() - t0, 1);
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
export async function simulateAsync<S, A extends Json>(
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
      for (const s of r.seats)
        for (const [k, v] of Object.entries(s.defaults)) defaults[k] = (defaults[k] ?? 0) + (v ?? 0);
      records[i] = {
        seed,
        seats,
        actions: r.footer.submissions,
        outcome: r.outcome,
        metrics: pkg.ruleset.metrics ? pkg.ruleset.metrics(r.state, r.events) : null,
      };
      opts.onGame?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, opts.games)) }, worker));
  // folded in seed order, like every other way of running a sim
  const total = emptyAggregate();
  for (const r of records) addRecord(total, r);
  const report = summarize(pkg.ruleset, opts, total, performance.now() - t0, 1);
  report.defaults = Object.fromEntries(Object.entries(defaults).sort());
  return report;
}
