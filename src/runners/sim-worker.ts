// Worker-thread side of the parallel simulator: plays one contiguous range of seeds.

import { getRuleset } from '../registry.ts';
import { playRange, type GameRecord } from './sim.ts';
import type { Json } from '../kernel/index.ts';

export interface SimTask {
  ruleset: string;
  first: number;
  count: number;
  config: Json;
  agents: string;
}

export default function run(task: SimTask): GameRecord[] {
  return playRange(getRuleset(task.ruleset), task.first, task.count, task.config, task.agents);
}
