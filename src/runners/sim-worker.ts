// Worker side of the parallel and queued simulators: plays one shard (a contiguous range of seeds). A worker
// cannot receive a package object (it holds functions), so the task names the ruleset by id and
// the worker module, chosen by the caller, supplies the list to find it in: the CLI's worker
// (src/cli/sim-worker.ts) passes the registry. This file imports no registry.

import { ArbiterError, type Json, type RulesetPackage } from '@arbiter/engine/kernel';
import { playShard, type SimAggregate } from './sim.ts';

export interface SimTask {
  ruleset: string;
  first: number;
  count: number;
  config: Json;
  agents: string;
}

export function playTask(packages: readonly RulesetPackage[], task: SimTask): SimAggregate {
  const pkg = packages.find((p) => p.ruleset.id === task.ruleset);
  if (!pkg) throw new ArbiterError('not_found', `the worker knows no ruleset "${task.ruleset}"`);
  return playShard(pkg, task.first, task.count, task.config, task.agents);
}
