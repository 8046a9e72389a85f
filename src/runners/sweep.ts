// Sweeps: a grid of configs × line-ups, each cell simulated on the same seeds, one row per cell.
// The grid is data (a parsed sweep file); the caller supplies how to simulate a cell (one thread,
// a pool or a queue), so this runner stays free of registries and I/O.

import { z } from 'zod';
import {
  ArbiterError,
  assertNoPrototypeKeys,
  type Json,
  type JsonObject,
  type RulesetPackage,
} from '@arbiter/engine/kernel';
import type { SimOptions, SimReport } from './sim.ts';

const jsonValue: z.ZodType<Json> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

export const sweepSchema = z.strictObject({
  ruleset: z.string().min(1),
  games: z.number().int().min(1).max(10_000_000).default(1000),
  seed: z.number().int().min(0).max(0xffffffff).default(1),
  /** Config fields every cell shares. */
  base: z.record(z.string(), jsonValue).default({}),
  /** Config field → the values to sweep; the grid is their cartesian product. */
  grid: z.record(z.string(), z.array(jsonValue).min(1)).default({}),
  /** Line-ups: each an agent spec as `sim --agents` takes it ("random", "heuristic,random"). */
  agents: z.array(z.string().min(1)).min(1).default(['random']),
});

export type SweepSpec = z.infer<typeof sweepSchema>;

export function parseSweep(raw: unknown, where: string): SweepSpec {
  assertNoPrototypeKeys(raw, where, 'bad_config');
  const r = sweepSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new ArbiterError('bad_config', `${where}: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  const cells = Object.values(r.data.grid).reduce((n, vs) => n * vs.length, 1) * r.data.agents.length;
  if (cells > 10_000) throw new ArbiterError('bad_config', `${where}: ${cells} cells; a sweep may have at most 10,000`);
  return r.data;
}

export type SweepCell = { config: JsonObject; agents: string };

export function cellsOf(spec: SweepSpec): SweepCell[] {
  let configs: JsonObject[] = [{ ...spec.base }];
  for (const [key, values] of Object.entries(spec.grid)) {
    configs = configs.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  }
  return configs.flatMap((config) => spec.agents.map((agents) => ({ config, agents })));
}

export type SweepRow = SweepCell & { report: SimReport };

export async function runSweep<S, A extends Json>(
  pkg: RulesetPackage<S, A>,
  spec: SweepSpec,
  simulateCell: (pkg: RulesetPackage<S, A>, opts: SimOptions) => Promise<SimReport>,
  onCell?: (index: number, total: number, row: SweepRow) => void,
): Promise<SweepRow[]> {
  const cells = cellsOf(spec);
  // every cell's config must set up before anything is simulated
  for (const c of cells) pkg.ruleset.setup(c.config, spec.seed);
  const rows: SweepRow[] = [];
  for (let i = 0; i < cells.length; i++) {
    const report = await simulateCell(pkg, {
      games: spec.games,
      firstSeed: spec.seed,
      config: cells[i].config,
      agents: cells[i].agents,
    });
    const row = { ...cells[i], report };
    rows.push(row);
    onCell?.(i, cells.length, row);
  }
  return rows;
}

/**
 * A cell's headline figures in words, as the ruleset declares them ("group success 16.7%"): a
 * figure between 0 and 1 in every game is a share of games, any other its mean per game. A sweep
 * over a ruleset's modes and player counts thereby gives its headline by mode and player count.
 */
export function headlineText(r: SimReport): string {
  return (r.headline ?? [])
    .map((h) => {
      const s = r.metrics[h.metric];
      if (!s) return '';
      const share = s.min >= 0 && s.max <= 1;
      return `${h.label} ${share ? `${(s.mean * 100).toFixed(1)}%` : String(Math.round(s.mean * 100) / 100)}`;
    })
    .filter(Boolean)
    .join(', ');
}
