// bnc's beats timeline for the replay viewer: every beat of the replayed match with its turn; the
// latest beat at or before the shown step is marked, and a click jumps the viewer to a beat's step.

import { useMemo } from 'preact/hooks';
import type { TimelineProps } from '../../viewer/timeline-props.ts';
import { BeatList, beatsIn } from './beats.tsx';

export function BncTimeline({ steps, index, seek }: TimelineProps) {
  const beats = useMemo(() => steps.flatMap((s, i) => beatsIn(s.events, i)), [steps]);
  const current = beats.reduce((at, b) => (b.step !== undefined && b.step <= index ? b.step : at), -1);
  return (
    <section class="bn-panel" aria-label="Beats timeline">
      <h2>Beats ({beats.length})</h2>
      <BeatList beats={beats} current={current} jump={seek} empty="No beat in this match." />
    </section>
  );
}
