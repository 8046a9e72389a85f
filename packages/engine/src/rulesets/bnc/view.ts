// What each seat may observe (U19) and what must never reach it. A contestant sees its zone,
// its items, speech it heard, its own whispers, offers, proposals, pacts, invitations and guild,
// and only the shortcuts it discovered. The spectator sees everything but the RNG.

import { cloneJson, type GameEvent, type Json } from '../../kernel/index.ts';
import { EXIT, ZONE_COUNT, ZONE_NAMES, type ItemId } from './constants.ts';
import type { Action } from './schema.ts';
import type { BncConfig, BncState, Contestant, Guild, Shortcut } from './state.ts';

const SPINE = Array.from({ length: ZONE_COUNT - 1 }, (_, i) => ({ a: i, b: i + 1 }));

type Edge = { a: number; b: number };
type Status = Contestant['status'];

/** A message as a contestant holds it: a whisper it received does not say where the speaker stood. */
export type BncSeenMessage = Omit<BncState['messages'][number], 'zone'> & { zone?: number };

/** What one contestant observes (U19); the fair agents, the sampler and the board read it. */
export type BncSeatView = {
  role: 'contestant';
  edition: string;
  seat: number;
  /** The turn being played (turn 1 at setup); once the match is over, the last turn played. */
  turn: number;
  /** Completed turns (the state's turn). */
  clock: number;
  turns: number;
  over: boolean;
  zones: string[];
  me: {
    zone: number;
    zoneName: string;
    health: number;
    items: ItemId[];
    status: Status;
    reputation: number;
    guild: string | null;
    submitted: Action | null;
    deposited: number;
    withdrawn: number;
    route: Contestant['route'];
    searched: number[];
    chartRead: boolean;
  };
  here: {
    zone: number;
    floor: ItemId[];
    others: { seat: number; health: number }[];
    warden: { health: number; down: boolean } | null;
  };
  contestants: { seat: number; status: Status; reputation: number; at: number | null }[];
  config: BncConfig;
  warden: { zone: number; down: boolean };
  edges: Edge[];
  shortcuts: Shortcut[];
  messages: BncSeenMessage[];
  offers: (BncState['offers'][number] & { offererHolds?: boolean })[];
  proposals: BncState['proposals'];
  pacts: BncState['pacts'];
  invitations: BncState['invitations'];
  guild: Guild | null;
};

/** The spectator's view: the whole match but the random streams, with the map's names and spine. */
export type BncSpectatorView = Omit<BncState, 'rng'> & { role: 'spectator'; zones: string[]; spine: Edge[] };

export type BncView = BncSeatView | BncSpectatorView;

/** The contract's `view`: the spectator's whole picture, or one contestant's. */
export function view(s: BncState, seat: number | null): BncView {
  return seat === null ? spectatorView(s) : seatView(s, seat);
}

function spectatorView(s: BncState): BncSpectatorView {
  const { rng: _rng, ...rest } = s;
  return cloneJson({ role: 'spectator', zones: [...ZONE_NAMES], spine: SPINE, ...rest });
}

function seatView(s: BncState, seat: number): BncSeatView {
  const me = s.contestants[seat];
  const mine = (a: number, b: number) => a === seat || b === seat;
  const here = me.zone;
  const guild = s.guilds.find((g) => g.id === me.guild) ?? null;
  const view: BncSeatView = {
    role: 'contestant',
    edition: s.edition,
    seat,
    // the turn being played, numbered like the menu and the pending entry (turn 1 at setup); once
    // the match is over, the last turn played. `clock` counts completed turns (the state's turn).
    turn: s.over ? s.turn : s.turn + 1,
    clock: s.turn,
    turns: s.config.turns,
    over: s.over,
    zones: [...ZONE_NAMES],
    me: {
      zone: me.zone,
      zoneName: ZONE_NAMES[me.zone],
      health: me.health,
      items: me.items,
      status: me.status,
      reputation: me.reputation,
      guild: me.guild,
      submitted: me.submitted,
      // own bookkeeping (defection is judged on it); a sampler rebuilding the state needs it (issue 15)
      deposited: me.deposited,
      withdrawn: me.withdrawn,
      route: me.route,
      // the zones it has searched (U03): none of them ends a shortcut it has not found
      searched: me.searched,
      // it has read the survey chart (U04): the shortcuts it knows are all there are
      chartRead: me.chartRead,
    },
    here: {
      zone: here,
      floor: s.floor[here],
      others: s.contestants
        .filter((c) => c.seat !== seat && c.status === 'active' && c.zone === here)
        .map((c) => ({ seat: c.seat, health: c.health })),
      warden: s.warden.zone === here ? { health: s.warden.health, down: s.warden.down } : null,
    },
    // U19: status and reputation are public; positions only for those sharing your zone
    contestants: s.contestants.map((c) => ({ seat: c.seat, status: c.status, reputation: c.reputation, at: c.at })),
    // the match config is public (every contestant knows the rules it plays under)
    config: { ...s.config },
    warden: { zone: EXIT, down: s.warden.down },
    edges: SPINE,
    shortcuts: s.shortcuts.filter((sc) => me.known.includes(sc.id)),
    // a whisper's recipient learns who spoke and what, not where the speaker stood
    messages: s.messages
      .filter((m) => m.from === seat || m.heard.includes(seat))
      .map((m) =>
        m.to === null || m.from === seat ? m : { turn: m.turn, from: m.from, to: m.to, text: m.text, heard: m.heard },
      ),
    // an offer to the seat from someone in its zone: whether the offerer still holds the goods
    // (the accept entry on the seat's menu shows it)
    offers: s.offers
      .filter((o) => mine(o.from, o.to))
      .map((o) => {
        const from = s.contestants[o.from];
        return o.to === seat && from.zone === here
          ? { ...o, offererHolds: o.give.every((it) => from.items.includes(it)) }
          : o;
      }),
    proposals: s.proposals.filter((p) => mine(p.from, p.to)),
    pacts: s.pacts.filter((p) => mine(p.a, p.b)),
    // invitations are private to the inviter and the invitee, not shared with guild-mates
    invitations: s.invitations.filter((i) => mine(i.from, i.to)),
    guild,
  };
  return cloneJson(view);
}

/** Values `seat` must never see: others' private objects, unheard speech, unknown shortcuts. */
export function secrets(s: BncState, seat: number | null): Json[] {
  if (seat === null) return [];
  const me = s.contestants[seat];
  const out: Json[] = [];
  const mine = (a: number, b: number) => a === seat || b === seat;
  for (const sc of s.shortcuts) if (!me.known.includes(sc.id)) out.push(sc);
  // a text the seat legitimately saw in another message is no secret, even if repeated elsewhere
  const seen = s.messages.filter((m) => m.from === seat || m.heard.includes(seat)).map((m) => m.text);
  for (const m of s.messages) {
    if (m.from === seat || m.heard.includes(seat)) continue;
    if (m.text.length >= 6 && !seen.some((t) => t.includes(m.text))) out.push(m.text);
  }
  for (const o of s.offers) if (!mine(o.from, o.to)) out.push(o);
  for (const p of s.proposals) if (!mine(p.from, p.to)) out.push(p);
  for (const p of s.pacts) if (!mine(p.a, p.b)) out.push(p);
  for (const i of s.invitations) if (!mine(i.from, i.to)) out.push(i);
  // the stored record of a whisper received names the speaker's zone; the view must not
  for (const m of s.messages) if (m.to === seat && m.from !== seat) out.push(m);
  for (const g of s.guilds) if (g.id !== me.guild) out.push(g);
  return out;
}

/**
 * What one contestant perceives of an event (agents get the events their seat saw since its last
 * decision). Decided from the event alone, so it errs on the side of silence: a contestant sees its
 * own doings, speech it heard, whispers, offers, proposals and invitations it is a party to, strikes
 * at itself and the public clock; where others stood and what they did reaches it through its view
 * (same-zone positions), never through another's event. Cut beats are for editors, not contestants.
 */
export function eventView(e: GameEvent, seat: number): GameEvent | null {
  const own = e.seat === seat;
  const party = (...xs: unknown[]) => xs.includes(seat);
  switch (e.type) {
    case 'clock':
    case 'match_over':
      return e;
    case 'warden_fallen':
      // the Warden's state is public; who felled it is not (positions are seen in one's zone only)
      return own ? e : { type: 'warden_fallen', zone: e.zone ?? null };
    case 'submitted':
    case 'waited':
    case 'moved':
    case 'picked_up':
    case 'shortcut_discovered':
    case 'chart_used':
    case 'warden_hit':
    case 'fizzled':
    case 'guild_joined':
    case 'guild_left':
    case 'vault_withdrawal':
    case 'reputation':
      return own ? e : null;
    case 'said':
      return own || (Array.isArray(e.heard) && e.heard.includes(seat)) ? e : null;
    case 'whispered':
      return party(e.seat, e.to) ? e : null;
    case 'offer_made':
    case 'offer_accepted':
    case 'alliance_proposed':
    case 'guild_invited':
      return party(e.from, e.to) ? e : null;
    case 'offer_rejected':
    case 'alliance_rejected':
    case 'guild_declined':
      return e.by === seat ? e : null;
    case 'pact_formed':
      return Array.isArray(e.seats) && e.seats.includes(seat) ? e : null;
    case 'warden_strike':
      return e.target === seat ? e : null;
    default:
      // beats, expiries and pact endings name no party the event itself can vouch for
      return null;
  }
}
