// What the viewer gives an extra timeline (timelines.ts lists them per ruleset). Its own module, so
// a board's timeline names these props without importing the list that imports the board.
import type { RulesetPackage } from '@arbiter/engine/kernel';
import type { ReplayStep } from './replay.ts';

export type TimelineProps = {
  pkg: RulesetPackage;
  steps: ReplayStep[];
  /** The index into `steps` the viewer shows now. */
  index: number;
  /** Show step `index` (an index into `steps`). */
  seek: (index: number) => void;
};
