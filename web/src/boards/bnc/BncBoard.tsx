// The bnc board: the zone spine with the shortcuts the seat has discovered, who and what is where
// (all of it for a spectator, the seat's own zone for a contestant), the Warden, the seat's items,
// chat, offers, alliances, guilds and vaults, reputation, and the beats as a timeline. Actions come
// from the seat's menu; the free-text and trade families get small forms.

import { useEffect, useRef, useState } from 'preact/hooks';
import { useNotice } from '../notice.ts';
import type { BoardProps, Json } from '../types.ts';
import type { BncView } from '@arbiter/engine/rulesets/bnc';
import { arr, bool, type JsonObj, num, obj, str } from '../util.ts';
import { type Beat, BeatList, beatsIn } from './beats.tsx';
import './bnc.css';

const ITEMS = ['F1', 'F2', 'F3', 'chart'] as const;
const EXIT = 5;

const list = (v: Json | undefined): JsonObj[] =>
  arr(v)
    .map(obj)
    .filter((o): o is JsonObj => o !== null);
const seatWord = (s: number, me: number | null) => (s === me ? `you (#${s})` : `#${s}`);
const itemWord = (it: string) => (it === 'chart' ? 'survey chart' : `fragment ${it}`);

function ItemChip({ item }: { item: string }) {
  return (
    <span class={`bn-item bn-item-${item === 'chart' ? 'chart' : 'frag'}`} title={itemWord(item)}>
      {item === 'chart' ? '▤ chart' : `◈ ${item}`}
    </span>
  );
}

function actionWords(a: JsonObj, zones: string[], me: number | null): string {
  const zone = (z: Json | undefined) => zones[num(z, -1)] ?? `zone ${String(z)}`;
  switch (str(a.type)) {
    case 'wait':
      return 'Wait';
    case 'move':
      return `Move to ${zone(a.to)}`;
    case 'pickup':
      return `Pick up ${itemWord(str(a.item))}`;
    case 'use_chart':
      return 'Read the survey chart';
    case 'attack':
      return 'Attack the Warden';
    case 'accept_offer':
      return `Accept offer ${str(a.offer)}`;
    case 'reject_offer':
      return `Reject offer ${str(a.offer)}`;
    case 'accept_alliance':
      return `Accept alliance ${str(a.proposal)}`;
    case 'reject_alliance':
      return `Reject alliance ${str(a.proposal)}`;
    case 'break_alliance':
      return `Break pact ${str(a.pact)}`;
    case 'accept_guild':
      return `Accept invitation ${str(a.invitation)}`;
    case 'reject_guild':
      return `Reject invitation ${str(a.invitation)}`;
    case 'leave_guild':
      return 'Leave my guild';
    case 'deposit':
      return `Deposit ${itemWord(str(a.item))} in the vault`;
    case 'withdraw':
      return `Withdraw ${itemWord(str(a.item))} from the vault`;
    case 'invite_guild':
      return `Invite ${seatWord(num(a.to), me)} to my guild`;
    case 'found_guild':
      return `Found a guild here (${num(a.term)} turns)`;
    case 'propose_alliance':
      return `Propose an alliance to ${seatWord(num(a.to), me)}`;
    default:
      return str(a.type).replace(/_/g, ' ');
  }
}

/** The spine: six zones in a row (wrapping on narrow screens), shortcuts the viewer knows as arcs. */
function Spine(props: {
  zones: string[];
  shortcuts: JsonObj[];
  people: Map<number, string[]>;
  floors: Map<number, string[]>;
  warden: JsonObj | null;
  wardenZone: number;
  myZone: number | null;
}) {
  const n = props.zones.length;
  return (
    <section class="bn-spine-wrap" aria-label="Zones">
      <ol class="bn-spine">
        {props.zones.map((z, i) => {
          const people = props.people.get(i) ?? [];
          const floor = props.floors.get(i) ?? [];
          const here = props.myZone === i;
          return (
            <li key={i} class={`bn-zone${here ? ' bn-here' : ''}${i === EXIT ? ' bn-exit' : ''}`} data-zone={i}>
              <span class="bn-zname">
                {i}. {z}
                {here ? ' (you)' : ''}
              </span>
              {people.length ? <span class="bn-people">{people.join(' ')}</span> : null}
              {i === props.wardenZone ? (
                <span class={`bn-warden${bool(props.warden?.down) ? ' bn-down' : ''}`}>
                  ☗ Warden
                  {props.warden && typeof props.warden.health === 'number' ? ` ${num(props.warden.health)} hp` : ''}
                  {bool(props.warden?.down) ? ' (fallen)' : ''}
                </span>
              ) : null}
              {floor.length ? (
                <span class="bn-floor">
                  floor:{' '}
                  {floor.map((it) => (
                    <ItemChip key={it} item={it} />
                  ))}
                </span>
              ) : null}
              {i < n - 1 ? (
                <span class="bn-edge" aria-hidden="true">
                  →
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
      <p class="bn-shortcuts">
        {props.shortcuts.length === 0
          ? 'No shortcut discovered.'
          : `Shortcuts known: ${props.shortcuts
              .map((s) => `${str(s.id)} ${props.zones[num(s.a)] ?? num(s.a)} ⇄ ${props.zones[num(s.b)] ?? num(s.b)}`)
              .join('; ')}`}
      </p>
    </section>
  );
}

function Chat(props: {
  messages: JsonObj[];
  me: number | null;
  canSay: boolean;
  whisperTo: number[];
  send: (a: Json) => void;
}) {
  const [text, setText] = useState('');
  const [to, setTo] = useState<string>('all');
  const end = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (end.current) end.current.scrollTop = end.current.scrollHeight;
  }, [props.messages.length]);
  return (
    <section class="bn-panel" aria-label="Chat">
      <h3>Chat</h3>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling log must be reachable by keyboard */}
      <ol class="bn-chat" ref={end} tabIndex={0} aria-label="Messages">
        {props.messages.slice(-60).map((m, i) => {
          const whisper = m.to !== null && m.to !== undefined;
          return (
            <li key={i} class={whisper ? 'bn-whisper' : 'bn-say'}>
              <span class="bn-turn">t{num(m.turn)}</span> <strong>{seatWord(num(m.from), props.me)}</strong>{' '}
              {whisper ? <em>whispers to {seatWord(num(m.to), props.me)}:</em> : <span>says:</span>} {str(m.text)}
            </li>
          );
        })}
      </ol>
      {props.canSay ? (
        <form
          class="bn-say-form"
          onSubmit={(e) => {
            e.preventDefault();
            const t = text.trim();
            if (!t) return;
            props.send(to === 'all' ? { type: 'say', text: t } : { type: 'whisper', to: Number(to), text: t });
            setText('');
          }}
        >
          <label>
            To{' '}
            <select value={to} onChange={(e) => setTo((e.target as HTMLSelectElement).value)}>
              <option value="all">everyone in my zone (say)</option>
              {props.whisperTo.map((s) => (
                <option key={s} value={String(s)}>
                  whisper to #{s}
                </option>
              ))}
            </select>
          </label>
          <label>
            Message{' '}
            <input
              type="text"
              maxLength={240}
              value={text}
              onInput={(e) => setText((e.target as HTMLInputElement).value)}
            />
          </label>
          {/* saying something is this turn's one action: the button says so before it is spent */}
          <button type="submit">Send (uses your action this turn)</button>
        </form>
      ) : null}
    </section>
  );
}

function OfferForm(props: { mine: string[]; others: number[]; send: (a: Json) => void }) {
  const [to, setTo] = useState(props.others[0] ?? -1);
  const [give, setGive] = useState<string[]>([]);
  const [get, setGet] = useState<string[]>([]);
  const toggle = (xs: string[], x: string) => (xs.includes(x) ? xs.filter((y) => y !== x) : [...xs, x]);
  if (props.others.length === 0) return null;
  return (
    <form
      class="bn-offer-form"
      onSubmit={(e) => {
        e.preventDefault();
        props.send({ type: 'offer', to, give, get, turns: 15 });
        setGive([]);
        setGet([]);
      }}
    >
      <fieldset>
        <legend>Make an offer (15 turns)</legend>
        <label>
          To{' '}
          <select value={String(to)} onChange={(e) => setTo(Number((e.target as HTMLSelectElement).value))}>
            {props.others.map((s) => (
              <option key={s} value={String(s)}>
                #{s}
              </option>
            ))}
          </select>
        </label>
        <span class="bn-checks">
          Give:
          {props.mine.length === 0 ? ' nothing held' : null}
          {props.mine.map((it) => (
            <label key={it}>
              <input type="checkbox" checked={give.includes(it)} onChange={() => setGive(toggle(give, it))} /> {it}
            </label>
          ))}
        </span>
        <span class="bn-checks">
          Ask for:
          {ITEMS.filter((it) => !props.mine.includes(it)).map((it) => (
            <label key={it}>
              <input type="checkbox" checked={get.includes(it)} onChange={() => setGet(toggle(get, it))} /> {it}
            </label>
          ))}
        </span>
        <button type="submit" disabled={give.length + get.length === 0}>
          Offer
        </button>
      </fieldset>
    </form>
  );
}

export function BncBoard(props: BoardProps<BncView>) {
  const v = obj(props.view);
  const [beats, setBeats] = useState<Beat[]>([]);
  const [busy, setBusy] = useState(false);
  const lastTurn = useRef(-1);

  // beats arrive as events of each change; the board keeps the ones it has seen, in order
  useEffect(() => {
    const fresh = beatsIn(props.events);
    if (fresh.length) setBeats((b) => [...b, ...fresh].slice(-300));
  }, [props.events]);
  const turn = num(v?.turn);
  const { notice: note, report } = useNotice(props.view, String(turn));
  useEffect(() => {
    if (turn < lastTurn.current) setBeats([]);
    lastTurn.current = turn;
  }, [turn]);

  if (v === null || !Array.isArray(v.zones)) return <p>This is not a bnc view.</p>;
  const zones = arr(v.zones).map((z) => str(z));
  const spectator = str(v.role) === 'spectator';
  const me = spectator ? null : num(v.seat, props.seat ?? -1);
  const meObj = obj(v.me);
  const menu = props.readOnly ? [] : list(props.menu ?? []);
  const send = async (a: Json) => {
    setBusy(true);
    const sentIn = String(turn);
    const r = await props.act(a);
    setBusy(false);
    report(r, sentIn, `Submitted for turn ${turn}.`);
  };

  // who and what is where: everything for a spectator, the own zone for a contestant
  const people = new Map<number, string[]>();
  const floors = new Map<number, string[]>();
  const contestants = list(v.contestants);
  if (spectator) {
    for (const c of contestants) {
      if (str(c.status) !== 'active') continue;
      const z = num(c.zone);
      people.set(z, [...(people.get(z) ?? []), `#${num(c.seat)}`]);
    }
    arr(v.floor).forEach((f, z) => {
      const items = arr(f).map((x) => str(x));
      if (items.length) floors.set(z, items);
    });
  } else if (meObj) {
    const here = obj(v.here);
    const z = num(meObj.zone);
    people.set(z, [`you #${me}`, ...list(here?.others).map((o) => `#${num(o.seat)}`)]);
    const items = arr(here?.floor).map((x) => str(x));
    if (items.length) floors.set(z, items);
  }
  const wardenObj = spectator ? obj(v.warden) : (obj(obj(v.here)?.warden) ?? obj(v.warden));
  const shortcuts = list(v.shortcuts);
  const myItems = arr(meObj?.items).map((x) => str(x));
  const others = contestants.filter((c) => num(c.seat) !== me && str(c.status) === 'active').map((c) => num(c.seat));
  const canTalk = menu.some((a) => str(a.type) === 'say');
  const canOffer = menu.some((a) => str(a.type) === 'offer');
  const submitted = meObj?.submitted !== null && meObj?.submitted !== undefined;
  const offers = list(v.offers);
  const proposals = list(v.proposals);
  const pacts = list(v.pacts);
  const guilds = spectator ? list(v.guilds) : obj(v.guild) ? [obj(v.guild)!] : [];
  const invitations = list(v.invitations);
  const menuOf = (pred: (a: JsonObj) => boolean) => menu.filter(pred);
  const plainTypes = new Set([
    'wait',
    'move',
    'pickup',
    'use_chart',
    'attack',
    'deposit',
    'withdraw',
    'leave_guild',
    'invite_guild',
    'found_guild',
    'propose_alliance',
  ]);
  const buttons = (as: JsonObj[]) =>
    as.map((a, i) => (
      <button key={i} type="button" disabled={busy} onClick={() => void send(a)}>
        {actionWords(a, zones, me)}
      </button>
    ));

  return (
    <div class="bn-board">
      <section class="bn-top" aria-label="Match">
        <span>
          Turn <strong>{turn}</strong> of {num(obj(v.config)?.turns, num(v.turns, 45))}
        </span>
        <span>{spectator ? 'Watching as a spectator (everything is shown)' : `You are contestant #${me}`}</span>
        {bool(v.over) ? <strong class="bn-over">Match over{v.endReason ? `: ${str(v.endReason)}` : ''}</strong> : null}
      </section>

      <Spine
        zones={zones}
        shortcuts={shortcuts}
        people={people}
        floors={floors}
        warden={wardenObj}
        wardenZone={num(obj(v.warden)?.zone, EXIT)}
        myZone={meObj ? num(meObj.zone) : null}
      />

      {meObj ? (
        <section class="bn-panel bn-me" aria-label="You">
          <h3>You (#{me})</h3>
          <p>
            <span class="bn-hp" role="img" aria-label={`Health ${num(meObj.health)}`}>
              ♥ {num(meObj.health)}
            </span>{' '}
            · {str(meObj.status)} · reputation <strong>{num(meObj.reputation)}</strong>
            {meObj.guild ? ` · guild ${str(meObj.guild)}` : ''}
          </p>
          <p>
            Items: {myItems.length === 0 ? 'none' : myItems.map((it) => <ItemChip key={it} item={it} />)} (
            {myItems.filter((i) => i !== 'chart').length}/3 fragments)
          </p>
          {menu.length > 0 ? (
            <fieldset class="bn-acts">
              <legend>Your action this turn</legend>
              {buttons(menuOf((a) => plainTypes.has(str(a.type))))}
            </fieldset>
          ) : (
            <p class="bn-quiet">
              {submitted ? 'Your action for this turn is in; waiting for the others.' : 'Nothing to do now.'}
            </p>
          )}
          {canOffer ? <OfferForm mine={myItems} others={others} send={send} /> : null}
          <p class={`bn-note${note?.bad ? ' bn-bad' : ''}`} role="status">
            {note?.text ?? ''}
          </p>
        </section>
      ) : null}

      <div class="bn-grid">
        <section class="bn-panel" aria-label="Contestants and reputation">
          <h3>Contestants</h3>
          <table class="bn-table">
            <thead>
              <tr>
                <th scope="col">Seat</th>
                <th scope="col">Status</th>
                <th scope="col">Reputation</th>
                {spectator ? <th scope="col">Where, health, items</th> : null}
              </tr>
            </thead>
            <tbody>
              {contestants.map((c) => (
                <tr key={num(c.seat)}>
                  <td>{seatWord(num(c.seat), me)}</td>
                  <td>
                    {str(c.status)}
                    {c.at !== null && c.at !== undefined ? ` (turn ${num(c.at)})` : ''}
                  </td>
                  <td>{num(c.reputation)}</td>
                  {spectator ? (
                    <td>
                      {zones[num(c.zone)] ?? '?'}, ♥{num(c.health)}
                      {arr(c.items).length
                        ? `, ${arr(c.items)
                            .map((x) => str(x))
                            .join(' ')}`
                        : ''}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </section>

        <section class="bn-panel" aria-label="Offers">
          <h3>Offers</h3>
          {offers.length === 0 ? <p class="bn-quiet">No open offers.</p> : null}
          <ul>
            {offers.map((o) => (
              <li key={str(o.id)}>
                <strong>{str(o.id)}</strong> {seatWord(num(o.from), me)} → {seatWord(num(o.to), me)}: gives{' '}
                {arr(o.give)
                  .map((x) => str(x))
                  .join(', ') || 'nothing'}
                , wants{' '}
                {arr(o.get)
                  .map((x) => str(x))
                  .join(', ') || 'nothing'}{' '}
                (until turn {num(o.expiresAt)}){o.offererHolds === false ? ' — the offerer no longer holds it' : ''}{' '}
                {buttons(menuOf((a) => str(a.offer) === str(o.id)))}
              </li>
            ))}
          </ul>
        </section>

        <section class="bn-panel" aria-label="Alliances">
          <h3>Alliances</h3>
          {proposals.length + pacts.length === 0 ? <p class="bn-quiet">No proposals or pacts.</p> : null}
          <ul>
            {proposals.map((p) => (
              <li key={str(p.id)}>
                Proposal <strong>{str(p.id)}</strong>: {seatWord(num(p.from), me)} → {seatWord(num(p.to), me)},{' '}
                {num(p.turns)} turns (answer by turn {num(p.expiresAt)}){' '}
                {buttons(menuOf((a) => str(a.proposal) === str(p.id)))}
              </li>
            ))}
            {pacts.map((p) => (
              <li key={str(p.id)}>
                Pact <strong>{str(p.id)}</strong>: {seatWord(num(p.a), me)} ⚭ {seatWord(num(p.b), me)} until turn{' '}
                {num(p.expiresAt)} {buttons(menuOf((a) => str(a.pact) === str(p.id)))}
              </li>
            ))}
          </ul>
        </section>

        <section class="bn-panel" aria-label="Guilds and vaults">
          <h3>Guilds and vaults</h3>
          {guilds.length === 0 ? <p class="bn-quiet">{spectator ? 'No guilds.' : 'You are in no guild.'}</p> : null}
          <ul>
            {guilds.map((g) => (
              <li key={str(g.id)}>
                <strong>{str(g.id)}</strong> home {zones[num(g.home)] ?? num(g.home)}, members{' '}
                {arr(g.members)
                  .map((m) => seatWord(num(m), me))
                  .join(', ')}
                , until turn {num(g.expiresAt)}
                {bool(g.claimSpent) ? ', exit claim spent' : ''}. Vault:{' '}
                {arr(g.vault).length ? arr(g.vault).map((x) => <ItemChip key={str(x)} item={str(x)} />) : 'empty'}
              </li>
            ))}
            {invitations.map((i) => (
              <li key={str(i.id)}>
                Invitation <strong>{str(i.id)}</strong> to guild {str(i.guild)}: {seatWord(num(i.from), me)} →{' '}
                {seatWord(num(i.to), me)} (until turn {num(i.expiresAt)}){' '}
                {buttons(menuOf((a) => str(a.invitation) === str(i.id)))}
              </li>
            ))}
          </ul>
        </section>
      </div>

      <Chat messages={list(v.messages)} me={me} canSay={canTalk} whisperTo={others} send={(a) => void send(a)} />

      <section class="bn-panel" aria-label="Beats">
        <h3>Beats</h3>
        <BeatList
          beats={props.history ? beatsIn(props.history) : beats}
          empty="No beat yet (beats appear as they happen)."
        />
      </section>
    </div>
  );
}
