// Extra timelines the viewer shows above its slider, per ruleset (the bnc beats timeline goes here:
// one line in TIMELINES). A timeline gets every replayed step and may jump the viewer to one.
import type { ComponentType } from 'preact';
import type { TimelineProps } from './timeline-props.ts';
import { BncTimeline } from '../boards/bnc/timeline.tsx';
export type Timeline = ComponentType<TimelineProps>;

const TIMELINES: Record<string, Timeline> = {
  bnc: BncTimeline,
};

export function timelineFor(rulesetId: string): Timeline | null {
  return TIMELINES[rulesetId] ?? null;
}
