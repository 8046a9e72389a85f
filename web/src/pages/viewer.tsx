// The match viewer: a finished match from the server, or an uploaded log file, re-run in the browser
// by the ruleset itself. Step slider, keyboard stepping (← → Home End, space plays), play/pause, the
// perspective switch (each seat's view at that step, the spectator's, or everything once it is over),
// the event list in words beside the board, and a per-ruleset timeline (bnc beats).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { canonicalJson, type GameEvent, type Json, type RulesetPackage } from '@arbiter/engine/kernel';
import { eventsGuarded } from '@arbiter/engine/match';
import { api } from '../api.ts';
import { boardFor } from '../boards/index.ts';
import { JsonTree } from '../boards/tree.tsx';
import { EventList, type EventGroup } from '../events.tsx';
import { loadPackage } from '../rulesets.ts';
import { logRuleset, parseLines, replay, type Replay } from '../viewer/replay.ts';
import { timelineFor } from '../viewer/timelines.ts';
import { outcomeText } from '../boards/words.ts';

type Loaded = { pkg: RulesetPackage; rep: Replay; source: string };

/** A running match's log (the server marks it partial): nothing to replay until it has finished. */
class StillRunning extends Error {}

async function load(text: string, source: string): Promise<Loaded> {
  const lines = parseLines(text);
  const id = logRuleset(lines);
  if (!id) throw new Error('this file has no match log header');
  if (lines[0]?.partial === true) throw new StillRunning('this match is still running');
  const pkg = await loadPackage(id);
  if (!pkg) throw new Error(`this page cannot run the ruleset "${id}" (it runs the shipped rulesets only)`);
  return { pkg, rep: replay(pkg, lines), source };
}

const noAct = () => Promise.resolve({ ok: false as const, code: 'read_only', reason: 'the viewer only replays' });

function Player({ data }: { data: Loaded }) {
  const { pkg, rep } = data;
  const rs = pkg.ruleset;
  const last = rep.steps.length - 1;
  const [index, setIndex] = useState(last);
  const [playing, setPlaying] = useState(false);
  const [perspective, setPerspective] = useState<string>('spectator');
  const step = rep.steps[index];
  const seats = rs.seats(rep.steps[0].state);
  const atEnd = index === last;
  const everything = perspective === 'all' && atEnd;
  const perfect = pkg.gameType.information === 'perfect';

  useEffect(() => {
    if (!playing) return;
    if (index >= last) {
      setPlaying(false);
      return;
    }
    const t = setTimeout(() => setIndex((i) => Math.min(last, i + 1)), 600);
    return () => clearTimeout(t);
  }, [playing, index, last]);

  const seat = perspective === 'spectator' || perspective === 'all' ? null : Number(perspective);
  const view: Json = everything ? (step.state as Json) : rs.view(step.state, seat);
  const outcome = rs.outcome(step.state);
  const pending = outcome ? [] : rs.pending(step.state).map((p) => ({ seat: p.seat, kind: p.kind }));
  // what this audience perceived of each step: the cut the live page gets from the server
  // (the engine's audience cut, packages/engine/src/engine/audience.ts, judged against the state right after each
  // step), so a spectator sees here what a spectator saw live
  const seenPerStep: GameEvent[][] = useMemo(
    () =>
      rep.steps.map((s) =>
        perspective === 'all' ? [...s.events] : eventsGuarded(pkg, s.state, seat, s.events).events,
      ),
    [rep, perspective],
  );
  const history = useMemo(() => seenPerStep.slice(0, index + 1).flat() as unknown as Json[], [seenPerStep, index]);

  const groups: EventGroup[] = useMemo(
    () =>
      rep.steps.slice(0, index + 1).map((s, i) => ({
        seq: s.seq,
        who:
          s.seat === null
            ? null
            : `seat ${s.seat}${everything || seat === s.seat || perfect ? `: ${describe(pkg, s.input, s.seat)}` : ''}${s.result === 'rejected' ? ' (refused)' : s.result === 'defaulted' ? ' (defaulted)' : ''}`,
        events: seenPerStep[i] as unknown as Json[],
        current: i === index,
      })),
    // describe depends only on these
    [rep, index, seenPerStep, everything],
  );

  const Board = boardFor(rep.ruleset);
  const Timeline = timelineFor(rep.ruleset);
  const onKey = (e: KeyboardEvent) => {
    const t = e.target as HTMLElement;
    if (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA') return;
    if (e.key === 'ArrowRight') setIndex((i) => Math.min(last, i + 1));
    else if (e.key === 'ArrowLeft') setIndex((i) => Math.max(0, i - 1));
    else if (e.key === 'Home') setIndex(0);
    else if (e.key === 'End') setIndex(last);
    else if (e.key === ' ' && t.tagName !== 'BUTTON') setPlaying((p) => !p);
    else return;
    e.preventDefault();
  };
  useEffect(() => {
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  return (
    <div class="viewer" data-step={index} data-last={last}>
      <p class="status-line">
        {rs.title} · seed {rep.seed} · {rep.steps.length - 1} submissions · from {data.source}
        {rep.agents.length
          ? ` · seats: ${rep.agents.map((a, i) => `${i} ${a === 'remote' ? 'a player' : `agent ${a}`}`).join(', ')}`
          : ''}{' '}
        · <a href={`/rules/${encodeURIComponent(rep.ruleset)}`}>Rules of {rs.title}</a>
      </p>
      <p role="status" class={rep.problem ? 'refusal' : 'ok'}>
        {rep.problem ? `Warning: ${rep.problem}` : `Replayed and checked: event-stream hash `}
        {rep.problem ? null : <code data-testid="hash">{rep.hash}</code>}
      </p>
      <fieldset class="controls">
        <legend class="sr-only">Replay controls</legend>
        <button type="button" onClick={() => setIndex(0)} disabled={index === 0}>
          First
        </button>
        <button type="button" onClick={() => setIndex((i) => Math.max(0, i - 1))} disabled={index === 0}>
          Previous
        </button>
        <button type="button" onClick={() => setPlaying((p) => !p)}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" onClick={() => setIndex((i) => Math.min(last, i + 1))} disabled={atEnd}>
          Next
        </button>
        <button type="button" onClick={() => setIndex(last)} disabled={atEnd}>
          Last
        </button>
        <label for="v-step" class="step-label">
          Step {step.seq === 0 ? 'setup' : step.seq} of {rep.steps[last].seq}
        </label>
        <input
          id="v-step"
          type="range"
          min={0}
          max={last}
          value={index}
          aria-valuetext={`step ${index} of ${last}`}
          onInput={(e) => setIndex(Number((e.target as HTMLInputElement).value))}
        />
        <label for="v-persp">Perspective</label>
        <select
          id="v-persp"
          value={perspective}
          onChange={(e) => setPerspective((e.target as HTMLSelectElement).value)}
        >
          <option value="spectator">spectator</option>
          {Array.from({ length: seats }, (_, i) => (
            <option key={String(i)} value={String(i)}>
              seat {i}
            </option>
          ))}
          <option value="all" disabled={!atEnd && !rep.finished}>
            everything (after the end)
          </option>
        </select>
      </fieldset>
      {Timeline ? <Timeline pkg={pkg} steps={rep.steps} index={index} seek={setIndex} /> : null}
      {perspective === 'all' && !atEnd ? (
        <p class="muted">Everything is shown at the last step only; step to the end to see it.</p>
      ) : null}
      <p class="turn">
        {outcome ? (
          <strong>{outcomeText(outcome as unknown as Json, seat, seats)}</strong>
        ) : (
          `Waiting for: ${pending.map((p) => `seat ${p.seat}: ${p.kind}`).join('; ') || 'nobody'}`
        )}
      </p>
      <div class="match-grid">
        <div class="board-area">
          <h2 class="sr-only">Board</h2>
          {everything ? (
            <section class="panel" aria-labelledby="all-h">
              <h3 id="all-h">The whole state</h3>
              <div class="view-tree">
                <JsonTree value={view} />
              </div>
            </section>
          ) : (
            <Board
              ruleset={rep.ruleset}
              seat={seat}
              view={view}
              menu={null}
              pending={pending}
              events={seenPerStep[index] as unknown as Json[]}
              history={history}
              outcome={(outcome ?? null) as unknown as Json}
              readOnly
              act={noAct}
            />
          )}
          <details class="raw">
            <summary>This position as JSON</summary>
            <pre data-testid="position">{canonicalJson(view)}</pre>
          </details>
        </div>
        <aside class="side">
          <EventList pkg={pkg} groups={groups} />
        </aside>
      </div>
    </div>
  );
}

function describe(pkg: RulesetPackage, input: Json, seat: number): string {
  try {
    if (pkg.ruleset.describeAction && input !== null) return pkg.ruleset.describeAction(input, seat);
  } catch {
    // plain form below
  }
  return canonicalJson(input);
}

export function Viewer({ id }: { id: string | null }) {
  const [data, setData] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  useEffect(() => {
    setData(null);
    setError(null);
    setRunning(false);
    if (!id) return;
    let live = true;
    api
      .log(id)
      .then((text) => load(text, `match ${id}`))
      .then(
        (d) => live && setData(d),
        (e: Error) => {
          if (!live) return;
          if (e instanceof StillRunning) setRunning(true);
          else setError(e.message);
        },
      );
    return () => {
      live = false;
    };
  }, [id]);
  return (
    <div>
      <h1>{id ? `Replay of ${id}` : 'Replay a match log'}</h1>
      <div class="field upload">
        <label for="v-file">Open a match log file (JSON Lines, as written by arbiter play --log)</label>
        <input
          id="v-file"
          type="file"
          accept=".jsonl,.ndjson,.json,.log,application/x-ndjson,application/json,text/plain"
          onChange={async (e) => {
            const f = (e.target as HTMLInputElement).files?.[0];
            if (!f) return;
            setError(null);
            try {
              setData(await load(await f.text(), f.name));
            } catch (err) {
              setError((err as Error).message);
            }
          }}
        />
      </div>
      <p role="alert" class="refusal">
        {error ?? ''}
      </p>
      {running && id ? (
        <p class="panel" data-testid="still-running">
          This match is still running, so there is nothing to replay yet.{' '}
          <a href={`/match/${encodeURIComponent(id)}`}>Watch it live</a>; its replay opens here once it has finished.
        </p>
      ) : null}
      {data ? (
        <Player key={data.source + data.rep.hash} data={data} />
      ) : id && !error && !running ? (
        <p class="muted">Loading…</p>
      ) : null}
    </div>
  );
}
