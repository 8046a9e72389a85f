// Readable one-liners for `arbiter play`.

import type { GameEvent, Json } from '../../kernel/index.ts';
import { ZONE_NAMES } from './constants.ts';
import type { Action } from './schema.ts';

const zone = (z: unknown) => (typeof z === 'number' && ZONE_NAMES[z]) || `zone ${String(z)}`;
const who = (s: unknown) => `#${String(s)}`;

export function describeEvent(e: GameEvent): string {
  switch (e.type) {
    case 'submitted':
      return `${who(e.seat)} has chosen an action for turn ${e.turn}`;
    case 'clock':
      return `— turn ${e.turn} complete —`;
    case 'waited':
      return `${who(e.seat)} waits in ${zone(e.zone)}`;
    case 'moved':
      return `${who(e.seat)} moves ${zone(e.from)} → ${zone(e.to)}`;
    case 'picked_up':
      return `${who(e.seat)} picks up ${e.item} in ${zone(e.zone)}`;
    case 'shortcut_discovered':
      return `${who(e.seat)} discovers shortcut ${e.shortcut} (${e.how})`;
    case 'warden_hit':
      return `${who(e.seat)} hits the Warden for ${e.damage} (Warden ${e.health})`;
    case 'warden_fallen':
      return `the Stage Warden falls`;
    case 'warden_strike':
      return e.hit
        ? `the Warden strikes ${who(e.target)} for ${e.damage} (health ${e.health})`
        : `the Warden swings at ${who(e.target)} and misses`;
    case 'said':
      return `${who(e.seat)} says: "${e.text}"`;
    case 'whispered':
      return `${who(e.seat)} whispers to ${who(e.to)}: "${e.text}"`;
    case 'fizzled':
      return `${who(e.seat)}'s ${e.action} fizzles: ${e.reason}`;
    case 'match_over':
      return `the match ends (${e.reason}) after turn ${e.turn}`;
    case 'beat':
      return `${String(e.beat).toUpperCase()} ${beatDetail(e)}`;
    // the social events in words, so a model reads no raw JSON (issue 25)
    case 'offer_made':
      return `${who(e.from)} offers ${who(e.to)} a trade ${e.offer}: gives ${items(e.give)}, asks ${items(e.get)} (open until turn ${e.expiresAt})`;
    case 'offer_accepted':
      return `${who(e.to)} accepts trade ${e.offer} from ${who(e.from)}: ${who(e.from)} gives ${items(e.give)}, gets ${items(e.get)}`;
    case 'offer_rejected':
      return `${who(e.by)} turns down trade ${e.offer}`;
    case 'alliance_proposed':
      return `${who(e.from)} proposes alliance ${e.proposal} to ${who(e.to)} for ${e.turns} turns`;
    case 'alliance_rejected':
      return `${who(e.by)} rejects alliance ${e.proposal}`;
    case 'pact_formed':
      return `pact ${e.pact} formed between ${(Array.isArray(e.seats) ? e.seats : []).map(who).join(' and ')} (until turn ${e.expiresAt})`;
    case 'guild_invited':
      return `${who(e.from)} invites ${who(e.to)} to guild ${e.guild} (${e.invitation})`;
    case 'guild_joined':
      return `${who(e.seat)} joins guild ${e.guild}`;
    case 'guild_declined':
      return `${who(e.by)} declines guild invitation ${e.invitation}`;
    case 'guild_left':
      return `${who(e.seat)} leaves guild ${e.guild} (${e.why})`;
    case 'vault_withdrawal':
      return `${who(e.seat)} takes ${e.item} from guild ${e.guild}'s vault`;
    case 'reputation':
      return `${who(e.seat)}'s reputation ${Number(e.delta) >= 0 ? '+' : ''}${e.delta} (${String(e.why).replace(/_/g, ' ')})`;
    case 'chart_used':
      return `${who(e.seat)} reads the survey chart and learns ${e.learned} new shortcut${e.learned === 1 ? '' : 's'}`;
    default: {
      const { type, ...rest } = e;
      return `${String(type).replace(/_/g, ' ')}${fields(rest)}`;
    }
  }
}

const items = (v: unknown) => (Array.isArray(v) && v.length ? v.map(String).join(', ') : 'nothing');

/** An event's other fields in words: "seat #2, item fragment_a" (seats as #n, lists joined). */
function fields(rest: Record<string, Json>): string {
  const words = Object.entries(rest).map(([k, v]) => {
    const name = k.replace(/_/g, ' ');
    const one = (x: Json) =>
      (k === 'seat' || k === 'seats' || k === 'to' || k === 'from_seat') && typeof x === 'number'
        ? who(x)
        : typeof x === 'object' && x !== null
          ? JSON.stringify(x)
          : String(x);
    return `${name} ${Array.isArray(v) ? v.map(one).join(' and ') : one(v)}`;
  });
  return words.length ? `: ${words.join(', ')}` : '';
}

function beatDetail(e: GameEvent): string {
  const { type: _t, beat: _b, turn, ...rest } = e;
  return `(turn ${turn})${fields(rest as Record<string, Json>)}`;
}

export function describeAction(a: Action, seat: number): string {
  switch (a.type) {
    case 'move':
      return `${who(seat)} → ${zone(a.to)}`;
    case 'say':
      return `${who(seat)} says "${a.text}"`;
    case 'whisper':
      return `${who(seat)} whispers to ${who(a.to)}`;
    default: {
      const { type, ...rest } = a;
      return `${who(seat)} ${type}${Object.keys(rest).length ? ' ' + JSON.stringify(rest) : ''}`;
    }
  }
}

// ---- observations a model can read (issue 12) ------------------------------------------------

type Obj = { [key: string]: Json };
const isObj = (v: Json | undefined): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const arr = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);
const list = (v: Json | undefined): string => (arr(v).length ? arr(v).map(String).join(', ') : 'none');

/**
 * A contestant's view in plain words: where it stands, what it holds, who is here, what it heard,
 * and its offers, pacts, invitations and guild. Everything comes from the view, so nothing hidden
 * from the seat can appear. The spectator view gets a short summary of every contestant.
 */
export function viewText(view: Json, seat: number | null): string {
  if (!isObj(view)) return JSON.stringify(view);
  const out: string[] = [];
  const turn = Number(view.turn);
  if (seat === null || view.role !== 'contestant') {
    out.push(
      `${String(view.edition)} (spectator) — ${Number(view.turn)} turn(s) completed of ${Number(isObj(view.config) ? view.config.turns : 0)}.`,
    );
    for (const c of arr(view.contestants))
      if (isObj(c))
        out.push(
          `#${c.seat}: ${c.status} in ${zone(c.zone)}, health ${c.health}, items ${list(c.items)}, reputation ${c.reputation}, guild ${c.guild ?? 'none'}`,
        );
    if (isObj(view.warden))
      out.push(
        `The Warden: ${zone(view.warden.zone)}, health ${view.warden.health}${view.warden.down ? ', down' : ''}.`,
      );
    return out.join('\n');
  }
  const me = isObj(view.me) ? view.me : {};
  out.push(
    view.over
      ? `${String(view.edition)}: the match is over after turn ${turn}. You are contestant #${view.seat}.`
      : `${String(view.edition)}: turn ${turn} of ${view.turns} (${view.clock} completed). You are contestant #${view.seat}.`,
  );
  out.push(
    `You: ${me.status} in ${zone(me.zone)} (zone ${me.zone}), health ${me.health}, reputation ${me.reputation}, items: ${list(me.items)}; guild: ${me.guild ?? 'none'}.`,
  );
  out.push(
    me.submitted
      ? `Your action for this turn is in: ${JSON.stringify(me.submitted)}.`
      : 'You have not acted this turn.',
  );
  const here = isObj(view.here) ? view.here : {};
  const others = arr(here.others)
    .filter(isObj)
    .map((o) => `#${o.seat} (health ${o.health})`);
  const warden = isObj(here.warden)
    ? `the Warden is here (health ${here.warden.health}${here.warden.down ? ', down' : ''})`
    : 'no Warden';
  out.push(
    `Here: on the floor ${list(here.floor)}; other contestants ${others.length ? others.join(', ') : 'none'}; ${warden}.`,
  );
  const spine = arr(view.zones).map((z, i) => `${i} ${String(z)}`);
  out.push(`Zones along the spine: ${spine.join(' – ')}. The Stage Warden guards zone 5 (Exit Vault).`);
  const sc = arr(view.shortcuts)
    .filter(isObj)
    .map((s) => `${s.id} joins ${zone(s.a)} and ${zone(s.b)}`);
  out.push(`Shortcuts you know: ${sc.length ? sc.join('; ') : 'none'}.`);
  const searched = arr(me.searched).map(zone);
  // waiting searches a zone (U03): a searched zone ends no shortcut beyond those listed above
  if (me.chartRead === true) out.push('You have read the survey chart: the shortcuts above are all there are.');
  out.push(
    `Zones you have searched by waiting: ${searched.length ? `${searched.join(', ')} (no other shortcut ends there)` : 'none'}.`,
  );
  out.push(
    `Contestants: ${arr(view.contestants)
      .filter(isObj)
      .map(
        (c) =>
          `#${c.seat} ${c.status}${c.at !== null && c.at !== undefined ? ` (turn ${c.at})` : ''}, reputation ${c.reputation}`,
      )
      .join('; ')}.`,
  );
  const msgs = arr(view.messages).filter(isObj);
  if (msgs.length) {
    out.push('Messages you heard or sent (latest last):');
    for (const m of msgs.slice(-12))
      out.push(
        m.to === null
          ? `  turn ${m.turn}: #${m.from} says "${String(m.text)}"`
          : `  turn ${m.turn}: #${m.from} whispers to #${m.to}: "${String(m.text)}"`,
      );
  }
  for (const o of arr(view.offers).filter(isObj))
    out.push(
      `Offer ${o.id}: #${o.from} gives ${list(o.give)} to #${o.to} for ${list(o.get)}, open until turn ${o.expiresAt}${o.offererHolds === false ? ' (the offerer no longer holds the goods)' : ''}.`,
    );
  for (const p of arr(view.proposals).filter(isObj))
    out.push(`Alliance proposal ${p.id}: #${p.from} to #${p.to} for ${p.turns} turns, open until turn ${p.expiresAt}.`);
  for (const p of arr(view.pacts).filter(isObj))
    out.push(`Pact ${p.id}: #${p.a} and #${p.b} until turn ${p.expiresAt}.`);
  for (const i of arr(view.invitations).filter(isObj))
    out.push(`Invitation ${i.id}: #${i.from} invites #${i.to} into guild ${i.guild}, open until turn ${i.expiresAt}.`);
  if (isObj(view.guild)) {
    const g = view.guild;
    out.push(
      `Your guild ${g.id}: home ${zone(g.home)}, members ${arr(g.members)
        .map((m) => `#${m}`)
        .join(
          ', ',
        )}, vault ${list(g.vault)}, term ends turn ${g.expiresAt}${g.claimSpent ? ', its exit claim is spent' : ''}.`,
    );
  }
  out.push(
    'Escape: be at Exit Vault at the escape check holding all three fragments (F1, F2, F3), or as a guild member whose guild vault holds all three (it opens the Exit once, for one member). `wait` does nothing this turn.',
  );
  return out.join('\n');
}
