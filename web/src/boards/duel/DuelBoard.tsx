// The duel board: both seats' public zones (credits, clicks, heap, score area, installed cards, the
// remote server and its ICE), the viewer's hand, the turn frame with its phase and step, open
// priority and reaction windows, and the nested action stack (action → run → ...). Actions come
// from the seat's menu, with each card's text beside its name.

import { useState } from 'preact/hooks';
import { useNotice } from '../notice.ts';
import { CARDS, type DuelView } from '@arbiter/engine/rulesets/duel';
import type { BoardProps, Json } from '../types.ts';
import { arr, bool, type JsonObj, num, obj, str } from '../util.ts';
import './duel.css';

const SIDE = ['Corp', 'Runner'] as const;
const GOAL = 7;

const STEPS: Record<string, string> = {
  C1: 'Corp gains clicks',
  C2: 'Corp paid-ability window',
  C4: 'Corp formal turn begin',
  C5: 'Corp required draw',
  C6: 'Corp draw phase done',
  R1: 'Runner gains clicks',
  R2: 'Runner paid-ability window',
  R4: 'Runner formal turn begin',
  A1: 'paid-ability window before actions',
  A2: 'action window',
  A3: 'action resolving',
  AD: 'directed end of the action phase',
  A5: 'ending checkpoint',
  D1: 'discard step',
  D2: 'paid-ability window after discard',
  D3: 'lose unspent clicks',
  D4: 'formal turn end',
  D5: 'handoff',
};

function cardText(id: string): string {
  const c = CARDS[id];
  return c ? `${c.kind}, cost ${c.cost}: ${c.text}` : id;
}

function CardChip({ id, hidden }: { id: string | null; hidden?: boolean }) {
  if (id === null || hidden)
    return (
      <span class="du-card du-facedown" role="img" aria-label="a face-down card">
        ▮ face down
      </span>
    );
  const c = CARDS[id];
  return (
    <span class={`du-card du-k-${c?.kind ?? 'x'}`} title={cardText(id)}>
      <strong>{id}</strong>
      <span class="du-kind">{c?.kind ?? '?'}</span>
    </span>
  );
}

function actionWords(a: JsonObj): string {
  const t = str(a.type);
  switch (t) {
    case 'credit':
      return 'Click: gain 1 credit';
    case 'draw':
      return 'Click: draw a card';
    case 'advance':
      return 'Click + 1 credit: advance the remote';
    case 'run':
      return 'Click: run on the remote';
    case 'install':
      return `Install ${str(a.card)}`;
    case 'play':
      return `Play ${str(a.card)}`;
    case 'score':
      return 'Score the agenda in the remote';
    case 'pass':
      return 'Pass priority';
    case 'resolve':
      return `Resolve ${str(a.src)}`;
    case 'continue':
      return 'Continue the run';
    case 'jack_out':
      return 'Jack out';
    case 'break':
      return 'Break the ICE';
    case 'discard':
      return `Discard ${arr(a.cards)
        .map((c) => str(c))
        .join(' + ')}`;
    default:
      return t.replace(/_/g, ' ');
  }
}

function Pips({ n, max, label }: { n: number; max: number; label: string }) {
  return (
    <span class="du-pips" role="img" aria-label={`${label} ${n} of ${max}`}>
      {Array.from({ length: Math.max(max, n) }, (_, i) => (
        <span key={i} class={i < n ? 'du-pip du-on' : 'du-pip'} />
      ))}
      <strong>
        {n}/{max}
      </strong>
    </span>
  );
}

function SeatPanel(props: { v: JsonObj; i: number; me: number | null; owner: number }) {
  const s = obj(arr(props.v.seats)[props.i]);
  if (s === null) return null;
  const cfg = obj(obj(props.v.engine)?.cfg);
  const maxClicks = num(arr(cfg?.clicks)[props.i], num(s.clicks));
  const pts = num(arr(props.v.points)[props.i]);
  const heap = arr(s.heap).map(obj);
  const installed = arr(s.installed).map((x) => str(x));
  const score = arr(s.score).map(obj);
  const mine = props.i === props.me;
  return (
    <section
      class={`du-seat${mine ? ' du-mine' : ''}${props.owner === props.i ? ' du-active' : ''}`}
      aria-label={`${SIDE[props.i]} (seat ${props.i})${mine ? ', you' : ''}`}
    >
      <h3>
        {SIDE[props.i]} · seat {props.i}
        {mine ? ' (you)' : ''}
        {props.owner === props.i ? <span class="du-turn-tag"> ▶ turn owner</span> : null}
      </h3>
      <p class="du-stats">
        <span>
          Points <strong>{pts}</strong>/{GOAL}
        </span>
        <span>
          Credits <strong>¤{num(s.credits)}</strong>
        </span>
        <span>
          Clicks <Pips n={num(s.clicks)} max={maxClicks} label="clicks" />
        </span>
      </p>
      <p class="du-stats">
        <span>
          Hand {num(s.handCount)} (max {num(s.maxHand)})
        </span>
        <span>Deck {num(s.deckCount)}</span>
      </p>
      <p>Installed: {installed.length ? installed.map((c, k) => <CardChip key={k} id={c} />) : 'nothing'}</p>
      <p>
        Score area:{' '}
        {score.length
          ? score.map((x, k) => (
              <span key={k}>
                <CardChip id={str(x?.card)} /> {num(x?.pts)} pt{' '}
              </span>
            ))
          : 'empty'}
      </p>
      <p>
        Heap ({heap.length}):{' '}
        {heap.length
          ? heap
              .slice(-8)
              .map((h, k) => (
                <CardChip
                  key={k}
                  id={h && bool(h.up) ? str(h.card) : mine ? str(h?.card) : null}
                  hidden={!mine && !bool(h?.up)}
                />
              ))
          : 'empty'}
        {heap.length > 8 ? ' …' : ''}
      </p>
    </section>
  );
}

/** The nested stack: the action in progress, the run it started, the windows open on top. */
function Stack({ v }: { v: JsonObj }) {
  const action = obj(v.action);
  const run = obj(v.run);
  const windows = arr(v.windows)
    .map(obj)
    .filter((w): w is JsonObj => w !== null);
  const passed = arr(obj(v.engine)?.passed);
  const queued = arr(v.queued).map(obj);
  const card = obj(v.engine)?.actionCard;
  const layers: { key: string; text: string; sub?: string }[] = [];
  if (action)
    layers.push({
      key: 'a',
      text: `Action #${num(action.id)}: ${str(action.kind)} by ${SIDE[num(action.owner)] ?? '?'}${
        typeof card === 'string' ? ` (${card})` : ''
      }`,
      sub: `status ${str(action.status)}${num(action.child) > 0 ? `, waiting on child #${num(action.child)}` : ''}`,
    });
  if (run)
    layers.push({
      key: 'r',
      text: `Run #${num(run.id)} on the remote: ${str(run.stage)}`,
      sub: `ICE position ${num(run.pos)}${bool(run.success) ? ', successful' : ''}`,
    });
  for (let k = 0; k < windows.length; k++) {
    const w = windows[k];
    layers.push({
      key: `w${k}`,
      text: `${str(w.kind) === 'react' ? 'Reaction' : 'Paid-ability'} window, priority ${SIDE[num(w.prio)] ?? '?'}`,
      sub: `${
        arr(w.abilities)
          .map(obj)
          .map((a) => `${str(a?.src)} (${SIDE[num(a?.who)] ?? '?'})`)
          .join(', ') || 'no abilities'
      }${passed[k] === true ? '; last holder passed' : ''}`,
    });
  }
  return (
    <section class="du-stack-wrap" aria-label="Action stack">
      <h3>Stack</h3>
      {layers.length === 0 ? (
        <p class="du-quiet">Nothing is resolving.</p>
      ) : (
        <ol class="du-stack">
          {layers.map((l, depth) => (
            <li
              key={l.key}
              style={{ marginLeft: `${depth * 1.1}rem` }}
              class={depth === layers.length - 1 ? 'du-top' : ''}
            >
              <span aria-hidden="true">{depth === 0 ? '■' : '└'} </span>
              <strong>{l.text}</strong>
              {l.sub ? <span class="du-sub"> — {l.sub}</span> : null}
            </li>
          ))}
        </ol>
      )}
      {queued.length ? (
        <p class="du-sub">Queued: {queued.map((a) => `${str(a?.src)} (${SIDE[num(a?.who)] ?? '?'})`).join(', ')}</p>
      ) : null}
    </section>
  );
}

export function DuelBoard(props: BoardProps<DuelView>) {
  const v = obj(props.view);
  const [busy, setBusy] = useState(false);
  const { notice: note, report } = useNotice(props.view, '');
  if (v === null || !Array.isArray(v.seats)) return <p>This is not a duel view.</p>;
  const me = props.seat;
  const turn = obj(v.turn);
  const owner = num(turn?.owner, -1);
  const step = str(v.step);
  const owes = obj(v.owes);
  const result = obj(v.result);
  const hand = me !== null ? arr(obj(arr(v.seats)[me])?.hand).map((c) => str(c)) : [];
  const remote = obj(v.remote);
  const ice = arr(v.ice).map((c) => str(c));
  const menu = props.readOnly ? [] : (props.menu ?? []).map(obj).filter((a): a is JsonObj => a !== null);
  const send = async (a: Json) => {
    setBusy(true);
    const r = await props.act(a);
    setBusy(false);
    report(r, '', null);
  };

  return (
    <div class="du-board">
      <section class="du-top" aria-label="Turn">
        <span>
          Turn <strong>{num(obj(v.engine)?.turns)}</strong> of {SIDE[owner] ?? '?'} (frame #{num(turn?.id)})
        </span>
        <span>
          Phase <strong>{str(turn?.phase)}</strong>
        </span>
        <span>
          Step <strong>{step}</strong> ({STEPS[step] ?? 'procedure step'})
        </span>
        <span>
          Formal begin {bool(turn?.formalBegun) ? '✓' : '–'} · end {bool(turn?.formalEnded) ? '✓' : '–'}
        </span>
        {num(v.core) > 0 ? <span>Core damage {num(v.core)}</span> : null}
        {bool(v.directed) ? <span>Directed end of phase</span> : null}
        {bool(v.checkpointDue) ? <span>Checkpoint due</span> : null}
      </section>
      {result ? (
        <p class="du-result" role="note">
          <strong>Game over:</strong> {str(result.reason)} — winner{arr(result.winners).length === 1 ? '' : 's'}:{' '}
          {arr(result.winners)
            .map((w) => SIDE[num(w)] ?? '?')
            .join(', ') || 'none'}
        </p>
      ) : owes ? (
        <p class="du-owes">
          Waiting for <strong>{SIDE[num(owes.seat)]}</strong>
          {num(owes.seat) === me ? ' (you)' : ''}: {str(owes.kind).replace(/_/g, ' ')}
        </p>
      ) : null}

      <div class="du-sides">
        <SeatPanel v={v} i={0} me={me} owner={owner} />
        <SeatPanel v={v} i={1} me={me} owner={owner} />
      </div>

      <section class="du-server" aria-label="Remote server">
        <h3>Remote server</h3>
        <p>
          {remote ? (
            <>
              <CardChip id={typeof remote.card === 'string' ? remote.card : null} /> advanced {num(remote.adv)}
            </>
          ) : (
            'empty'
          )}
        </p>
        <p>ICE (outermost last): {ice.length ? ice.map((c, k) => <CardChip key={k} id={c} />) : 'none'}</p>
      </section>

      <Stack v={v} />

      {me !== null ? (
        <section class="du-hand" aria-label="Your hand">
          <h3>Your hand ({hand.length})</h3>
          <ul>
            {hand.map((c, k) => (
              <li key={k}>
                <CardChip id={c} /> <span class="du-sub">{cardText(c)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {menu.length > 0 ? (
        <section class="du-menu" aria-label="Your options">
          <h3>Your options</h3>
          <div class="du-buttons">
            {menu.map((a, k) => (
              <button
                key={k}
                type="button"
                disabled={busy}
                onClick={() => void send(a)}
                title={typeof a.card === 'string' ? cardText(a.card) : undefined}
              >
                {actionWords(a)}
              </button>
            ))}
          </div>
        </section>
      ) : null}
      <p class={`du-note${note?.bad ? ' du-bad' : ''}`} role="status">
        {note?.text ?? ''}
      </p>
    </div>
  );
}
