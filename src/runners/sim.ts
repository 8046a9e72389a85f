// Batch simulation: K seeded games through the trusted fast path, summarised. Pure with respect
// to (ruleset, config, agents, seeds): the same arguments give the same report.

import { canonicalJson, type Json, type Ruleset } from '../kernel/index.ts';
import { makeAgents } from '../agents/resolve.ts';
import { playFast } from './match.ts';

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

export interface SimReport {
  ruleset: string;
  version: string;
  games: number;
  first_seed: number;
  agents: string;
  config: Json;
  actions: Stat;
  reasons: Record<string, number>;
  /** Share of games each seat won (a shared win counts for every winner). */
  win_rate: number[];
  draws: number;
  mean_place: number[] | null;
  mean_score: number[] | null;
  metrics: Record<string, Stat>;
  cpu_ms: number;
  games_per_cpu_s: number;
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

export function simulate(rs: Ruleset, opts: SimOptions): SimReport {
  const start = process.cpuUsage();
  const actions = new Acc();
  const reasons: Record<string, number> = {};
  let seats = 0;
  let wins: number[] = [];
  let places: Acc[] | null = null;
  let scores: Acc[] | null = null;
  let draws = 0;
  const metrics = new Map<string, Acc>();
  for (let g = 0; g < opts.games; g++) {
    const seed = (opts.firstSeed + g) >>> 0;
    const probe = rs.setup(opts.config, seed);
    seats = rs.seats(probe);
    if (wins.length === 0) wins = new Array(seats).fill(0);
    const agents = makeAgents(rs.id, opts.agents, seats, seed);
    const r = playFast(rs, agents, seed, opts.config, { keepEvents: Boolean(rs.metrics) });
    actions.add(r.actions);
    const o = r.outcome;
    const reason = o?.reason ?? 'unfinished';
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    if (o) {
      if (o.winners.length === 0) draws++;
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
    if (rs.metrics) {
      for (const [k, v] of Object.entries(rs.metrics(r.state, r.events ?? []))) {
        let acc = metrics.get(k);
        if (!acc) metrics.set(k, (acc = new Acc()));
        acc.add(v);
      }
    }
    opts.onGame?.(g + 1);
  }
  const used = process.cpuUsage(start);
  const cpuMs = (used.user + used.system) / 1000;
  const sortedMetrics: Record<string, Stat> = {};
  for (const k of [...metrics.keys()].sort()) sortedMetrics[k] = metrics.get(k)!.stat();
  return {
    ruleset: rs.id,
    version: rs.version,
    games: opts.games,
    first_seed: opts.firstSeed,
    agents: opts.agents,
    config: JSON.parse(canonicalJson(opts.config)),
    actions: actions.stat(),
    reasons,
    win_rate: wins.map((w) => round(w / opts.games)),
    draws,
    mean_place: places ? places.map((a) => a.stat().mean) : null,
    mean_score: scores ? scores.map((a) => a.stat().mean) : null,
    metrics: sortedMetrics,
    cpu_ms: Math.round(cpuMs),
    games_per_cpu_s: Math.round(opts.games / (cpuMs / 1000)),
  };
}
