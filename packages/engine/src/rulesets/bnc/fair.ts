// Fair scripted contestants (issue 15): they decide from the seat's view, its menu and what the
// seat itself has seen on earlier turns (memory kept in the agent), never from the state. The
// state temperaments in agents.ts walk to fragments they cannot see and ask partners for items
// they cannot know are held; these replace that with what a contestant learns by looking: the
// floors of the zones it stood in, who stood there with it, the public status of everyone (an
// elimination drops the fallen's items at the Exit, the only place anyone takes damage), and what
// other scouts said aloud.
//
// `scout` races for the items (it expects a lower seat sharing its zone to take the first item
// there, so it takes another or runs ahead to the next zone), reads the chart, takes every gift,
// robs any guild vault it is let into, checks the Exit after an elimination, and pools fragments
// with other scouts it has heard. `turncoat` is the treacherous temperament made fair: the same
// habits (accepts every pact and guild, robs vaults, asks pact partners for fragments and breaks
// with those who refuse), with searching in place of reading where fragments lie.

import { canonicalJson, type AgentContext, type AgentFactory, type AgentRandom } from '../../kernel/index.ts';
import {
  CHART,
  EXIT,
  FRAGMENTS,
  MIDDLE_ZONES,
  OFFER_ITEMS_MAX,
  OPEN_OFFERS_MAX,
  ZONE_COUNT,
  type ItemId,
} from './constants.ts';
import type { SeatView } from './sample.ts';
import type { BncView } from './view.ts';
import type { Action } from './schema.ts';

export type FairStyle = 'scout' | 'turncoat';
export const FAIR_STYLES: FairStyle[] = ['scout', 'turncoat'];

/** What one contestant remembers between its decisions; everything in it came from its own views. */
export type FairMemory = {
  /** Last floor seen in each zone (null: never stood there). */
  floors: (ItemId[] | null)[];
  /** Eliminations counted so far, and whether the Exit floor may hold what the fallen dropped. */
  fallen: number;
  exitSuspect: boolean;
  /** The turn it last read the chart (-1: never). */
  chartRead: number;
  /** Holdings other scouts announced aloud, by seat; how many of its messages it has read. */
  scouts: Record<string, { items: ItemId[]; turn: number }>;
  heard: number;
  /** Seats whose pact request it asked and that let the request lapse (turncoat). */
  grudges: number[];
  asked: { to: number; item: ItemId; offer: string | null; turn: number }[];
};

export const newFairMemory = (): FairMemory => ({
  floors: Array.from({ length: ZONE_COUNT }, () => null),
  fallen: 0,
  exitSuspect: false,
  chartRead: -1,
  scouts: {},
  heard: 0,
  grudges: [],
  asked: [],
});

const WAIT: Action = { type: 'wait' };
const isFragment = (it: ItemId) => it !== CHART;
const fragmentsIn = (items: readonly ItemId[]) => items.filter(isFragment).length;
const SCOUT_TALK = /^scout (\d+) holds ([A-Za-z0-9,]*)\.?$/;

/** Zones one step from `z` over the spine and the shortcuts this seat discovered. */
function neighbours(v: SeatView, z: number): number[] {
  const out: number[] = [];
  if (z > 0) out.push(z - 1);
  if (z < ZONE_COUNT - 1) out.push(z + 1);
  for (const sc of v.shortcuts) {
    if (sc.a === z && !out.includes(sc.b)) out.push(sc.b);
    else if (sc.b === z && !out.includes(sc.a)) out.push(sc.a);
  }
  return out.sort((x, y) => x - y);
}

type Paths = { dist: number[]; first: number[] };
// one decision asks for the same paths several times (playouts make many decisions): kept per view
const pathCache = new WeakMap<SeatView, { exit?: Paths; noExit?: Paths }>();

/** Steps from the seat's zone to every zone it can reach, avoiding the Exit unless `viaExit`. */
function distances(v: SeatView, viaExit: boolean): Paths {
  let cached = pathCache.get(v);
  if (cached === undefined) pathCache.set(v, (cached = {}));
  const hit = viaExit ? cached.exit : cached.noExit;
  if (hit !== undefined) return hit;
  const out = bfs(v, viaExit);
  if (viaExit) cached.exit = out;
  else cached.noExit = out;
  return out;
}

function bfs(v: SeatView, viaExit: boolean): Paths {
  const dist = Array.from({ length: ZONE_COUNT }, () => Infinity);
  const first = Array.from({ length: ZONE_COUNT }, () => -1);
  const start = v.me.zone;
  dist[start] = 0;
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const z = queue[head];
    // the Exit is a dead end to walk through: the Warden strikes there
    if (z === EXIT && z !== start && !viaExit) continue;
    for (const n of neighbours(v, z)) {
      if (dist[n] !== Infinity) continue;
      dist[n] = dist[z] + 1;
      first[n] = z === start ? n : first[z];
      queue.push(n);
    }
  }
  return { dist, first };
}

function goTo(v: SeatView, target: number): Action | null {
  if (v.me.zone === target) return null;
  const { first } = distances(v, v.warden.down || target === EXIT);
  return first[target] >= 0 ? { type: 'move', to: first[target] } : null;
}

/**
 * The nearest of `zones`, or null; ties go to the zone nearer the Exit, so a contestant that
 * forgot where it has been (a playout's fresh policy) sweeps forward instead of turning back.
 */
function nearest(v: SeatView, zones: number[]): number | null {
  const { dist } = distances(v, v.warden.down);
  let best: number | null = null;
  for (const z of zones) if (dist[z] !== Infinity && (best === null || dist[z] <= dist[best])) best = z;
  return best;
}

/** Takes in this turn's view: floors, eliminations, the Exit, other scouts' announcements. */
function observe(v: SeatView, mem: FairMemory): void {
  const here = v.me.zone;
  mem.floors[here] = v.here.floor.slice();
  // items now in the seat's hands or vault are on no floor
  const located = new Set<ItemId>([...v.me.items, ...(v.guild?.vault ?? [])]);
  for (let z = 0; z < ZONE_COUNT; z++)
    if (z !== here) mem.floors[z] = mem.floors[z]?.filter((it) => !located.has(it)) ?? null;
  const fallen = v.contestants.filter((c) => c.status === 'eliminated').length;
  if (fallen > mem.fallen) mem.exitSuspect = true;
  mem.fallen = fallen;
  if (here === EXIT) mem.exitSuspect = false;
  // the seat's messages only grow: read the new ones
  for (let i = mem.heard; i < v.messages.length; i++) {
    const m = v.messages[i];
    if (m.from === v.seat) continue;
    const hit = SCOUT_TALK.exec(m.text);
    if (!hit || Number(hit[1]) !== m.from) continue;
    const prev = mem.scouts[m.from];
    if (prev && prev.turn > m.turn) continue;
    const items =
      hit[2] === '' ? [] : (hit[2].split(',').filter((x) => (FRAGMENTS as readonly string[]).includes(x)) as ItemId[]);
    mem.scouts[m.from] = { items, turn: m.turn };
  }
  mem.heard = v.messages.length;
}

/** Whether the seat may take `a` now, judged from its view and menu alone. */
function allowed(v: SeatView, menu: readonly Action[], a: Action): boolean {
  const me = v.me;
  const activeOther = (to: number) =>
    to !== v.seat && v.contestants.some((c) => c.seat === to && c.status === 'active');
  switch (a.type) {
    case 'say':
      return true;
    case 'offer': {
      const all = [...a.give, ...a.get];
      return (
        activeOther(a.to) &&
        all.length > 0 &&
        a.give.length <= OFFER_ITEMS_MAX &&
        a.get.length <= OFFER_ITEMS_MAX &&
        new Set(a.give).size === a.give.length &&
        new Set(a.get).size === a.get.length &&
        a.give.every((it) => me.items.includes(it)) &&
        a.get.every((it) => !me.items.includes(it)) &&
        v.offers.filter((o) => o.from === v.seat).length < OPEN_OFFERS_MAX
      );
    }
    case 'propose_alliance': {
      const pair = (x: number, y: number) => (x === v.seat && y === a.to) || (x === a.to && y === v.seat);
      return activeOther(a.to) && !v.pacts.some((p) => pair(p.a, p.b)) && !v.proposals.some((p) => pair(p.from, p.to));
    }
    default: {
      const k = canonicalJson(a);
      return menu.some((m) => canonicalJson(m) === k);
    }
  }
}

/** Fragments whose place the seat does not know (not in its hands, its vault, or a floor it saw). */
function unlocated(v: SeatView, mem: FairMemory): ItemId[] {
  const known = new Set<ItemId>([...v.me.items, ...(v.guild?.vault ?? [])]);
  for (const f of mem.floors) for (const it of f ?? []) known.add(it);
  return FRAGMENTS.filter((f) => !known.has(f));
}

/** An escape route in hand: all three fragments, or a guild vault with all three and its claim. */
function hasRoute(v: SeatView): boolean {
  const full = (items: readonly ItemId[]) => FRAGMENTS.every((f) => items.includes(f));
  return full(v.me.items) || (v.guild !== null && !v.guild.claimSpent && full(v.guild.vault));
}

/** Offers to the seat that leave it with more fragments (or a free chart): accepted when on the menu. */
function takeGifts(v: SeatView, menu: readonly Action[]): Action | null {
  for (const o of v.offers) {
    if (o.to !== v.seat) continue;
    const gain = fragmentsIn(o.give) - fragmentsIn(o.get);
    const good = gain > 0 || (gain === 0 && o.get.length === 0 && o.give.length > 0);
    const a: Action = { type: 'accept_offer', offer: o.id };
    if (good && allowed(v, menu, a)) return a;
  }
  return null;
}

/**
 * Picks an item up here. Lower seats resolve first and every script takes the first item on the
 * floor, so with a lower seat present the seat takes a later item, or (one item only) runs on to
 * where an item may still lie and lets the lower seat have this one.
 */
function forage(v: SeatView, menu: readonly Action[], mem: FairMemory): Action | null {
  const floor = v.here.floor;
  if (floor.length === 0) return null;
  const lower = v.here.others.some((o) => o.seat < v.seat);
  const candidates = lower ? floor.slice(1) : floor.slice();
  // fragments before the chart
  candidates.sort((x, y) => Number(isFragment(y)) - Number(isFragment(x)));
  for (const item of candidates) {
    const a: Action = { type: 'pickup', item };
    if (allowed(v, menu, a)) return a;
  }
  if (lower) {
    // the lower seat takes this one: remember the floor without it
    const before = mem.floors[v.me.zone];
    mem.floors[v.me.zone] = floor.slice(1);
    const t = target(v, mem, true);
    const run = t === null ? null : goTo(v, t);
    if (run !== null) return run;
    mem.floors[v.me.zone] = before;
  }
  const a: Action = { type: 'pickup', item: floor[0] };
  return allowed(v, menu, a) ? a : null;
}

/**
 * Where to look next: the nearest floor a missing fragment was seen on, else the nearest middle
 * zone not yet seen, else the Exit when someone fell there and fragments are unaccounted for.
 * `elsewhere` skips the seat's own zone.
 */
function target(v: SeatView, mem: FairMemory, elsewhere: boolean): number | null {
  const here = v.me.zone;
  const seen: number[] = [];
  for (let z = 0; z < ZONE_COUNT; z++) {
    if (elsewhere && z === here) continue;
    if (z === EXIT && !v.warden.down && v.me.health <= 6) continue;
    if (mem.floors[z]?.some(isFragment)) seen.push(z);
  }
  const z1 = nearest(v, seen);
  if (z1 !== null) return z1;
  const fresh = MIDDLE_ZONES.filter((z) => mem.floors[z] === null && !(elsewhere && z === here));
  const z2 = nearest(v, [...fresh]);
  if (z2 !== null) return z2;
  const exitOk = v.warden.down || v.me.health > 6;
  if (mem.exitSuspect && exitOk && unlocated(v, mem).length > 0 && !(elsewhere && here === EXIT)) return EXIT;
  return null;
}

/**
 * Read the chart once it is held (it shows every shortcut; waiting only finds the local ones), but
 * not while the race for the items is on: a turn spent reading is a fragment lost to a runner.
 */
function readChart(v: SeatView, menu: readonly Action[], mem: FairMemory): Action | null {
  if (!v.me.items.includes(CHART) || mem.chartRead >= 0 || target(v, mem, true) !== null) return null;
  const a: Action = { type: 'use_chart' };
  if (!allowed(v, menu, a)) return null;
  mem.chartRead = v.turn;
  return a;
}

/** In a guild whose vault holds fragments: go home and take them (the vault route needs all three there). */
function robVault(v: SeatView, menu: readonly Action[]): Action | null {
  const g = v.guild;
  if (g === null) return null;
  const f = g.vault.find(isFragment);
  if (f === undefined) return null;
  if (g.home !== v.me.zone) return goTo(v, g.home);
  const a: Action = { type: 'withdraw', item: f };
  return allowed(v, menu, a) ? a : null;
}

function answerInvitation(v: SeatView, menu: readonly Action[]): Action | null {
  if (v.guild !== null) return null;
  for (const i of v.invitations) {
    if (i.to !== v.seat) continue;
    const a: Action = { type: 'accept_guild', invitation: i.id };
    if (allowed(v, menu, a)) return a;
  }
  return null;
}

function answerProposal(v: SeatView, menu: readonly Action[]): Action | null {
  for (const p of v.proposals) {
    if (p.to !== v.seat) continue;
    const a: Action = { type: 'accept_alliance', proposal: p.id };
    if (allowed(v, menu, a)) return a;
  }
  return null;
}

const announcement = (v: SeatView) => `scout ${v.seat} holds ${v.me.items.filter(isFragment).join(',')}.`;

/**
 * Pooling between scouts (which know each other only by what they say): a scout tells the others
 * in its zone what it holds; the one holding fewer fragments (equal: the higher seat) gives its
 * fragments to the other, which takes gifts. One holder of three escapes; scattered fragments free nobody.
 */
function pool(v: SeatView, menu: readonly Action[], mem: FairMemory): Action | null {
  const mine = v.me.items.filter(isFragment);
  if (mine.length === 0) return null;
  const others = v.here.others.map((o) => o.seat);
  for (const o of others) {
    const them = mem.scouts[o];
    if (!them || them.items.length === 0) continue;
    const theyLead = them.items.length > mine.length || (them.items.length === mine.length && o < v.seat);
    if (!theyLead || v.offers.some((x) => x.from === v.seat && x.to === o)) continue;
    const a: Action = { type: 'offer', to: o, give: mine, get: [], turns: 2 };
    if (allowed(v, menu, a)) return a;
  }
  // tell whoever here has not heard what the seat holds now
  const text = announcement(v);
  const told = new Set<number>();
  for (const m of v.messages) if (m.from === v.seat && m.text === text) for (const h of m.heard) told.add(h);
  if (others.some((o) => !told.has(o))) return { type: 'say', text };
  return null;
}

/** Propose a pact to someone here it has none with (pooling partners among the scripts give to partners). */
function befriend(v: SeatView, menu: readonly Action[], turns: number): Action | null {
  for (const o of v.here.others) {
    const a: Action = { type: 'propose_alliance', to: o.seat, turns };
    if (allowed(v, menu, a)) return a;
  }
  return null;
}

/** With nothing to chase: holders wait next to the Exit (scouts meet there), the empty-handed patrol. */
function idle(v: SeatView, rnd: AgentRandom): Action {
  if (fragmentsIn(v.me.items) > 0) return goTo(v, MIDDLE_ZONES[MIDDLE_ZONES.length - 1]) ?? WAIT;
  // a random walk away from the Exit, pausing now and then (waiting searches for shortcuts)
  const options = neighbours(v, v.me.zone).filter((z) => z !== EXIT || v.warden.down);
  if (options.length === 0 || rnd.int(3) === 0) return WAIT;
  return { type: 'move', to: options[rnd.int(options.length)] };
}

function scout(v: SeatView, menu: readonly Action[], mem: FairMemory, rnd: AgentRandom): Action {
  if (hasRoute(v)) return goTo(v, EXIT) ?? WAIT;
  const a =
    takeGifts(v, menu) ??
    forage(v, menu, mem) ??
    readChart(v, menu, mem) ??
    robVault(v, menu) ??
    ((): Action | null => {
      const t = target(v, mem, true);
      return t === null ? null : goTo(v, t);
    })() ??
    pool(v, menu, mem) ??
    answerInvitation(v, menu) ??
    answerProposal(v, menu) ??
    befriend(v, menu, 12);
  return a ?? idle(v, rnd);
}

/** The treacherous temperament on what it can see: pacts with all, robbed vaults, asks and grudges. */
function turncoat(v: SeatView, menu: readonly Action[], mem: FairMemory, rnd: AgentRandom): Action {
  const seat = v.seat;
  // a request no longer open that did not bring its fragment was refused or let lapse: a grudge
  for (const q of mem.asked) {
    const open = v.offers.some((o) => o.id === q.offer);
    if (!open && !v.me.items.includes(q.item) && !mem.grudges.includes(q.to)) mem.grudges.push(q.to);
  }
  mem.asked = mem.asked.filter((q) => v.offers.some((o) => o.id === q.offer));
  const holdsAll = FRAGMENTS.every((f) => v.me.items.includes(f));
  for (const p of v.pacts) {
    const partner = p.a === seat ? p.b : p.a;
    const a: Action = { type: 'break_alliance', pact: p.id };
    if ((mem.grudges.includes(partner) || holdsAll) && allowed(v, menu, a)) return a;
  }
  if (hasRoute(v)) return goTo(v, EXIT) ?? WAIT;
  const g = v.guild;
  if (g && g.home === v.me.zone) {
    const f = g.vault.find(isFragment);
    if (f !== undefined) return { type: 'withdraw', item: f };
  }
  if (g && v.me.withdrawn > v.me.deposited && !holdsAll) return { type: 'leave_guild' };
  const a =
    answerProposal(v, menu) ??
    answerInvitation(v, menu) ??
    takeGifts(v, menu) ??
    forage(v, menu, mem) ??
    readChart(v, menu, mem) ??
    robVault(v, menu);
  if (a) return a;
  // ask a pact partner here for a fragment the seat lacks (it cannot see who holds what)
  const lacking = FRAGMENTS.filter((f) => !v.me.items.includes(f));
  for (const o of v.here.others) {
    const partner = v.pacts.some((p) => p.a === o.seat || p.b === o.seat);
    if (!partner || lacking.length === 0 || mem.grudges.includes(o.seat)) continue;
    const item = lacking[rnd.int(lacking.length)];
    const ask: Action = { type: 'offer', to: o.seat, give: [], get: [item], turns: 2 };
    if (allowed(v, menu, ask) && !v.offers.some((x) => x.from === seat)) {
      mem.asked.push({ to: o.seat, item, offer: null, turn: v.turn });
      return ask;
    }
  }
  const t = target(v, mem, true);
  const go = t === null ? null : goTo(v, t);
  return go ?? befriend(v, menu, 10) ?? idle(v, rnd);
}

const STYLES: Record<FairStyle, (v: SeatView, menu: readonly Action[], mem: FairMemory, rnd: AgentRandom) => Action> = {
  scout,
  turncoat,
};

/** Links the turncoat's requests made last turn to the offer ids its view now shows (a fizzled one is dropped). */
function linkAsked(v: SeatView, mem: FairMemory): void {
  for (const q of mem.asked) {
    if (q.offer !== null) continue;
    const o = v.offers.find((x) => x.from === v.seat && x.to === q.to && x.made === q.turn);
    q.offer = o ? o.id : '';
  }
  mem.asked = mem.asked.filter((q) => q.offer !== '');
}

/**
 * The fair choice for the seat whose view and menu these are; always an action the menu lists or
 * (free-parameter families) one the view shows to be allowed, else wait. Reads nothing else.
 */
export function chooseFair(
  style: FairStyle,
  view: SeatView,
  menu: readonly Action[],
  mem: FairMemory,
  rnd: AgentRandom,
): Action {
  if (menu.length === 0) return WAIT;
  observe(view, mem);
  linkAsked(view, mem);
  const a = STYLES[style](view, menu, mem, rnd);
  return allowed(view, menu, a) ? a : WAIT;
}

/** A seat is only ever asked with its own contestant's view. */
function contestantView(v: BncView): SeatView {
  if (v.role !== 'contestant') throw new Error('bnc fair agent: asked with a spectator view');
  return v;
}

function fairAgent(style: FairStyle): AgentFactory<Action, unknown, BncView> {
  return () => {
    const mem = newFairMemory();
    return {
      name: style,
      // only the view and the menu: the context's state is never touched
      choose: (ctx: AgentContext<unknown, Action, BncView>) =>
        chooseFair(style, contestantView(ctx.view), ctx.menu.actions, mem, ctx.random),
    };
  };
}

export const fairAgents: Record<FairStyle, AgentFactory<Action, unknown, BncView>> = {
  scout: fairAgent('scout'),
  turncoat: fairAgent('turncoat'),
};
