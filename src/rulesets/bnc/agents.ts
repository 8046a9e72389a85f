// Scripted contestants with four temperaments. They read the omniscient state (declared: the
// AgentContext allows built-in heuristics to) but act only on what a contestant could know —
// their zone, their items, their own offers and guild — plus a memory of zones they visited.
// Every choice is checked with the rule check and falls back to wait, so it is always legal.

import { SeededRandom, type AgentFactory, type GameEvent } from '../../kernel/index.ts';
import { CHART, EXIT, FRAGMENTS } from './constants.ts';
import { check } from './conditions.ts';
import { submit } from './rules.ts';
import type { Action } from './schema.ts';
import { setupState } from './setup.ts';
import { canEscape, guildOf, holdsAllFragments, isFragment, neighbours, pactBetween, type BncState, type Contestant } from './state.ts';

export type Temperament = 'cooperative' | 'greedy' | 'treacherous' | 'cautious';
export const TEMPERAMENTS: Temperament[] = ['cooperative', 'greedy', 'treacherous', 'cautious'];

export type Memory = { visited: number[] };
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
    for (const n of edges(z)) if (!prev.has(n)) { prev.set(n, z); queue.push(n); }
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

/** Shared first priorities: escape route, pickups, chart. */
function basics(s: BncState, c: Contestant, greedyAttack: boolean): Action | null {
  const g = guildOf(s, c);
  const vaultReady = g !== undefined && !g.claimSpent && holdsAllFragments(g.vault);
  if (holdsAllFragments(c.items) || vaultReady) {
    if (canEscape(s, { ...c, zone: EXIT })) {
      const next = stepToward(s, c, EXIT);
      return next === null ? WAIT : { type: 'move', to: next };
    }
  }
  if (c.zone === EXIT && !s.warden.down && greedyAttack && c.health > 6) return { type: 'attack' };
  const item = s.floor[c.zone][0];
  if (item !== undefined) return { type: 'pickup', item: item };
  if (c.items.includes(CHART) && s.shortcuts.some((sc) => !c.known.includes(sc.id))) return { type: 'use_chart' };
  return null;
}

function answerOffers(s: BncState, c: Contestant, accept: boolean): Action | null {
  for (const o of s.offers) {
    if (o.to !== c.seat) continue;
    const a: Action = { type: accept && o.get.every((it) => !isFragment(it)) ? 'accept_offer' : 'reject_offer', offer: o.id };
    if (ok(s, c.seat, a)) return a;
    return { type: 'reject_offer', offer: o.id };
  }
  return null;
}

function others(s: BncState, c: Contestant, sameZone: boolean): Contestant[] {
  return s.contestants.filter((o) => o.seat !== c.seat && o.status === 'active' && (!sameZone || o.zone === c.zone));
}

function cooperative(s: BncState, c: Contestant, mem: Memory, rnd: Rand): Action {
  const seat = c.seat;
  for (const p of s.proposals) if (p.to === seat) return { type: 'accept_alliance', proposal: p.id };
  for (const i of s.invitations) if (i.to === seat && c.guild === null) return { type: 'accept_guild', invitation: i.id };
  const offer = answerOffers(s, c, true);
  if (offer) return offer;
  const g = guildOf(s, c);
  // bank fragments in the guild vault when standing at home, so any member can use the vault route
  if (g && g.home === c.zone) {
    const f = c.items.find((it) => isFragment(it));
    if (f && !holdsAllFragments(c.items)) return { type: 'deposit', item: f };
  }
  const b = basics(s, c, false);
  if (b) return b;
  // found a guild where the first fragment was found, so the vault sits mid-spine
  if (!g && c.items.some((it) => isFragment(it)) && c.zone !== EXIT) return { type: 'found_guild', term: 30 };
  for (const o of others(s, c, true)) {
    if (g && o.guild === null && ok(s, seat, { type: 'invite_guild', to: o.seat })) return { type: 'invite_guild', to: o.seat };
    if (!pactBetween(s, seat, o.seat) && ok(s, seat, { type: 'propose_alliance', to: o.seat, turns: 10 })) return { type: 'propose_alliance', to: o.seat, turns: 10 };
  }
  if (rnd.int(6) === 0) return { type: 'say', text: `Turn ${s.turn + 1}: I hold ${fragmentsHeld(c.items)} fragment(s); let us share the vault.` };
  if (g && fragmentsHeld(c.items) > 0 && c.zone !== g.home) {
    const next = stepToward(s, c, g.home);
    if (next !== null) return { type: 'move', to: next };
  }
  return explore(s, c, mem, rnd, false);
}

function greedy(s: BncState, c: Contestant, mem: Memory, rnd: Rand): Action {
  const offer = answerOffers(s, c, false);
  if (offer) return offer;
  const b = basics(s, c, true);
  if (b) return b;
  // having searched the middle zones, a healthy greedy contestant goes to fight the Warden
  if (!s.warden.down && c.health > 6 && [1, 2, 3, 4].every((z) => mem.visited.includes(z))) {
    const next = stepToward(s, c, EXIT);
    if (next !== null) return { type: 'move', to: next };
  }
  if (c.zone === EXIT && !s.warden.down) {
    const away = neighbours(s, c).find((z) => z !== EXIT);
    if (away !== undefined) return { type: 'move', to: away };
  }
  return explore(s, c, mem, rnd, false);
}

function treacherous(s: BncState, c: Contestant, mem: Memory, rnd: Rand): Action {
  const seat = c.seat;
  for (const p of s.pacts) if ((p.a === seat || p.b === seat) && s.turn + 1 - p.formed >= 3) return { type: 'break_alliance', pact: p.id };
  for (const p of s.proposals) if (p.to === seat) return { type: 'accept_alliance', proposal: p.id };
  for (const i of s.invitations) if (i.to === seat && c.guild === null) return { type: 'accept_guild', invitation: i.id };
  const g = guildOf(s, c);
  if (g && g.home === c.zone && g.vault.length > 0) return { type: 'withdraw', item: g.vault[0] };
  if (g && c.withdrawn > c.deposited) return { type: 'leave_guild' };
  const offer = answerOffers(s, c, true);
  if (offer) return offer;
  const b = basics(s, c, true);
  if (b) return b;
  for (const o of others(s, c, true)) {
    const a: Action = { type: 'propose_alliance', to: o.seat, turns: 30 };
    if (ok(s, seat, a)) return a;
  }
  return explore(s, c, mem, rnd, false);
}

function cautious(s: BncState, c: Contestant, mem: Memory, rnd: Rand): Action {
  const seat = c.seat;
  for (const p of s.proposals) if (p.to === seat) return { type: 'accept_alliance', proposal: p.id };
  const offer = answerOffers(s, c, false);
  if (offer) return offer;
  if (c.zone === EXIT && !s.warden.down && !canEscape(s, c)) {
    const away = neighbours(s, c).find((z) => z !== EXIT);
    if (away !== undefined) return { type: 'move', to: away };
  }
  const b = basics(s, c, false);
  if (b) return b;
  // search the zone once before leaving it (waiting discovers shortcuts, U03)
  if (!mem.visited.includes(-1 - c.zone)) {
    mem.visited.push(-1 - c.zone);
    return WAIT;
  }
  if (c.health <= 4) return WAIT;
  return explore(s, c, mem, rnd, false);
}

const POLICIES: Record<Temperament, (s: BncState, c: Contestant, mem: Memory, rnd: Rand) => Action> = { cooperative, greedy, treacherous, cautious };

/** The scripted choice for `seat`; always an action `check` accepts (else wait). */
export function choosePolicy(t: Temperament, s: BncState, seat: number, mem: Memory, rnd: Rand): Action {
  const c = s.contestants[seat];
  if (!mem.visited.includes(c.zone)) mem.visited.push(c.zone);
  const a = POLICIES[t](s, c, mem, rnd);
  return check(s, seat, a) === null ? a : WAIT;
}

function policyAgent(t: Temperament): AgentFactory<Action, BncState> {
  return () => {
    const mem: Memory = { visited: [] };
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
  const s = setupState({ contestants: lineup.length }, seed);
  const mems: Memory[] = lineup.map(() => ({ visited: [] }));
  const rnd = new SeededRandom(seed ^ 0x6b6e63);
  const events: GameEvent[] = [];
  const scratch: GameEvent[] = [];
  let actions = 0;
  while (!s.over) {
    for (const c of s.contestants) {
      if (c.status !== 'active' || c.submitted !== null || s.over) continue;
      const a = choosePolicy(lineup[c.seat], s, c.seat, mems[c.seat], rnd);
      submit(s, c.seat, a, keepEvents ? events : scratch);
      if (!keepEvents) scratch.length = 0;
      actions++;
    }
  }
  return { state: s, events, actions };
}
