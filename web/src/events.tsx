// The event list in words beside a board: the ruleset's own describeEvent when the page has the
// ruleset, else the event's type and fields.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { RulesetPackage } from '../../src/kernel/index.ts';
import type { Json } from './boards/types.ts';
import { actionLabel } from './boards/words.ts';
import { loadPackage } from './rulesets.ts';
import type { EventGroup } from './event-groups.ts';

export type { EventGroup };

export function usePackage(id: string | null): RulesetPackage | null {
  const [pkg, setPkg] = useState<RulesetPackage | null>(null);
  useEffect(() => {
    let live = true;
    if (id) void loadPackage(id).then((p) => live && setPkg(p));
    return () => {
      live = false;
    };
  }, [id]);
  return pkg;
}

function eventWords(pkg: RulesetPackage | null, e: Json): string {
  const isEvent = e !== null && typeof e === 'object' && !Array.isArray(e) && typeof e.type === 'string';
  if (pkg?.ruleset.describeEvent && isEvent) {
    try {
      return pkg.ruleset.describeEvent(e as { type: string; [k: string]: Json });
    } catch {
      // fall through to the plain form
    }
  }
  return actionLabel(e);
}

export function EventList({
  pkg,
  groups,
  label = 'Events',
}: {
  pkg: RulesetPackage | null;
  groups: EventGroup[];
  label?: string;
}) {
  const end = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const el = end.current;
    const cur = el?.querySelector('[aria-current="step"]');
    if (cur && 'scrollIntoView' in cur) (cur as HTMLElement).scrollIntoView({ block: 'nearest' });
    else if (el) el.scrollTop = el.scrollHeight;
  }, [groups]);
  return (
    <section class="panel events" aria-labelledby="ev-h">
      <h2 id="ev-h">{label}</h2>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a list that scrolls must be reachable by keyboard (axe: scrollable-region-focusable) */}
      <ol ref={end} class="event-list" aria-labelledby="ev-h" tabIndex={0} aria-live="polite" aria-relevant="additions">
        {groups.map((g) => (
          <li
            key={String(g.seq)}
            aria-current={g.current ? 'step' : undefined}
            class={g.current ? 'current' : undefined}
          >
            <span class="ev-seq">{g.seq === 0 ? 'setup' : `#${g.seq}`}</span>
            {g.who ? <span class="ev-who"> {g.who}</span> : null}
            {g.events.length === 0 ? (
              <span class="muted"> (nothing visible)</span>
            ) : (
              <ul>
                {g.events.map((e, i) => (
                  <li key={String(i)}>{eventWords(pkg, e)}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
      {groups.length === 0 ? (
        <p class="muted">
          None yet. (In games with hidden information a player is sent only the events their seat perceives.)
        </p>
      ) : null}
    </section>
  );
}
