// Worker-thread side of the parallel simulator: plays one contiguous range of seeds. A worker
// cannot receive a package object (it holds functions), so the task names the ruleset by id and
// the worker module, chosen by the caller, supplies the list to find it in: the CLI's worker
// (src/cli/sim-worker.ts) passes the registry. This file imports no registry.

import { ArbiterError, type Json, type RulesetPackage } from '../kernel/index.ts';
import { playRange, type GameRecord } from './sim.ts';

export interface SimTask {
  ruleset: string;
  first: number;
  count: number;
  config: Json;
  agents: string;
}

export function playTask(packages: readonly RulesetPackage[], task: SimTask): GameRecord[] {
  const pkg = packages.find((p) => p.ruleset.id === task.ruleset);
  if (!pkg) throw new ArbiterError('not_found', `the worker knows no ruleset "${task.ruleset}"`);
  return playRange(pkg, task.first, task.count, task.config, task.agents);
}
