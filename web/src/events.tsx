// The event list in words beside a board: the ruleset's own describeEvent when the page has the
// ruleset, else the event's type and fields.
import type { VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { RulesetPackage } from '@arbiter/engine/kernel';
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

/** The rule ids an event carries (its `rule`, `u` and `contract` fields). */
function ruleIds(e: Json): string[] {
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return [];
  return ['rule', 'u', 'contract'].map((k) => e[k]).filter((v): v is string => typeof v === 'string' && v !== '');
}

/**
 * The words without the rule ids the describe layer appends ("(GR-A06)", "[TurnFormalBegin5]"):
 * only ids the event itself carries are taken out, so no other bracketed words are lost.
 */
function plainWords(words: string, ids: string[]): string {
  if (ids.length === 0) return words;
  const known = (list: string) => list.split(/,\s*/).every((id) => ids.includes(id));
  return words
    .replace(/\s*\[([A-Za-z0-9-]+(?:,\s*[A-Za-z0-9-]+)*)\]/g, (m, list: string) => (known(list) ? '' : m))
    .replace(/\s*\(([A-Za-z0-9-]+(?:,\s*[A-Za-z0-9-]+)*)\)/g, (m, list: string) => (known(list) ? '' : m))
    .trim();
}

/** Runs of more events of one type than this are folded behind "N more like this". */
const FOLD_AFTER = 3;

type Run = { type: string; items: Json[] };

function runsOf(events: Json[]): Run[] {
  const runs: Run[] = [];
  for (const e of events) {
    const t = e !== null && typeof e === 'object' && !Array.isArray(e) ? String(e.type) : '';
    const last = runs[runs.length - 1];
    if (last && last.type === t) last.items.push(e);
    else runs.push({ type: t, items: [e] });
  }
  return runs;
}

function EventLine({ pkg, e, details }: { pkg: RulesetPackage | null; e: Json; details: boolean }) {
  const ids = ruleIds(e);
  const words = eventWords(pkg, e);
  return (
    <li class="ev">
      {details ? words : plainWords(words, ids)}
      {details ? (
        <>
          {ids.length ? <span class="ev-rule"> rules: {ids.join(', ')}</span> : null}
          <code class="ev-raw">{JSON.stringify(e)}</code>
        </>
      ) : null}
    </li>
  );
}

function GroupEvents({ pkg, events, details }: { pkg: RulesetPackage | null; events: Json[]; details: boolean }) {
  return (
    <ul>
      {runsOf(events).map((run, r) =>
        run.items.length > FOLD_AFTER ? (
          <li key={String(r)} class="ev-run">
            <ul>
              {run.items.slice(0, 2).map((e, i) => (
                <EventLine key={String(i)} pkg={pkg} e={e} details={details} />
              ))}
            </ul>
            <details>
              <summary>
                {run.items.length - 2} more like this ({run.type.replace(/_/g, ' ')})
              </summary>
              <ul>
                {run.items.slice(2).map((e, i) => (
                  <EventLine key={String(i)} pkg={pkg} e={e} details={details} />
                ))}
              </ul>
            </details>
          </li>
        ) : (
          run.items.map((e, i) => <EventLine key={`${r}-${i}`} pkg={pkg} e={e} details={details} />)
        ),
      )}
    </ul>
  );
}

/** Whether the window is as narrow as a phone (the layout's one break, styles.css). */
export function useNarrow(): boolean {
  const query = '(max-width: 720px)';
  const [narrow, setNarrow] = useState(() => typeof matchMedia === 'function' && matchMedia(query).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const m = matchMedia(query);
    const on = () => setNarrow(m.matches);
    on();
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return narrow;
}

export function EventList({
  pkg,
  groups,
  label = 'Events',
  collapsible = false,
}: {
  pkg: RulesetPackage | null;
  groups: EventGroup[];
  label?: string;
  /** On a phone the list starts folded (a button opens it), so the board and seats come first. */
  collapsible?: boolean;
}) {
  const end = useRef<HTMLOListElement>(null);
  const [details, setDetails] = useState(false);
  const narrow = useNarrow();
  // the drawn line of each step (groups are kept as the same objects from frame to frame), kept
  // while the words (the ruleset) and the details switch stay as they are
  const lines = useRef<{ pkg: RulesetPackage | null; details: boolean; drawn: WeakMap<EventGroup, VNode> } | null>(
    null,
  );
  if (lines.current === null || lines.current.pkg !== pkg || lines.current.details !== details)
    lines.current = { pkg, details, drawn: new WeakMap() };
  const drawn = lines.current.drawn;
  // the reader's own choice wins; until they choose, folded on a phone and open elsewhere
  const [chosen, setChosen] = useState<boolean | null>(null);
  const open = !collapsible || (chosen ?? !narrow);
  useEffect(() => {
    const el = end.current;
    if (!open) return;
    const cur = el?.querySelector('[aria-current="step"]');
    if (cur && 'scrollIntoView' in cur) (cur as HTMLElement).scrollIntoView({ block: 'nearest' });
    else if (el) el.scrollTop = el.scrollHeight;
  }, [groups, open]);
  return (
    <section class="panel events" aria-labelledby="ev-h" id="events">
      <h2 id="ev-h">{label}</h2>
      {collapsible ? (
        <button
          type="button"
          class="ev-toggle"
          aria-expanded={open}
          aria-controls="ev-list"
          onClick={() => setChosen(!open)}
        >
          {open ? 'Hide the events' : `Show the events (${groups.length} ${groups.length === 1 ? 'step' : 'steps'})`}
        </button>
      ) : null}
      <div class="field check ev-details" hidden={!open}>
        <input
          id="ev-details"
          type="checkbox"
          checked={details}
          onChange={(e) => setDetails((e.target as HTMLInputElement).checked)}
        />
        <label for="ev-details">Details: rule ids and raw events</label>
      </div>
      {/* data-words: whether the ruleset's own words are in (its chunk loads after the first frame) */}
      <ol
        ref={end}
        id="ev-list"
        hidden={!open}
        class="event-list"
        data-words={pkg ? 'ruleset' : 'plain'}
        aria-labelledby="ev-h"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a list that scrolls must be reachable by keyboard (axe: scrollable-region-focusable)
        tabIndex={0}
        aria-live="polite"
        aria-relevant="additions"
      >
        {groups.map((g) => {
          // a step's line is drawn once: a new frame adds its own line without redrawing (and
          // re-describing) the hundreds before it, which kept the page busy between a click and
          // the board (the same node back tells preact to leave that line as it is)
          let line = drawn.get(g);
          if (!line) {
            line = (
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
                  <GroupEvents pkg={pkg} events={g.events} details={details} />
                )}
              </li>
            );
            drawn.set(g, line);
          }
          return line;
        })}
      </ol>
      {groups.length === 0 && open ? (
        <p class="muted">
          None yet. (In games with hidden information a player is sent only the events their seat perceives.)
        </p>
      ) : null}
    </section>
  );
}
