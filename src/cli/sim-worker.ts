// The worker module `arbiter sim` hands the parallel simulator: it finds packages in the registry,
// which runners may not import themselves. Its URL, as source or build, is paths.ts's SIM_WORKER.

import { PACKAGES } from '@arbiter/engine';
import { playTask, type SimTask } from '../runners/sim-worker.ts';
import type { SimAggregate } from '../runners/sim.ts';

export default function run(task: SimTask): SimAggregate {
  return playTask(PACKAGES, task);
}
