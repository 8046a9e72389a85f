// The GROUND board: the seat's view of the table (Problems, Stress with the gate, Freedom, DARVO,
// Focus/Blame, Protection, relations as a graph) and the seat's pending decision as a prompt built
// from its menu. Others' choices appear only once the view holds them (after Reveal); during Select
// the view says only whether each seat has chosen, and so does the board.

import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useNotice } from '../notice.ts';
import type { BoardProps, Json } from '../types.ts';
import type { GroundView } from '@arbiter/engine/rulesets/ground';
import { arr, bool, type JsonObj, num, obj, str } from '../util.ts';
import './ground.css';

const SUITS = ['Clarify', 'Repair', 'Boundary', 'Change'] as const;
const ACTIONS = ['INVESTIGATE', 'SOLVE', 'SUPPORT', 'ATTACK', 'GROUND'] as const;
const STAGES = ['DENY', 'ATTACK', 'REVERSE'] as const;
const GATE = 4; // GR-R03: from Stress 4 only ATTACK or GROUND, unless Freedom is spent
const MAX_STRESS = 5;
const SLOTS = 2; // GR-L01

const ACTION_WORDS: Record<string, string> = {
  INVESTIGATE: 'reveal a hidden Problem and draw',
  SOLVE: 'claim a face-up Problem with a matching Solution',
  SUPPORT: 'lower another player’s Stress',
  ATTACK: 'raise another player’s Stress',
  GROUND: 'steady yourself (mode chosen after Reveal)',
};

const OPTION_WORDS: Record<string, string> = {
  restore: 'restore a Denied Problem',
  cancel: 'cancel an Attack on you by',
  protect: 'protect a face-up Problem from Deny',
  remove_blame: 'remove a Blame token placed by',
  break: 'break your relation with',
  reject_reverse: 'reject the Reverse of',
};

const SEAT_OPTIONS = new Set(['cancel', 'remove_blame', 'break', 'reject_reverse']);

function SuitIcon({ suit }: { suit: string }) {
  const shapes: Record<string, JSX.Element> = {
    Clarify: <path d="M8 1.5 14.5 8 8 14.5 1.5 8Z" />,
    Repair: <path d="M6 1.5h4v4.5h4.5v4H10v4.5H6V10H1.5V6H6Z" />,
    Boundary: <rect x="2" y="2" width="12" height="12" rx="1" fill="none" stroke="currentColor" stroke-width="2.4" />,
    Change: <path d="M8 2a6 6 0 1 1-5.6 3.8L1 5.2 3 1.6l3.8 1.3-1.6.8A4 4 0 1 0 8 4Z" />,
  };
  return (
    <svg class={`gr-suit gr-suit-${suit}`} viewBox="0 0 16 16" aria-hidden="true" focusable="false" fill="currentColor">
      {shapes[suit] ?? <circle cx="8" cy="8" r="5" />}
    </svg>
  );
}

function seatName(seat: number, me: number | null): string {
  return seat === me ? `you (seat ${seat})` : `seat ${seat}`;
}

type Player = JsonObj;

function StressTrack({ p }: { p: Player }) {
  const stress = num(p.stress);
  return (
    <div
      class="gr-track"
      role="img"
      aria-label={`Stress ${stress} of ${MAX_STRESS}${stress >= GATE ? ', past the gate' : ''}`}
    >
      {Array.from({ length: MAX_STRESS + 1 }, (_, i) => (
        <span
          key={i}
          class={`gr-box${i >= GATE ? ' gr-gated' : ''}${i === stress ? ' gr-here' : ''}${i === GATE ? ' gr-gate-edge' : ''}`}
        >
          {i}
        </span>
      ))}
    </div>
  );
}

function DarvoTrack({ p }: { p: Player }) {
  const m = str(p.darvo, 'OFF');
  if (m === 'OFF') return <span class="gr-darvo gr-darvo-off">DARVO off</span>;
  return (
    <span
      class="gr-darvo"
      role="img"
      aria-label={`DARVO stage ${m}${bool(p.darvoEnding) ? ', ending after this stage' : ''}`}
    >
      DARVO{' '}
      {STAGES.map((s) => (
        <span key={s} class={`gr-stage${s === m ? ' gr-stage-on' : ''}`} aria-hidden="true">
          {s === m ? `▶${s}` : s}
        </span>
      ))}
      {bool(p.darvoEnding) ? <em> (ending)</em> : null}
    </span>
  );
}

function tokenWords(p: Player, me: number | null): string {
  const t = obj(p.token);
  const at = num(t?.at, -1);
  if (at < 0) return 'Focus token unplaced';
  return str(t?.side) === 'blame' ? `Blame in front of ${seatName(at, me)}` : `Focus beside ${seatName(at, me)}`;
}

function choiceWords(c: JsonObj | null): string {
  if (c === null) return '';
  const a = str(c.action);
  const t = c.target;
  const tgt =
    typeof t === 'number' && t >= 0 ? (a === 'SUPPORT' || a === 'ATTACK' ? ` seat ${t}` : ` Problem ${t}`) : '';
  return `${a}${tgt}${bool(c.freedom) ? ' (Freedom spent)' : ''}`;
}

function groundWords(g: JsonObj | null): string {
  if (g === null) return '';
  const mode = str(g.mode);
  const opt = str(g.option);
  if (mode === 'GR' || opt === '') return `GROUND—${mode}`;
  const t = num(g.target, -1);
  return `GROUND—${mode} ${opt.replace(/_/g, ' ')} ${SEAT_OPTIONS.has(opt) ? `seat ${t}` : `Problem ${t}`}`;
}

/** Describe one menu element for a button (plain words; the menu is the authority on what is legal). */
function menuWords(a: JsonObj, view: JsonObj): string {
  const problem = (slot: number) => {
    const p = arr(view.problems)
      .map(obj)
      .find((x) => num(x?.slot, -1) === slot);
    const card = obj(p?.card);
    return card
      ? `Problem ${slot}: ${str(card.name)} (${str(card.suit)} ${num(card.value)})`
      : `Problem ${slot} (face down)`;
  };
  switch (str(a.type)) {
    case 'ground': {
      const opt = str(a.option);
      if (str(a.mode) === 'GR') return 'GR — Ground & Restate: −2 Stress, Freedom ready';
      const t = num(a.target, -1);
      return `${str(a.mode)} — ${OPTION_WORDS[opt] ?? opt} ${SEAT_OPTIONS.has(opt) ? `seat ${t}` : problem(t)}`;
    }
    case 'bond':
      return bool(a.accept) ? 'Accept the Bond' : 'Decline';
    case 'rivalry':
      return str(a.choice) === 'flip' ? 'Flip the Rivalry to a Bond' : 'Break the Rivalry';
    case 'deny':
      return `Deny ${problem(num(a.problem))}`;
    case 'darvo_attack':
      return `Attack seat ${num(a.target)}`;
    default:
      return JSON.stringify(a);
  }
}

function SelectPrompt({ menu, view, act, busy }: PromptProps) {
  const opts = menu.map(obj).filter((a): a is JsonObj => a !== null && str(a.type) === 'select');
  const [action, setAction] = useState<string>('');
  const [target, setTarget] = useState<string>('');
  const [freedom, setFreedom] = useState(false);
  const canFree = opts.some((a) => bool(a.freedom));
  const plain = new Set(opts.filter((a) => !bool(a.freedom)).map((a) => str(a.action)));
  const offered = new Set(opts.filter((a) => bool(a.freedom) === freedom).map((a) => str(a.action)));
  const targets = opts.filter((a) => str(a.action) === action && bool(a.freedom) === freedom);
  const chosen = targets.find((a) => String(a.target) === target) ?? (targets.length === 1 ? targets[0] : undefined);
  const pickedAction = offered.has(action) ? action : '';
  return (
    <form
      class="gr-prompt"
      aria-label="Select your Action"
      onSubmit={(e) => {
        e.preventDefault();
        if (chosen) void act(chosen);
      }}
    >
      <h3>Select an Action (face down)</h3>
      <fieldset class="gr-actions">
        <legend>Action</legend>
        {ACTIONS.map((a) => {
          const gated = !plain.has(a) && opts.some((o) => str(o.action) === a && bool(o.freedom));
          return (
            <label key={a} class={`gr-action${offered.has(a) ? '' : ' gr-off'}`}>
              <input
                type="radio"
                name="gr-action"
                value={a}
                checked={pickedAction === a}
                disabled={!offered.has(a)}
                onChange={() => {
                  setAction(a);
                  setTarget('');
                }}
              />
              <strong>{a}</strong>
              <span class="gr-sub">
                {ACTION_WORDS[a]}
                {gated ? ' — needs Freedom (Stress gate)' : !offered.has(a) && !gated ? ' — nothing to do now' : ''}
              </span>
            </label>
          );
        })}
      </fieldset>
      {canFree ? (
        <label class="gr-freedom">
          <input
            type="checkbox"
            checked={freedom}
            onChange={(e) => {
              setFreedom((e.target as HTMLInputElement).checked);
              setTarget('');
            }}
          />{' '}
          Spend my Freedom token (READY → SPENT) to pass the Stress gate
        </label>
      ) : null}
      {pickedAction && targets.length > 1 ? (
        <fieldset class="gr-targets">
          <legend>Target</legend>
          {targets.map((a) => {
            const t = num(a.target, -1);
            const label =
              pickedAction === 'SUPPORT' || pickedAction === 'ATTACK'
                ? `seat ${t}`
                : menuWords({ type: 'deny', problem: t }, view).replace(/^Deny /, '');
            return (
              <label key={String(t)}>
                <input
                  type="radio"
                  name="gr-target"
                  value={String(t)}
                  checked={target === String(t)}
                  onChange={() => setTarget(String(t))}
                />{' '}
                {label}
              </label>
            );
          })}
        </fieldset>
      ) : null}
      <button type="submit" class="gr-primary" disabled={!chosen || busy}>
        {chosen ? `Commit: ${choiceWords(chosen)}` : 'Choose an Action and a target'}
      </button>
    </form>
  );
}

type PromptProps = { menu: Json[]; view: JsonObj; act: (a: Json) => Promise<void>; busy: boolean; me: number | null };

function ChoicePrompt({ menu, view, act, busy, me }: PromptProps) {
  const opts = menu.map(obj).filter((a): a is JsonObj => a !== null);
  const kind = str(opts[0]?.type);
  const d = obj(view.decision);
  const from = num(d?.from, -1);
  const heads: Record<string, string> = {
    ground: 'You revealed GROUND: choose its mode and target',
    bond: `${from >= 0 ? seatName(from, me) : 'A player'} supported you: accept a Bond?`,
    rivalry: `${from >= 0 ? seatName(from, me) : 'A player'} supported you through your Rivalry: flip it or break it`,
    deny: 'Your DARVO DENY stage: choose a face-up Problem to deny',
    darvo_attack: 'Your DARVO ATTACK stage: choose who takes the extra Attack',
  };
  return (
    <section class="gr-prompt" aria-label="Your decision">
      <h3>{heads[kind] ?? 'Your decision'}</h3>
      <div class="gr-choices">
        {opts.map((a, i) => (
          <button key={i} type="button" class="gr-choice" disabled={busy} onClick={() => void act(a)}>
            {menuWords(a, view)}
          </button>
        ))}
      </div>
    </section>
  );
}

function ProblemCard({ p, me }: { p: JsonObj; me: number | null }) {
  const slot = num(p.slot);
  const card = obj(p.card);
  const up = bool(p.faceUp);
  const denied = bool(p.denied);
  const by = num(p.claimedBy, -1);
  const state = denied ? 'denied' : by >= 0 ? 'claimed' : up ? 'up' : 'down';
  const words =
    card === null
      ? `Problem ${slot}: face down, never seen${denied ? ', Denied' : ''}`
      : `Problem ${slot}: ${str(card.name)}, ${str(card.suit)}, worth ${num(card.value)}, ${
          denied ? 'face down and Denied' : up ? 'face up' : 'face down'
        }${by >= 0 ? `, claimed by ${seatName(by, me)}` : ''}`;
  return (
    <li class={`gr-problem gr-p-${state}`} data-slot={slot} data-state={state} aria-label={words}>
      <span class="gr-slot" aria-hidden="true">
        #{slot}
        {num(p.priority, -1) === 0 ? ' · surface' : ''}
      </span>
      {card === null ? (
        <span class="gr-back" aria-hidden="true">
          ?
        </span>
      ) : (
        <span class="gr-face" aria-hidden="true">
          <SuitIcon suit={str(card.suit)} />
          <strong>{str(card.name)}</strong>
          <span>
            {str(card.suit)} · {num(card.value)} pt
          </span>
        </span>
      )}
      {denied ? (
        <span class="gr-stamp" aria-hidden="true">
          DENIED
        </span>
      ) : null}
      {by >= 0 ? (
        <span class="gr-ribbon" aria-hidden="true">
          ✓ {seatName(by, me)}
        </span>
      ) : null}
    </li>
  );
}

function RelationGraph({ n, relations, me }: { n: number; relations: JsonObj[]; me: number | null }) {
  const R = 38;
  const pos = (i: number): [number, number] => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(n, 1);
    return [50 + R * Math.cos(a), 50 + R * Math.sin(a)];
  };
  const used = new Array(n).fill(0);
  for (const r of relations) {
    used[num(r.a)]++;
    used[num(r.b)]++;
  }
  const words =
    relations.length === 0
      ? 'No relations yet.'
      : `${relations.map((r) => `${str(r.kind) === 'bond' ? 'Bond' : 'Rivalry'} between seat ${num(r.a)} and seat ${num(r.b)}`).join('; ')}.`;
  return (
    <figure class="gr-graph">
      <svg viewBox="0 0 100 100" role="img" aria-label={`Relations: ${words}`}>
        {relations.map((r, i) => {
          const [x1, y1] = pos(num(r.a));
          const [x2, y2] = pos(num(r.b));
          const bond = str(r.kind) === 'bond';
          return (
            <g key={i} class={bond ? 'gr-bond' : 'gr-rivalry'}>
              <line x1={x1} y1={y1} x2={x2} y2={y2} />
              {bond ? <line class="gr-bond-inner" x1={x1} y1={y1} x2={x2} y2={y2} /> : null}
              <text x={(x1 + x2) / 2} y={(y1 + y2) / 2 - 1.5}>
                {bond ? 'Bond' : 'Rivalry'}
              </text>
            </g>
          );
        })}
        {Array.from({ length: n }, (_, i) => {
          const [x, y] = pos(i);
          return (
            <g key={i} class={`gr-node${i === me ? ' gr-me' : ''}`}>
              <circle cx={x} cy={y} r="7" />
              <text x={x} y={y + 1.6}>
                {i}
              </text>
              {Array.from({ length: SLOTS }, (_, k) => (
                <circle
                  key={k}
                  class={k < used[i] ? 'gr-slot-used' : 'gr-slot-free'}
                  cx={x - 2.5 + k * 5}
                  cy={y + 10}
                  r="1.7"
                />
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption>
        {words} Double line: Bond; dashed line: Rivalry. Dots under a seat: its 2 relation slots (filled = used).
      </figcaption>
    </figure>
  );
}

function PlayerCard({
  p,
  me,
  phase,
  lead,
  flip,
}: {
  p: Player;
  me: number | null;
  phase: string;
  lead: number;
  flip: boolean;
}) {
  const seat = num(p.seat);
  const choice = obj(p.choice);
  const ground = obj(p.ground);
  const prot = num(p.protection);
  const claimed = arr(p.claimed);
  return (
    <li class={`gr-player${seat === me ? ' gr-mine' : ''}`} aria-label={`Seat ${seat}${seat === me ? ' (you)' : ''}`}>
      <h4>
        Seat {seat}
        {seat === me ? ' (you)' : ''}
        {seat === lead ? <span class="gr-lead"> ◆ Lead</span> : null}
      </h4>
      <StressTrack p={p} />
      <p class="gr-line">
        <span class={`gr-freedom-tag gr-${str(p.freedom).toLowerCase()}`}>
          {str(p.freedom) === 'READY' ? '● Freedom READY' : '○ Freedom SPENT'}
        </span>{' '}
        <DarvoTrack p={p} />
      </p>
      <p class="gr-line">
        {tokenWords(p, me)}
        {prot > 0 ? (
          <span class="gr-prot">
            {' '}
            · {'⛉'.repeat(Math.min(prot, 5))} {prot} Protection
          </span>
        ) : null}
      </p>
      <p class="gr-line">
        Hand {num(p.handSize)} · claimed {claimed.length ? claimed.map((c) => `#${String(c)}`).join(', ') : 'none'}
      </p>
      {phase === 'select' ? (
        <p
          class={`gr-status ${bool(p.committed) ? 'gr-chosen' : 'gr-choosing'}`}
          data-committed={bool(p.committed) ? 'yes' : 'no'}
        >
          {bool(p.committed) ? '✓ has chosen' : '… choosing'}
          {seat === me && choice ? `: ${choiceWords(choice)}` : ''}
        </p>
      ) : choice ? (
        <p class={`gr-reveal${flip ? ' gr-flip' : ''}`}>
          <span class="gr-sub">Revealed:</span> <strong>{choiceWords(choice)}</strong>
          {ground ? <span> · {groundWords(ground)}</span> : null}
        </p>
      ) : null}
    </li>
  );
}

export function GroundBoard(props: BoardProps<GroundView>) {
  const v = obj(props.view);
  const [busy, setBusy] = useState(false);
  const [flip, setFlip] = useState(false);
  const prevPhase = useRef<string | null>(null);
  const phase = str(v?.phase);
  const round = num(v?.round);
  const moment = `${round}/${phase}/${num(obj(v?.resolution)?.step)}`;
  // the reveal moment: every seat's choice of the round, together, until dismissed or the player acts
  const [reveal, setReveal] = useState<{ round: number; choices: JsonObj[] } | null>(null);
  useEffect(() => {
    for (const e of props.events.map(obj))
      if (e !== null && str(e.type) === 'revealed')
        setReveal({
          round: num(e.round),
          choices: arr(e.choices)
            .map(obj)
            .filter((c): c is JsonObj => c !== null),
        });
  }, [props.events]);
  const { notice: note, report, clear } = useNotice(props.view, moment);

  // the reveal: choices turn face up (animated once) when the phase leaves Select; back in Select they go
  useEffect(() => {
    const was = prevPhase.current;
    prevPhase.current = phase;
    if (was === 'select' && phase !== 'select') setFlip(true);
    else if (phase === 'select') setFlip(false);
  }, [phase, round]);

  if (v === null || !Array.isArray(v.players)) return <p>This is not a GROUND view.</p>;
  const me = typeof v.seat === 'number' ? v.seat : props.seat;
  const players = arr(v.players)
    .map(obj)
    .filter((p): p is JsonObj => p !== null);
  const problems = arr(v.problems)
    .map(obj)
    .filter((p): p is JsonObj => p !== null);
  const relations = arr(v.relations)
    .map(obj)
    .filter((r): r is JsonObj => r !== null);
  const mine = players.find((p) => num(p.seat) === me) ?? null;
  const hand = obj(mine?.hand);
  const lead = num(v.lead, -1);
  const total = problems.reduce((s, p) => s + (num(p.claimedBy, -1) >= 0 ? num(obj(p.card)?.value) : 0), 0);
  const menu = props.readOnly ? null : props.menu;
  const isSelect = menu !== null && menu.length > 0 && str(obj(menu[0])?.type) === 'select';
  const step = num(obj(v.resolution)?.step);
  const stepNames = ['', 'GROUND', 'Support', 'DARVO stages', 'Investigate', 'Attack', 'Solve'];

  const act = async (a: Json) => {
    setBusy(true);
    clear();
    setReveal(null);
    const sentIn = moment;
    const r = await props.act(a);
    setBusy(false);
    report(r, sentIn, 'Sent.');
  };

  return (
    <div class="gr-board">
      <section class="gr-top" aria-label="Round">
        <span>
          Round <strong>{round}</strong> of 5
        </span>
        <span>
          Phase <strong>{phase === 'resolve' ? `Resolve, step ${step} (${stepNames[step] ?? '?'})` : phase}</strong>
        </span>
        <span>Lead ◆ seat {lead}</span>
        <span>
          Mode {str(v.mode)} · {str(v.scenario)}
        </span>
        <span>
          Claimed <strong>{total}</strong> / threshold {num(v.threshold)}
        </span>
        <span>
          Deck {num(v.deckSize)} · discard {num(v.discardSize)}
        </span>
      </section>

      {reveal ? (
        <section class="gr-reveal-moment" aria-labelledby="gr-rv-h">
          <h3 id="gr-rv-h">Reveal of round {reveal.round}: every choice, turned face up together</h3>
          <ul>
            {reveal.choices.map((c) => (
              <li key={num(c.seat)} class="gr-flip">
                <span>{seatName(num(c.seat), me)}</span> <strong>{choiceWords(c)}</strong>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => setReveal(null)}>
            Dismiss
          </button>
        </section>
      ) : null}
      {menu !== null && menu.length > 0 ? (
        isSelect ? (
          <SelectPrompt key={`s${round}`} menu={menu} view={v} act={act} busy={busy} me={me} />
        ) : (
          <ChoicePrompt menu={menu} view={v} act={act} busy={busy} me={me} />
        )
      ) : null}
      <p class={`gr-note${note?.bad ? ' gr-bad' : ''}`} role="status">
        {note?.text ?? ''}
      </p>

      {hand ? (
        <section class="gr-hand" aria-label="Your hand">
          <h3>Your hand</h3>
          <ul>
            {SUITS.map((s) => (
              <li key={s} class={num(hand[s]) === 0 ? 'gr-none' : ''}>
                <SuitIcon suit={s} /> {s} × <strong>{num(hand[s])}</strong>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section class="gr-sec-problems" aria-label="Problems">
        <h3>Problems</h3>
        <ul class="gr-problems">
          {problems.map((p) => (
            <ProblemCard key={num(p.slot)} p={p} me={me} />
          ))}
        </ul>
      </section>

      <div class="gr-split">
        <section class="gr-sec-players" aria-label="Players">
          <h3>Players</h3>
          <p class="gr-sub">
            Stress 0–5; boxes after the red bar (4–5, hatched) are past the stress gate: there only two Actions are open
            unless Freedom is spent.
          </p>
          <ul class="gr-players">
            {players.map((p) => (
              <PlayerCard key={num(p.seat)} p={p} me={me} phase={phase} lead={lead} flip={flip} />
            ))}
          </ul>
        </section>
        <section class="gr-sec-relations" aria-label="Relations">
          <h3>Relations</h3>
          <RelationGraph n={players.length} relations={relations} me={me} />
        </section>
      </div>
    </div>
  );
}
