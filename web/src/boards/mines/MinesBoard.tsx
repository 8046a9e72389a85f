// The mines board: the seed's D1 presentation layer over the seat's view. Every intent goes to the
// rules as a one-intent batch (the batch entry, one intent per frame); the answer, refusals and
// voided intents are put into words; the three reveal channels are animated differently.

import { intentWords } from '@arbiter/engine/rulesets/mines';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { BoardProps, Json } from '../types.ts';
import { arr, obj, refusalDetail, str } from '../util.ts';
import { CURSORS, CrossIcon, FigureIcon, FlagIcon, InfoIcon, MineIcon, PickIcon, VoidIcon } from './icons.tsx';
import {
  type Cell,
  type CellKind,
  type Intent,
  type MinesView,
  cellKind,
  cellLabel,
  glyphAt,
  inRing,
  lastBatchLines,
  preview,
  primaryIntent,
  readView,
  refusalWords,
  roundEndWords,
  secondaryIntent,
} from './model.ts';
import './mines.css';

type Tone = 'refused' | 'voided' | 'info' | 'done';
type Note = { id: number; tone: Tone; text: string; input: number };
type Anim = { gen: number; cells: Map<number, { ch: 'initial' | 'chain' | 'dig'; delay: number }> };

// D1 duty ③: the chord hint shows once per run (match), not once per browser; the page's path names
// the match, so a new run shows it again and a reload of the same run does not
const hintKey = () => `arbiter.mines.chord-hint-seen:${globalThis.location?.pathname ?? ''}`;
const STAGGER = { initial: 28, chain: 34 };
/** How long a finger rests on a cell to flag it (touch screens have no right button). */
const LONG_PRESS_MS = 450;
const MAX_DELAY = 900;

function hintSeen(): boolean {
  try {
    return globalThis.localStorage?.getItem(hintKey()) === '1';
  } catch {
    return false;
  }
}

function markHintSeen(): void {
  try {
    globalThis.localStorage?.setItem(hintKey(), '1');
  } catch {
    // private mode: the hint simply shows again next time
  }
}

/** Initial light-up when the board is first drawn without events: open cells by distance from the figure. */
function lightUp(v: MinesView, gen: number): Anim {
  const cells: Anim['cells'] = new Map();
  const [px, py] = v.pos ?? [0, 0];
  for (let y = 0; y < v.h; y++)
    for (let x = 0; x < v.w; x++) {
      const k = cellKind(glyphAt(v, x, y));
      if (k === 'floor' || k === 'digit' || k === 'fog' || k === 'mine') {
        const d = Math.max(Math.abs(x - px), Math.abs(y - py));
        cells.set(y * v.w + x, { ch: 'initial', delay: Math.min(d * 70, MAX_DELAY) });
      }
    }
  return { gen, cells };
}

/** Reveal events in their canonical order drive the channel animations (cell and channel only). */
function fromEvents(v: MinesView, events: Json[], gen: number): Anim | null {
  const reveals = events.map(obj).filter((e) => e !== null && str(e.type) === 'cell_revealed');
  if (reveals.length === 0) return null;
  // a clearing batch also carries the next board's initial expansion: only that one is on screen
  const initial = reveals.filter((e) => str(e?.channel) === 'initial');
  const shown = initial.length > 0 ? initial : reveals;
  const cells: Anim['cells'] = new Map();
  let order = 0;
  for (const e of shown) {
    const c = arr(e?.cell);
    const x = c[0];
    const y = c[1];
    if (typeof x !== 'number' || typeof y !== 'number' || x < 0 || y < 0 || x >= v.w || y >= v.h) continue;
    const ch = str(e?.channel) === 'initial' ? 'initial' : str(e?.channel) === 'chain' ? 'chain' : 'dig';
    const delay = ch === 'dig' ? 0 : Math.min(order * STAGGER[ch], MAX_DELAY);
    cells.set(y * v.w + x, { ch, delay });
    order++;
  }
  return { gen, cells };
}

/** Cells opened between two views (when the events did not come with the frame). */
function fromDiff(prev: MinesView, v: MinesView, gen: number): Anim | null {
  if (prev.w !== v.w || prev.h !== v.h || prev.board !== v.board) return null;
  const opened: number[] = [];
  for (let y = 0; y < v.h; y++)
    for (let x = 0; x < v.w; x++) {
      const was = cellKind(glyphAt(prev, x, y));
      const now = cellKind(glyphAt(v, x, y));
      const wasClosed = was === 'closed' || was === 'closed-fog' || was === 'flag';
      const nowOpen = now === 'floor' || now === 'digit' || now === 'fog' || now === 'mine';
      if (wasClosed && nowOpen) opened.push(y * v.w + x);
    }
  if (opened.length === 0) return null;
  const cells: Anim['cells'] = new Map();
  for (let n = 0; n < opened.length; n++)
    cells.set(
      opened[n],
      opened.length === 1 ? { ch: 'dig', delay: 0 } : { ch: 'chain', delay: Math.min(n * 34, MAX_DELAY) },
    );
  return { gen, cells };
}

const KIND_CLASS: Record<CellKind, string> = {
  floor: 'mn-k-floor',
  digit: 'mn-k-digit',
  fog: 'mn-k-fog',
  mine: 'mn-k-mine',
  closed: 'mn-k-closed',
  'closed-fog': 'mn-k-closedfog',
  flag: 'mn-k-flag',
};

function ToneIcon({ tone }: { tone: Tone }) {
  if (tone === 'refused') return <CrossIcon cls="mn-note-icon" />;
  if (tone === 'voided') return <VoidIcon cls="mn-note-icon" />;
  return <InfoIcon cls="mn-note-icon" />;
}

const TONE_WORD: Record<Tone, string> = { refused: 'Refused', voided: 'Voided', info: 'Note', done: 'Done' };

function Meter(props: { label: string; value: number; max: number; text: string; cls: string }) {
  const pips = Math.min(props.max, 24);
  return (
    <div class={`mn-meter ${props.cls}`}>
      <span class="mn-meter-label">{props.label}</span>
      <span class="mn-pips" aria-hidden="true">
        {Array.from({ length: pips }, (_, i) => (
          <span key={i} class={i < props.value ? 'mn-pip mn-pip-on' : 'mn-pip'} />
        ))}
      </span>
      <strong class="mn-meter-value">{props.text}</strong>
    </div>
  );
}

export function MinesBoard(props: BoardProps<MinesView>) {
  const v = useMemo(() => readView(props.view), [props.view]);
  const [hover, setHover] = useState<number | null>(null);
  const [focusIdx, setFocusIdx] = useState<number | null>(null);
  const [notes, setNotes] = useState<Note[]>([]);
  const [busy, setBusy] = useState<Intent | null>(null);
  const [queuedStop, setQueuedStop] = useState(false);
  const [anim, setAnim] = useState<Anim>({ gen: 0, cells: new Map() });
  const [flash, setFlash] = useState<{ idx: number; gen: number } | null>(null);
  const [trail, setTrail] = useState<{ path: Cell[]; gen: number } | null>(null);
  const [hint, setHint] = useState(() => !hintSeen());
  const lastIntents = useRef<Intent[] | null>(null);
  // touch has no right button: a finger held still on a cell for LONG_PRESS_MS flags it (the cell's
  // secondary intent), and the click that ends that press is not also a dig or a move
  const press = useRef<{ timer: ReturnType<typeof setTimeout> | null; fired: boolean; pointer: number }>({
    timer: null,
    fired: false,
    pointer: -1,
  });
  const endPress = () => {
    if (press.current.timer) clearTimeout(press.current.timer);
    press.current.timer = null;
  };
  // only the pressing finger ends its press (a mouse's hover updates, as the layout moves, do not)
  const endPressBy = (e: PointerEvent) => {
    if (e.pointerId === press.current.pointer) endPress();
  };
  const prevView = useRef<MinesView | null>(null);
  const noteId = useRef(0);
  const genRef = useRef(0);
  const queuedStopRef = useRef(false);
  const busyRef = useRef<Intent | null>(null);
  /** Counts the player's inputs: the status shows every message since the latest one. */
  const inputRef = useRef(0);
  const gridRef = useRef<HTMLDivElement>(null);

  const say = (tone: Tone, text: string) => {
    noteId.current++;
    const id = noteId.current;
    const input = inputRef.current;
    setNotes((ns) => [{ id, tone, text, input }, ...ns].slice(0, 8));
  };

  // the three channels: events of the change if they came, else the difference of the views
  useEffect(() => {
    if (v === null) return;
    const prev = prevView.current;
    prevView.current = v;
    genRef.current++;
    const gen = genRef.current;
    const next = fromEvents(v, props.events, gen) ?? (prev === null ? lightUp(v, gen) : fromDiff(prev, v, gen));
    if (next !== null) setAnim(next);
    for (const e of props.events.map(obj)) {
      if (e !== null && str(e.type) === 'round_end')
        say(str(e.path_tag) === 'cleared' ? 'done' : 'info', roundEndWords(e, v));
    }
  }, [props.view, props.events]);

  useEffect(() => {
    if (v !== null && focusIdx === null && v.pos !== null) setFocusIdx(v.pos[1] * v.w + v.pos[0]);
  }, [v, focusIdx]);

  if (v === null) return <p class="mn-error">This is not a mines view.</p>;
  const active = !props.readOnly && props.outcome === null && v.ended === null;

  const send = async (intent: Intent): Promise<void> => {
    if (!active) return;
    inputRef.current++;
    const inFlight = busyRef.current;
    if (inFlight !== null) {
      if (intent.type === 'stop') {
        // a stop ends the frame: it is settled right after the intent in flight, unless that one ends the round
        queuedStopRef.current = true;
        setQueuedStop(true);
        say('info', `stop queued: it follows ${intentWords(inFlight)}`);
      } else say('refused', `${intentWords(intent)} not sent: ${intentWords(inFlight)} is still being settled`);
      return;
    }
    busyRef.current = intent;
    setBusy(intent);
    lastIntents.current = [intent];
    const path = intent.type === 'move' ? preview(v, intent.cell[0], intent.cell[1]).path : [];
    const r = await props.act({ type: 'batch', intents: [intent] });
    busyRef.current = null;
    setBusy(null);
    if (!r.ok) {
      say('refused', refusalWords(intent, r.code, r.reason, refusalDetail(r), v.prices));
      if (intent.type !== 'stop') {
        genRef.current++;
        setFlash({ idx: intent.cell[1] * v.w + intent.cell[0], gen: genRef.current });
      }
    } else if (intent.type === 'move' && path.length > 1) {
      genRef.current++;
      setTrail({ path, gen: genRef.current });
      if (hint) dismissHint();
    }
    if (queuedStopRef.current) {
      queuedStopRef.current = false;
      setQueuedStop(false);
      const end = r.ok ? r.events.map(obj).find((e) => e !== null && str(e.type) === 'round_end') : undefined;
      if (end) {
        const why =
          str(end.path_tag) === 'cleared'
            ? 'the board was cleared first, so no AP was banked'
            : 'the round had already ended';
        say('voided', `stop voided: ${why}`);
      } else if (intent.type !== 'stop') void send({ type: 'stop' });
    }
  };

  const dismissHint = () => {
    markHintSeen();
    setHint(false);
  };

  const cellAt = (el: EventTarget | null): number | null => {
    const b = (el as HTMLElement | null)?.closest?.('[data-idx]');
    return b ? Number(b.getAttribute('data-idx')) : null;
  };

  const onKey = (e: KeyboardEvent) => {
    const idx = cellAt(e.target);
    if (idx === null) return;
    const x = idx % v.w;
    const y = (idx - x) / v.w;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    };
    const d = moves[e.key];
    if (d) {
      e.preventDefault();
      const nx = Math.max(0, Math.min(v.w - 1, x + d[0]));
      const ny = Math.max(0, Math.min(v.h - 1, y + d[1]));
      const ni = ny * v.w + nx;
      setFocusIdx(ni);
      gridRef.current?.querySelector<HTMLElement>(`[data-idx="${ni}"]`)?.focus();
    } else if (e.key === 'f' || e.key === 'F') {
      e.preventDefault();
      void send(secondaryIntent(v, x, y));
    } else if (e.key === 's' || e.key === 'S') {
      e.preventDefault();
      void send({ type: 'stop' });
    }
  };

  const pv = hover !== null && active ? preview(v, hover % v.w, (hover - (hover % v.w)) / v.w) : null;
  const onPath = new Set((pv?.look === 'move' ? pv.path : []).map(([x, y]) => y * v.w + x));
  const figIdx = v.pos !== null ? v.pos[1] * v.w + v.pos[0] : -1;
  const batchLines = lastBatchLines(v, lastIntents.current);
  const stopCost = v.ap;
  const refreshCost = v.prices.rap_refresh_cost ?? 1;
  const outcomeText = props.outcome !== null ? str(obj(props.outcome)?.reason, 'the run is over') : null;

  const cells = [];
  for (let y = 0; y < v.h; y++)
    for (let x = 0; x < v.w; x++) {
      const idx = y * v.w + x;
      const g = glyphAt(v, x, y);
      const k = cellKind(g);
      const a = anim.cells.get(idx);
      const look = hover === idx && pv !== null ? pv.look : undefined;
      const ring = inRing(v, x, y);
      cells.push(
        <button
          key={idx}
          type="button"
          class={`mn-cell ${KIND_CLASS[k]}${ring ? ' mn-ring' : ''}${idx === figIdx ? ' mn-here' : ''}${onPath.has(idx) ? ' mn-onpath' : ''}`}
          data-idx={idx}
          data-x={x}
          data-y={y}
          data-state={k}
          data-ring={ring ? 'yes' : undefined}
          data-look={look}
          data-path={onPath.has(idx) ? 'yes' : undefined}
          aria-label={cellLabel(v, x, y)}
          tabIndex={idx === (focusIdx ?? figIdx) ? 0 : -1}
          onClick={() => {
            if (press.current.fired) {
              press.current.fired = false;
              return;
            }
            void send(primaryIntent(v, x, y));
          }}
          onContextMenu={(e) => {
            e.preventDefault();
            // Chrome on Android also says contextmenu for a long press: answered once, whichever comes first
            if (press.current.fired) return;
            const touching = press.current.timer !== null;
            endPress();
            if (touching) press.current.fired = true;
            void send(secondaryIntent(v, x, y));
          }}
          onPointerDown={(e) => {
            endPress();
            press.current.fired = false;
            if (e.pointerType !== 'touch') return;
            press.current.pointer = e.pointerId;
            press.current.timer = setTimeout(() => {
              press.current.timer = null;
              press.current.fired = true;
              void send(secondaryIntent(v, x, y));
            }, LONG_PRESS_MS);
          }}
          onPointerUp={endPressBy}
          onPointerCancel={endPressBy}
          onPointerLeave={endPressBy}
          onPointerEnter={() => setHover(idx)}
          onFocus={() => {
            setHover(idx);
            setFocusIdx(idx);
          }}
        >
          <span
            key={a ? `a${anim.gen}` : 'still'}
            class={`mn-face${a ? ` mn-a-${a.ch}` : ''}`}
            style={a ? { animationDelay: `${a.delay}ms` } : undefined}
          >
            {(k === 'fog' || k === 'closed-fog') && <span class="mn-tex" />}
            {k === 'flag' && <FlagIcon cls="mn-flag" />}
            {k === 'mine' && <MineIcon cls="mn-mine" />}
            {idx === figIdx && (
              <span class="mn-fig">
                <FigureIcon cls="mn-fig-icon" />
              </span>
            )}
          </span>
          {/* the digit is not inside the face: an opening face is a layer of its own (its animation),
              and a digit inside it would sink under the move path; it plays the same animation instead */}
          {k === 'digit' && (
            <span
              key={a ? `d${anim.gen}` : 'still'}
              class={`mn-digit mn-d${g}${a ? ` mn-a-${a.ch}` : ''}`}
              style={a ? { animationDelay: `${a.delay}ms` } : undefined}
            >
              {g}
            </span>
          )}
          {ring && k !== 'flag' && <PickIcon cls="mn-ring-mark" />}
          {flash?.idx === idx && <CrossIcon key={`f${flash.gen}`} cls="mn-refused-mark" />}
        </button>,
      );
    }

  // what happened since the latest input, worst first (a refusal or a voided intent never hides behind news)
  const rank: Record<Tone, number> = { refused: 0, voided: 1, done: 2, info: 3 };
  // only the messages of the player's latest input are current: an accepted input with nothing to
  // say clears the last refusal or round-over line (they move to the earlier messages)
  const current = notes.filter((n) => n.input === inputRef.current).sort((a, b) => rank[a.tone] - rank[b.tone]);
  const older = notes.filter((n) => !current.includes(n));
  const latest = current[0];
  return (
    <div
      class="mn-board"
      style={{
        '--mn-w': String(v.w),
        '--mn-cur-move': CURSORS.move,
        '--mn-cur-dig': CURSORS.dig,
        '--mn-cur-flag': CURSORS.flag,
      }}
    >
      <section class="mn-meters" aria-label="Round and action points">
        <Meter
          label="Action points"
          cls="mn-ap"
          value={v.ap}
          max={v.prices.ap_per_round ?? Math.max(v.ap, 1)}
          text={`${v.ap} / ${v.prices.ap_per_round ?? v.ap}`}
        />
        <Meter label="Banked AP (RAP)" cls="mn-rap" value={v.rap} max={Math.max(v.rap, 8)} text={String(v.rap)} />
        <p class="mn-facts">
          <span>
            Round <strong>{v.round}</strong> of {v.max_rounds}
          </span>
          <span>
            Safe cells left <strong>{v.remaining_safe}</strong>
          </span>
          <span>
            Boards <strong>{v.boards_cleared}</strong> / {v.boards_target}
          </span>
          <span>
            Phase <strong>{v.phase}</strong>
          </span>
        </p>
      </section>

      {hint && active && (
        <aside class="mn-hint" aria-label="Tip">
          <InfoIcon cls="mn-note-icon" />
          <span>
            Clicking a number <strong>moves your figure</strong> there (no chord: numbers never dig around them). Dig
            and flag reach the 8 cells around you, marked with a pick.
          </span>
          <button type="button" class="mn-hint-close" onClick={dismissHint}>
            Got it
          </button>
        </aside>
      )}

      <div class="mn-scroll">
        {/* biome-ignore lint/a11y/useSemanticElements: a composite widget with a roving focus, not a form fieldset */}
        <div
          class="mn-grid"
          ref={gridRef}
          role="group"
          aria-label={`Board, ${v.w} by ${v.h}. Arrow keys move, Enter moves or digs, F flags, S stops.`}
          onKeyDown={onKey}
          onPointerLeave={() => setHover(null)}
        >
          {cells}
          {pv?.look === 'move' && pv.path.length > 1 && <PathLine path={pv.path} w={v.w} h={v.h} cls="mn-path" />}
          {trail !== null && <PathLine key={`t${trail.gen}`} path={trail.path} w={v.w} h={v.h} cls="mn-trail" />}
        </div>
      </div>

      <p class="mn-intent" aria-hidden="true" data-look={pv?.look ?? 'none'}>
        {pv
          ? pv.words
          : active
            ? 'Point at a cell: the cursor and this line say what a click does.'
            : props.outcome !== null || v.ended !== null
              ? 'The run is over.'
              : 'Watching: the board answers no clicks.'}
      </p>

      {!props.readOnly && (
        <div class="mn-actions">
          <button type="button" class="mn-stop" disabled={!active} onClick={() => void send({ type: 'stop' })}>
            Stop round{queuedStop ? ' (queued)' : ''} · bank {stopCost} AP
          </button>
          <button
            type="button"
            class="mn-refresh"
            disabled={!active || v.rap < refreshCost}
            onClick={async () => {
              const r = await props.act({ type: 'refresh' });
              if (!r.ok) say('refused', `new board refused: ${r.reason}`);
            }}
          >
            New board · costs {refreshCost} banked AP
          </button>
          <span class="mn-busy" aria-hidden="true">
            {busy ? `settling: ${intentWords(busy)}…` : ''}
          </span>
        </div>
      )}

      <div class={`mn-status mn-tone-${latest?.tone ?? 'info'}`} role="status" aria-live="polite">
        {current.length ? (
          <ul class="mn-notes">
            {current.map((n) => (
              <li key={n.id} class={`mn-tone-${n.tone}`}>
                <ToneIcon tone={n.tone} />
                <strong>{TONE_WORD[n.tone]}:</strong> <span class="mn-status-text">{n.text}</span>
              </li>
            ))}
          </ul>
        ) : (
          <span class="mn-status-text mn-quiet">{outcomeText ?? 'Your move.'}</span>
        )}
      </div>
      {batchLines.length > 0 && (
        <ul class="mn-batch" aria-label="Last batch">
          {batchLines.map((l, i) => (
            <li key={i} class={l.includes(' voided:') ? 'mn-tone-voided' : 'mn-tone-refused'}>
              {l.includes(' voided:') ? <VoidIcon cls="mn-note-icon" /> : <CrossIcon cls="mn-note-icon" />}
              <strong>{l.includes(' voided:') ? 'Voided' : 'Refused'}:</strong> {l}
            </li>
          ))}
        </ul>
      )}
      {outcomeText !== null && (
        <p class="mn-outcome" role="note">
          <strong>Run over:</strong> {outcomeText}
        </p>
      )}
      {older.length > 0 && (
        <details class="mn-history">
          <summary>Earlier messages ({older.length})</summary>
          <ul>
            {older.map((n) => (
              <li key={n.id} class={`mn-tone-${n.tone}`}>
                <strong>{TONE_WORD[n.tone]}:</strong> {n.text}
              </li>
            ))}
          </ul>
        </details>
      )}
      <Legend />
    </div>
  );
}

function PathLine(props: { path: Cell[]; w: number; h: number; cls: string }) {
  const pts = props.path.map(([x, y]) => `${x + 0.5},${y + 0.5}`).join(' ');
  return (
    <svg
      class={props.cls}
      viewBox={`0 0 ${props.w} ${props.h}`}
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
    >
      <polyline points={pts} fill="none" vector-effect="non-scaling-stroke" />
    </svg>
  );
}

function Legend() {
  const items: [CellKind | 'here' | 'ring', string][] = [
    ['floor', 'open, nothing around'],
    ['digit', 'open, mines around'],
    ['fog', 'open fog (number hidden)'],
    ['closed', 'closed'],
    ['closed-fog', 'closed fog'],
    ['flag', 'flag'],
    ['mine', 'dug mine: walkable'],
    ['ring', 'in reach: dig or flag'],
    ['here', 'you'],
  ];
  return (
    <details class="mn-legend">
      <summary>Legend and controls</summary>
      <ul>
        {items.map(([k, text]) => (
          <li key={k}>
            <span
              class={`mn-cell mn-mini ${k === 'here' ? 'mn-k-floor mn-here' : k === 'ring' ? 'mn-k-closed mn-ring' : KIND_CLASS[k]}`}
              aria-hidden="true"
            >
              <span class="mn-face">
                {(k === 'fog' || k === 'closed-fog') && <span class="mn-tex" />}
                {k === 'flag' && <FlagIcon cls="mn-flag" />}
                {k === 'mine' && <MineIcon cls="mn-mine" />}
                {k === 'here' && (
                  <span class="mn-fig">
                    <FigureIcon cls="mn-fig-icon" />
                  </span>
                )}
                {k === 'digit' && <span class="mn-digit mn-d2">2</span>}
              </span>
              {k === 'ring' && <PickIcon cls="mn-ring-mark" />}
            </span>
            {text}
          </li>
        ))}
      </ul>
      <p>
        Left click or Enter: move on an open cell, dig a closed cell next to you. Right click or F: place or pull a
        flag. S or the Stop button: end the round and bank the AP left. Arrow keys walk the focus.
      </p>
    </details>
  );
}
