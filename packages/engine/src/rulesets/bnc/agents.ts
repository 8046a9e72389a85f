// Scripted contestants with four temperaments. They read the omniscient state (declared as
// reads: 'state' in the package): mostly what a contestant could know, but also where dropped
// fragments lie and what others hold. Alliances are kept and broken for reasons (public
// reputation, refused offers), guilds bank fragments for the vault route, the greedy fight the
// Warden. Every choice is checked with the rule check and falls back to wait, so it is always legal.

import { SeededRandom, type AgentFactory, type GameEvent } from '../../kernel/index.ts';
import { CHART, EXIT, FRAGMENTS } from './constants.ts';
import { check } from './conditions.ts';
import { apply } from './rules.ts';
import type { Action } from './schema.ts';
import { setup } from './setup.ts';
import {
  guildOf,
  holdsAllFragments,
  isFragment,
  neighbours,
  pactBetween,
  type BncState,
  type Contestant,
} from './state.ts';

export type Temperament = 'cooperative' | 'greedy' | 'treacherous' | 'cautious';
export const TEMPERAMENTS: Temperament[] = ['cooperative', 'greedy', 'treacherous', 'cautious'];

export type Memory = { visited: number[]; searched: number[]; asked: number[]; grudges: number[] };
export const newMemory = (): Memory => ({ visited: [], searched: [], asked: [], grudges: [] });
type Rand = { int(n: number): number };

const WAIT: Action = { type: 'wait' };

function fragmentsHeld(items: readonly string[]): number {
  let n = 0;
  for (const f of FRAGMENTS) if (items.includes(f)) n++;
  return n;
}

/** Next zone on a shortest visible path from c's zone to `target`, or null when there. */
function stepToward(s: BncState, c: Contestant, target: number): number | null {
  if (c.zone === target) return null;
  const prev = new Map<number, number>([[c.zone, -1]]);
  const queue = [c.zone];
  const edges = (z: number) => neighbours(s, { ...c, zone: z });
  while (queue.length) {
    const z = queue.shift()!;
    if (z === target) break;
    for (const n of edges(z))
      if (!prev.has(n)) {
        prev.set(n, z);
        queue.push(n);
      }
  }
  if (!prev.has(target)) return null;
  let z = target;
  while (prev.get(z) !== c.zone) z = prev.get(z)!;
  return z;
}

/** Explore: prefer an unvisited neighbour (never the Exit unless `exitOk`), else a random one. */
function explore(s: BncState, c: Contestant, mem: Memory, rnd: Rand, exitOk: boolean): Action {
  const options = neighbours(s, c).filter((z) => exitOk || z !== EXIT || s.warden.down);
  if (options.length === 0) return WAIT;
  const fresh = options.filter((z) => !mem.visited.includes(z));
  const pool = fresh.length ? fresh : options;
  return { type: 'move', to: pool[rnd.int(pool.length)] };
}

function ok(s: BncState, seat: number, a: Action | null): a is Action {
  return a !== null && check(s, seat, a) === null;
}

function others(s: BncState, c: Contestant, sameZone: boolean): Contestant[] {
  return s.contestants.filter((o) => o.seat !== c.seat && o.status === 'active' && (!sameZone || o.zone === c.zone));
}

/** Where this contestant's escape would come from now: its own fragments, or its guild's vault. */
function route(s: BncState, c: Contestant): boolean {
  const g = guildOf(s, c);
  return holdsAllFragments(c.items) || (g !== undefined && !g.claimSpent && holdsAllFragments(g.vault));
}

function goTo(s: BncState, c: Contestant, target: number): Action | null {
  const next = stepToward(s, c, target);
  return next === null ? null : { type: 'move', to: next };
}

/** With an escape route, walk to the Exit (the escape check lets it out on arrival). */
function headForExit(s: BncState, c: Contestant): Action | null {
  return route(s, c) ? (goTo(s, c, EXIT) ?? WAIT) : null;
}

function forage(s: BncState, c: Contestant): Action | null {
  const item = s.floor[c.zone][0];
  if (item !== undefined) return { type: 'pickup', item };
  if (c.items.includes(CHART) && s.shortcuts.some((sc) => !c.known.includes(sc.id))) return { type: 'use_chart' };
  return null;
}

/** Walk to the nearest zone where a fragment lies (dropped by the fallen or a dissolved vault); reads the state. */
function seek(s: BncState, c: Contestant, exitOk: boolean): Action | null {
  let best: number | null = null;
  for (let z = 0; z < s.floor.length; z++) {
    if (z === c.zone || !s.floor[z].some(isFragment) || (z === EXIT && !exitOk && !s.warden.down)) continue;
    if (best === null || Math.abs(z - c.zone) < Math.abs(best - c.zone)) best = z;
  }
  return best === null ? null : goTo(s, c, best);
}

/** Alliance proposals to me: accept from contestants whose public reputation is at least `trust`. */
function answerProposals(s: BncState, c: Contestant, trust: number): Action | null {
  for (const p of s.proposals) {
    if (p.to !== c.seat) continue;
    const ok = s.contestants[p.from].reputation >= trust;
    return { type: ok ? 'accept_alliance' : 'reject_alliance', proposal: p.id };
  }
  return null;
}

function answerInvitations(s: BncState, c: Contestant, trust: number | null): Action | null {
  for (const i of s.invitations) {
    if (i.to !== c.seat) continue;
    const join = trust !== null && c.guild === null && s.contestants[i.from].reputation >= trust;
    return { type: join ? 'accept_guild' : 'reject_guild', invitation: i.id };
  }
  return null;
}

/** Offers to me: accept when `wants` says so and the exchange can happen now, else reject. */
function answerOffers(
  s: BncState,
  c: Contestant,
  wants: (give: readonly string[], get: readonly string[]) => boolean,
): Action | null {
  for (const o of s.offers) {
    if (o.to !== c.seat) continue;
    const a: Action = { type: 'accept_offer', offer: o.id };
    if (wants(o.give, o.get) && ok(s, c.seat, a)) return a;
    if (!wants(o.give, o.get) || s.turn + 1 >= o.expiresAt) return { type: 'reject_offer', offer: o.id };
  }
  return null;
}

const givesFragment = (get: readonly string[]) => get.some((it) => it !== CHART);
const gainsFragment = (give: readonly string[]) => give.some((it) => it !== CHART);

/** A pact partner's public reputation says it betrayed someone: a reason to end the pact. */
function breakWithBetrayer(s: BncState, c: Contestant, below: number): Action | null {
  for (const p of s.pacts) {
    if (p.a !== c.seat && p.b !== c.seat) continue;
    const partner = p.a === c.seat ? p.b : p.a;
    if (s.contestants[partner].reputation < below) return { type: 'break_alliance', pact: p.id };
  }
  return null;
}

function bankAtHome(s: BncState, c: Contestant): Action | null {
  const g = guildOf(s, c);
  if (!g) return null;
  const f = c.items.find((it) => isFragment(it));
  if (f === undefined || holdsAllFragments(c.items)) return null;
  if (g.home === c.zone) return { type: 'deposit', item: f };
  return goTo(s, c, g.home);
}

/**
 * Pool fragments with a partner (pact or guild-mate) in the zone that holds at least as many:
 * one holder of three can escape, scattered fragments free nobody.
 */
function pool(s: BncState, c: Contestant): Action | null {
  const mine = c.items.filter(isFragment);
  if (mine.length === 0 || holdsAllFragments(c.items)) return null;
  for (const o of others(s, c, true)) {
    const partner = pactBetween(s, c.seat, o.seat) !== undefined || (c.guild !== null && o.guild === c.guild);
    if (!partner || fragmentsHeld(o.items) < mine.length) continue;
    const offer: Action = { type: 'offer', to: o.seat, give: mine, get: [], turns: 2 };
    if (ok(s, c.seat, offer) && !s.offers.some((x) => x.from === c.seat && x.to === o.seat)) return offer;
  }
  return null;
}

function recruit(s: BncState, c: Contestant, trust: number, turns: number): Action | null {
  // invitations reach anyone (U21); pacts are proposed face to face
  for (const o of others(s, c, false)) {
    if (c.guild === null || o.guild === c.guild || o.reputation < trust) continue;
    const inv: Action = { type: 'invite_guild', to: o.seat };
    if (ok(s, c.seat, inv)) return inv;
  }
  for (const o of others(s, c, true)) {
    if (o.reputation < trust) continue;
    const p: Action = { type: 'propose_alliance', to: o.seat, turns };
    if (!pactBetween(s, c.seat, o.seat) && ok(s, c.seat, p)) return p;
  }
  return null;
}

/** Cooperative: trusts the reputable, founds a guild where it finds a fragment and banks fragments there. */
function cooperative(s: BncState, c: Contestant, mem: Memory, rnd: Rand): Action {
  const a =
    answerProposals(s, c, 0) ??
    answerInvitations(s, c, 0) ??
    answerOffers(s, c, (_give, get) => !givesFragment(get)) ??
    breakWithBetrayer(s, c, -1) ??
    headForExit(s, c) ??
    forage(s, c) ??
    pool(s, c) ??
    bankAtHome(s, c) ??
    seek(s, c, c.health > 5) ??
    (c.guild === null && c.items.some(isFragment) && c.zone !== EXIT ? { type: 'found_guild', term: 30 } : null) ??
    recruit(s, c, -1, 12);
  if (a) return a;
  if (rnd.int(5) === 0)
    return {
      type: 'say',
      text: `Turn ${s.turn + 1}: I hold ${fragmentsHeld(c.items)} fragment(s); bank them in a vault with me.`,
    };
  return explore(s, c, mem, rnd, false);
}

/** Greedy: trusts nobody, buys fragments with the chart, and fights the Warden for the Exit until nearly dead. */
function greedy(s: BncState, c: Contestant, mem: Memory, rnd: Rand): Action {
  const a =
    answerProposals(s, c, 99) ??
    answerInvitations(s, c, null) ??
    answerOffers(s, c, (give) => gainsFragment(give)) ??
    headForExit(s, c) ??
    forage(s, c);
  if (a) return a;
  if (c.zone === EXIT && !s.warden.down) return c.health > 2 ? { type: 'attack' } : (goTo(s, c, EXIT - 1) ?? WAIT);
  // trade the chart for a fragment with whoever shares the zone
  if (c.items.includes(CHART)) {
    for (const o of others(s, c, true)) {
      const f = o.items.find((it) => isFragment(it));
      const offer: Action = { type: 'offer', to: o.seat, give: [CHART], get: f ? [f] : [], turns: 3 };
      if (f && ok(s, c.seat, offer) && !s.offers.some((x) => x.from === c.seat && x.to === o.seat)) return offer;
    }
  }
  const fetch = seek(s, c, c.health > 4);
  if (fetch) return fetch;
  // having searched the middle zones, a healthy greedy contestant goes to clear the Exit
  if (!s.warden.down && c.health > 6 && [1, 2, 3, 4].every((z) => mem.visited.includes(z)))
    return goTo(s, c, EXIT) ?? WAIT;
  return explore(s, c, mem, rnd, false);
}

/** Treacherous: accepts every pact and guild, robs guild vaults, and breaks pacts once they stop paying. */
function treacherous(s: BncState, c: Contestant, mem: Memory, rnd: Rand): Action {
  const seat = c.seat;
  // reasons to break: the pact's partner refused its offer, or it needs nobody any more
  for (const p of s.pacts) {
    if (p.a !== seat && p.b !== seat) continue;
    const partner = p.a === seat ? p.b : p.a;
    if (mem.grudges.includes(partner) || holdsAllFragments(c.items)) return { type: 'break_alliance', pact: p.id };
  }
  const g = guildOf(s, c);
  if (g && g.home === c.zone) {
    const f = g.vault.find((it) => isFragment(it));
    if (f !== undefined) return { type: 'withdraw', item: f };
  }
  if (g && c.withdrawn > c.deposited && !holdsAllFragments(c.items)) return { type: 'leave_guild' };
  const a =
    answerProposals(s, c, -99) ??
    answerInvitations(s, c, -99) ??
    answerOffers(s, c, (give, get) => gainsFragment(give) || !givesFragment(get)) ??
    headForExit(s, c) ??
    forage(s, c);
  if (a) return a;
  // a weakened Warden is worth finishing off
  if (c.zone === EXIT && !s.warden.down)
    return c.health > 4 && s.warden.health <= 8 ? { type: 'attack' } : (goTo(s, c, EXIT - 1) ?? WAIT);
  // ask a pact partner in the zone for a fragment; a refusal is remembered as a grudge
  for (const o of others(s, c, true)) {
    const f = o.items.find((it) => isFragment(it));
    if (!f || !pactBetween(s, seat, o.seat)) continue;
    const offer: Action = { type: 'offer', to: o.seat, give: [], get: [f], turns: 2 };
    if (ok(s, seat, offer) && !s.offers.some((x) => x.from === seat)) {
      mem.asked.push(o.seat);
      return offer;
    }
  }
  if (g && g.home !== c.zone && g.vault.some(isFragment)) return goTo(s, c, g.home) ?? WAIT;
  const fetch = seek(s, c, c.health > 6);
  if (fetch) return fetch;
  return recruit(s, c, -99, 10) ?? explore(s, c, mem, rnd, false);
}

/** Cautious: searches before it moves, joins the reputable, banks with its guild, and leaves a pact with a betrayer. */
function cautious(s: BncState, c: Contestant, mem: Memory, rnd: Rand): Action {
  const a =
    answerProposals(s, c, 0) ??
    answerInvitations(s, c, 0) ??
    answerOffers(s, c, (give, get) => gainsFragment(give) && !givesFragment(get)) ??
    breakWithBetrayer(s, c, 0) ??
    (c.health > 3 || s.warden.down ? headForExit(s, c) : null);
  if (a) return a;
  if (c.zone === EXIT && !s.warden.down) return goTo(s, c, EXIT - 1) ?? WAIT;
  const b = forage(s, c) ?? pool(s, c) ?? bankAtHome(s, c) ?? seek(s, c, false);
  if (b) return b;
  // search the zone once before leaving it (waiting discovers shortcuts, U03)
  if (!mem.searched.includes(c.zone)) {
    mem.searched.push(c.zone);
    return WAIT;
  }
  if (c.health <= 4) return WAIT;
  return recruit(s, c, 0, 8) ?? explore(s, c, mem, rnd, false);
}

const POLICIES: Record<Temperament, (s: BncState, c: Contestant, mem: Memory, rnd: Rand) => Action> = {
  cooperative,
  greedy,
  treacherous,
  cautious,
};

/** Notes what the contestant saw happen to it since its last choice (refused offers become grudges). */
function remember(s: BncState, seat: number, mem: Memory): void {
  for (const o of mem.asked)
    if (!s.offers.some((x) => x.from === seat && x.to === o) && !mem.grudges.includes(o)) mem.grudges.push(o);
  mem.asked = mem.asked.filter((o) => s.offers.some((x) => x.from === seat && x.to === o));
}

/** The scripted choice for `seat`; always an action `check` accepts (else wait). */
export function choosePolicy(t: Temperament, s: BncState, seat: number, mem: Memory, rnd: Rand): Action {
  const c = s.contestants[seat];
  if (!mem.visited.includes(c.zone)) mem.visited.push(c.zone);
  remember(s, seat, mem);
  const a = POLICIES[t](s, c, mem, rnd);
  return check(s, seat, a) === null ? a : WAIT;
}

function policyAgent(t: Temperament): AgentFactory<Action, BncState> {
  return () => {
    const mem = newMemory();
    return { name: t, choose: (ctx) => choosePolicy(t, ctx.state, ctx.seat, mem, ctx.random) };
  };
}

export const bncAgents: Record<Temperament, AgentFactory<Action, BncState>> = {
  cooperative: policyAgent('cooperative'),
  greedy: policyAgent('greedy'),
  treacherous: policyAgent('treacherous'),
  cautious: policyAgent('cautious'),
};

type FastMatch = { state: BncState; events: GameEvent[]; actions: number };

/**
 * A whole match between scripted temperaments on the trusted fast path (policy choices, which
 * `check` already accepted, applied in place), for the benchmark, the simulation figures and tests.
 */
export function playScripted(seed: number, lineup: readonly Temperament[], keepEvents = true): FastMatch {
  const s = setup({ contestants: lineup.length }, seed);
  const mems: Memory[] = lineup.map(newMemory);
  const rnd = new SeededRandom(seed ^ 0x6b6e63);
  const events: GameEvent[] = [];
  const scratch: GameEvent[] = [];
  let actions = 0;
  while (!s.over) {
    for (const c of s.contestants) {
      if (c.status !== 'active' || c.submitted !== null || s.over) continue;
      const a = choosePolicy(lineup[c.seat], s, c.seat, mems[c.seat], rnd);
      apply(s, c.seat, a, keepEvents ? events : scratch);
      if (!keepEvents) scratch.length = 0;
      actions++;
    }
  }
  return { state: s, events, actions };
}
