// bnc's cut beats as a timeline: pulled from events (live frames or replayed steps), drawn as a list
// ordered by turn, each with a glyph and words; the replay viewer's version can jump to a beat's step.

import { useEffect, useRef } from 'preact/hooks';
import type { Json } from '../types.ts';
import { arr, type JsonObj, num, obj, str } from '../util.ts';

export type Beat = { beat: string; turn: number; text: string; step?: number };

const GLYPH: Record<string, string> = {
  first_contact: '☏',
  first_pact: '⚭',
  pact_expired: '⌛',
  pact_broken: '✂',
  fragment_taken: '◈',
  chart_read: '▤',
  gate_unlocked: '⚿',
  escape: '⇥',
  attack: '⚔',
  warden_engaged: '☗',
  elimination: '✝',
  silence: '…',
  collapse: '▼',
  guild_formed: '⚑',
  guild_dissolved: '⚐',
  vault_deposit: '⬇',
  defection: '↯',
};

function seats(v: Json | undefined): string {
  return arr(v)
    .map((s) => `#${String(s)}`)
    .join(' and ');
}

/** One beat in words (the detail fields the ruleset puts on each beat event). */
function beatWords(e: JsonObj): string {
  const b = str(e.beat);
  const who = typeof e.seat === 'number' ? `#${e.seat}` : '';
  switch (b) {
    case 'first_contact':
      return `first contact between ${seats(e.seats)}${e.via ? ` (${str(e.via)})` : ''}`;
    case 'first_pact':
      return `first pact: ${seats(e.seats)}`;
    case 'pact_expired':
      return `pact honoured to its end: ${seats(e.seats)}`;
    case 'pact_broken':
      return `#${num(e.breaker)} broke the pact with #${num(e.partner)}`;
    case 'fragment_taken':
      return `${who} took fragment ${str(e.item)}`;
    case 'chart_read':
      return `${who} read the chart and learned ${num(e.learned)} shortcut(s)`;
    case 'gate_unlocked':
      return `gate unlocked for ${who}${e.route === 'vault' ? ` through vault ${str(e.guild)}` : ''}`;
    case 'escape':
      return `${who} escaped`;
    case 'attack':
      return `${who} struck the Warden${typeof e.damage === 'number' ? ` for ${e.damage}` : ''}`;
    case 'warden_engaged':
      return `the Warden turned on ${typeof e.target === 'number' ? `#${e.target}` : who}`;
    case 'elimination':
      return `${who} was eliminated`;
    case 'silence':
      return `silence for ${num(e.turns, 5)} turns`;
    case 'collapse':
      return 'collapse: the last turn ended with contestants inside';
    case 'guild_formed':
      return `#${num(e.founder)} founded guild ${str(e.guild)}`;
    case 'guild_dissolved':
      return `guild ${str(e.guild)} dissolved${e.reason ? ` (${str(e.reason)})` : ''}`;
    case 'vault_deposit':
      return `${who} deposited ${str(e.item)} in vault ${str(e.guild)}`;
    case 'defection':
      return `${who} defected from guild ${str(e.guild)}`;
    default:
      return b.replace(/_/g, ' ');
  }
}

export function beatsIn(events: readonly Json[], step?: number): Beat[] {
  const out: Beat[] = [];
  for (const raw of events) {
    const e = obj(raw);
    if (e === null || str(e.type) !== 'beat') continue;
    out.push({ beat: str(e.beat), turn: num(e.turn), text: beatWords(e), step });
  }
  return out;
}

export function BeatList(props: { beats: Beat[]; empty: string; current?: number; jump?: (step: number) => void }) {
  const box = useRef<HTMLOListElement>(null);
  // live: keep the newest beat in sight; replay: keep the current step's beat in sight
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const now = el.querySelector<HTMLElement>('.bn-beat-now');
    if (now) el.scrollTop = now.offsetTop - el.clientHeight / 2;
    else if (props.current === undefined) el.scrollTop = el.scrollHeight;
  }, [props.beats.length, props.current]);
  if (props.beats.length === 0) return <p class="bn-quiet">{props.empty}</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling timeline must be reachable by keyboard
    <ol class="bn-beats" aria-label="Beats timeline" ref={box} tabIndex={0}>
      {props.beats.map((b, i) => {
        const here = props.current !== undefined && b.step === props.current;
        const body = (
          <>
            <span class="bn-beat-turn">turn {b.turn}</span>
            <span class="bn-beat-glyph" aria-hidden="true">
              {GLYPH[b.beat] ?? '•'}
            </span>
            <strong class="bn-beat-name">{b.beat.replace(/_/g, ' ')}</strong>
            <span class="bn-beat-text">{b.text}</span>
          </>
        );
        return (
          <li key={i} class={`bn-beat bn-beat-${b.beat}${here ? ' bn-beat-now' : ''}`} data-beat={b.beat}>
            {props.jump && b.step !== undefined ? (
              <button type="button" aria-current={here ? 'step' : undefined} onClick={() => props.jump?.(b.step ?? 0)}>
                {body}
              </button>
            ) : (
              body
            )}
          </li>
        );
      })}
    </ol>
  );
}
