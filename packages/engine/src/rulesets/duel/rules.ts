// The turn procedure as a machine of micro-steps. `advance` runs automatic steps until a seat owes a
// decision (s.ask) or the game ends; `decide` applies one chosen action. Every micro-step returns
// the name of the contract (or profile rule) it claims, and an optional tracer sees each step's
// before/after so the contracts can be checked on it (checks.ts). Without a tracer the only cost
// is one null test per step.
//
// Steps: corp  C1 gain clicks, C2 paid window, C4 formal begin, C5 required draw, C6 draw phase done;
//        runner R1 gain clicks, R2 paid window, R4 formal begin;
//        both  A1 paid window, A2 action window (or ordinary end), A3 action resolving, AD directed end,
//              A5 ending checkpoint done -> discard, D1 discard step, D2 paid window, D3 lose clicks,
//              D4 formal end, D5 handoff.

import { nextInt, type GameEvent, type Outcome } from '../../kernel/index.ts';
import { ABILITY_GAIN, CARDS } from './cards.ts';
import { OutcomeOf, ObjectiveWinners, Points, FATAL_REASON } from './contracts/objective.ts';
import {
  CORP,
  RUNNER,
  type Ability,
  type ActionFrame,
  type Ask,
  type ClickAction,
  type DuelAction,
  type DuelState,
  type Frame,
  type Run,
  type SeatState,
  type Window,
} from './state.ts';

type Tracer = (
  claim: string,
  before: DuelState,
  after: DuelState,
  events: GameEvent[],
  action: DuelAction | null,
) => void;

let tracer: Tracer | null = null;

/** Run `fn` with every micro-step reported to `t` (used by checkTransition and tests). */
export function withTracer<T>(t: Tracer, fn: () => T): T {
  const prev = tracer;
  tracer = t;
  try {
    return fn();
  } finally {
    tracer = prev;
  }
}

// Copy-on-write: the engine never changes an array of the state in place (it builds a new one),
// and the objects inside those arrays (cards, heap and score items, abilities), the rng, the frame's
// begun counts, the pending ask and the result are never changed once made. The small records it
// does change in place (the seats and their array, the turn frame, the action, the run, the remote)
// are shared by a clone as well, and copied the first time the engine writes to one of them in a
// state (seatW, turnW, actionW, runW, remoteW below). So a clone is one object plus copies of the
// open windows, which keeps clones (and the explorer's frontier) small. Everything is still plain
// JSON, and code outside the engine must not change a state's records in place (use the engine).
// Copies are written field by field, in the order the engine first builds each record, so every
// copy keeps the original's hidden class (`{ ...x }` copies drifted to several, which made the
// code reading them polymorphic).
export function clone(s: DuelState): DuelState {
  // the clone shares every record of `s`, so none of them is private to `s` any more
  if (owner === s) owner = null;
  return {
    cfg: s.cfg,
    rng: s.rng,
    turn: s.turn,
    step: s.step,
    next: s.next,
    p: s.p,
    remote: s.remote,
    ice: s.ice,
    core: s.core,
    skip: s.skip,
    directed: s.directed,
    action: s.action,
    run: s.run,
    receipt: s.receipt,
    dmg: s.dmg,
    cpDue: s.cpDue,
    queue: s.queue,
    win: s.win.length === 0 ? s.win : s.win.map(cloneWindow),
    ask: s.ask,
    turns: s.turns,
    result: s.result,
  };
}

// Which shared records the state `owner` has already copied for itself (bits below). Any other
// state is taken to share all of them, so the first write to a record in it copies the record
// (copying a record that happened to be private already wastes a copy, never changes a result).
let owner: DuelState | null = null;
let owned = 0;
const OWN_P = 1;
const OWN_SEAT0 = 2;
const OWN_SEAT1 = 4;
const OWN_TURN = 8;
const OWN_ACTION = 16;
const OWN_RUN = 32;
const OWN_REMOTE = 64;

/** Marks records of `s` as its own: one it just copied, or a fresh one the engine made. */
function own(s: DuelState, bits: number): void {
  if (owner !== s) {
    owner = s;
    owned = 0;
  }
  owned |= bits;
}

function isOwn(s: DuelState, bit: number): boolean {
  return owner === s && (owned & bit) !== 0;
}

/** Seat `i` of `s` for writing: copied (with the seat array) on the first write in `s`. */
function seatW(s: DuelState, i: number): SeatState {
  const bit = i === 0 ? OWN_SEAT0 : OWN_SEAT1;
  if (!isOwn(s, bit)) {
    if (!isOwn(s, OWN_P)) {
      s.p = s.p.slice();
      own(s, OWN_P);
    }
    s.p[i] = cloneSeat(s.p[i]);
    own(s, bit);
  }
  return s.p[i];
}

/** The turn frame of `s` for writing. */
function turnW(s: DuelState): Frame {
  if (!isOwn(s, OWN_TURN)) {
    const t = s.turn;
    s.turn = {
      owner: t.owner,
      phase: t.phase,
      id: t.id,
      formalBegun: t.formalBegun,
      formalEnded: t.formalEnded,
      begunCounts: t.begunCounts,
    };
    own(s, OWN_TURN);
  }
  return s.turn;
}

/** The (non-null) action frame of `s` for writing. */
function actionW(s: DuelState): ActionFrame {
  if (!isOwn(s, OWN_ACTION)) {
    const a = s.action!;
    s.action = { id: a.id, owner: a.owner, kind: a.kind, card: a.card, status: a.status, child: a.child, fx: a.fx };
    own(s, OWN_ACTION);
  }
  return s.action!;
}

/** The (non-null) run of `s` for writing. */
function runW(s: DuelState): Run {
  if (!isOwn(s, OWN_RUN)) {
    const r = s.run!;
    s.run = { id: r.id, stage: r.stage, success: r.success, pos: r.pos };
    own(s, OWN_RUN);
  }
  return s.run!;
}

/** The (non-null) remote of `s` for writing. */
function remoteW(s: DuelState): { card: string; adv: number } {
  if (!isOwn(s, OWN_REMOTE)) {
    const r = s.remote!;
    s.remote = { card: r.card, adv: r.adv };
    own(s, OWN_REMOTE);
  }
  return s.remote!;
}

// Sharing instead of making: the engine's empty lists (windows, queue, a paid window's abilities)
// are one frozen empty array, and equal pending asks are one frozen object, since neither is ever
// changed in place. Same JSON, fewer objects per state.
const NONE: never[] = [];
Object.freeze(NONE);
const ASKS = new Map<string, Ask[][]>();

function askOf(seat: number, kind: string, count: number): Ask {
  let bySeat = ASKS.get(kind);
  if (bySeat === undefined) ASKS.set(kind, (bySeat = []));
  let byCount = bySeat[seat];
  if (byCount === undefined) byCount = bySeat[seat] = [];
  let a = byCount[count];
  if (a === undefined) a = byCount[count] = Object.freeze({ seat, kind, count });
  return a;
}

/** `list` without its last element (the shared empty array when that leaves nothing). */
function dropLast<T>(list: readonly T[]): T[] {
  return list.length <= 1 ? NONE : list.slice(0, -1);
}

function cloneWindow(w: Window): Window {
  return { kind: w.kind, prio: w.prio, passed: w.passed, abilities: w.abilities };
}

function cloneStreams(st: Record<string, [number, number, number, number]>) {
  const out: Record<string, [number, number, number, number]> = {};
  for (const k in st) out[k] = st[k].slice() as [number, number, number, number];
  return out;
}

function cloneSeat(p: SeatState): SeatState {
  return {
    clicks: p.clicks,
    credits: p.credits,
    deck: p.deck,
    hand: p.hand,
    heap: p.heap,
    score: p.score,
    installed: p.installed,
  };
}

/** The top card of the deck moves to the hand (new arrays, copy-on-write). */
function drawOne(p: SeatState): void {
  p.hand = [...p.hand, p.deck[0]];
  p.deck = p.deck.slice(1);
}

/** `list` without one copy of `card`. */
function without(list: readonly string[], card: string): string[] {
  const i = list.indexOf(card);
  return i < 0 ? list.slice() : [...list.slice(0, i), ...list.slice(i + 1)];
}

// ---------------------------------------------------------------- helpers

export function effectiveMaxHand(s: DuelState, seat: number): number {
  return s.cfg.maxHand[seat] - (seat === RUNNER ? s.core : 0);
}

export function points(s: DuelState): number[] {
  // broken variant: only agenda cards count (the start and venture tokens are forgotten)
  if (s.cfg.variant === 'points_ignore_tokens')
    return s.p.map((p) => Points(p.score.filter((x) => x.card in CARDS && CARDS[x.card].kind === 'agenda')));
  return [Points(s.p[0].score), Points(s.p[1].score)];
}

/** Abilities that trigger on a procedure event, appended to the queue for the next checkpoint. */
function trigger(s: DuelState, on: 'turn_begin' | 'run_paid' | 'phase_end' | 'taken', who: number): void {
  const owner = s.turn.owner;
  if (on === 'turn_begin' && owner === RUNNER) {
    for (const c of s.p[RUNNER].installed) if (c === 'coffee') s.queue = [...s.queue, { src: 'coffee', who: RUNNER }];
  } else if (on === 'turn_begin' && s.cfg.variant === 'begin_trigger_second_copy') {
    // broken variant: every copy of a "when your turn begins" card after the first fires at the
    // corp's turn begin as well (no scenario installs two copies)
    const copies = s.p[RUNNER].installed.filter((c) => c === 'coffee').length;
    for (let i = 1; i < copies; i++) s.queue = [...s.queue, { src: 'coffee', who: RUNNER }];
  } else if (on === 'run_paid') {
    for (const c of s.p[CORP].installed) if (c === 'toll') s.queue = [...s.queue, { src: 'toll', who: CORP }];
  } else if (on === 'phase_end' && owner === CORP) {
    for (const c of s.p[CORP].installed) if (c === 'bell') s.queue = [...s.queue, { src: 'bell', who: CORP }];
  } else if (on === 'taken') {
    s.queue = [...s.queue, { src: 'ledger', who }];
  }
}

function endGame(s: DuelState, ev: GameEvent[], winners: number[], reason: string): void {
  s.result = { winners, reason };
  ev.push({ type: 'game_over', winners, reason });
}

/** Seats that may use a paid ability now (the corp scores a fully advanced agenda). */
export function paidOptions(s: DuelState, seat: number): boolean {
  return seat === CORP && s.remote !== null && s.remote.adv >= (CARDS[s.remote.card].adv ?? 0);
}

// ---------------------------------------------------------------- the automatic procedure

export function advance(s: DuelState, ev: GameEvent[]): void {
  s.ask = null;
  for (let guard = 0; guard < 100000; guard++) {
    if (s.result !== null) return;
    const b = tracer === null ? null : clone(s);
    const n0 = ev.length;
    const claim = micro(s, ev);
    if (claim === null) return;
    if (b !== null) tracer!(claim, b, s, ev.slice(n0), null);
  }
  throw new Error('duel: the procedure made no decision within 100000 steps');
}

/** One automatic micro-step; null when a seat owes a decision (s.ask set) or nothing can move. */
function micro(s: DuelState, ev: GameEvent[]): string | null {
  const variant = s.cfg.variant;
  // broken variant: effects start as soon as the cost is paid, before its checkpoint and reactions
  if (
    variant === 'effects_before_drain' &&
    s.step === 'A3' &&
    s.action !== null &&
    s.action.status === 'CostReactions'
  ) {
    return effectsBegin(s, ev);
  }
  // broken variant: effects wait for the cost checkpoint but not for the reactions it opened
  if (
    variant === 'effects_skip_reactions' &&
    !s.cpDue &&
    s.step === 'A3' &&
    s.action !== null &&
    s.action.status === 'CostReactions'
  ) {
    return effectsBegin(s, ev);
  }
  if (s.dmg !== null) return dealDamage(s, ev);
  // broken variant: open windows are served before a due checkpoint runs
  if (variant === 'windows_before_checkpoint' && s.win.length > 0) return windowStep(s);
  if (s.cpDue) return checkpoint(s, ev);
  if (s.win.length > 0) return windowStep(s);
  switch (s.step) {
    case 'C1':
    case 'R1': {
      const o = s.turn.owner;
      seatW(s, o).clicks = s.cfg.clicks[o];
      ev.push({ type: 'clicks_gained', seat: o, clicks: s.cfg.clicks[o] });
      s.step = o === CORP ? 'C2' : 'R2';
      return 'GainClicks';
    }
    case 'C2':
    case 'R2':
      openPaid(s);
      s.step = s.step === 'C2' ? 'C4' : 'R4';
      return 'Window';
    case 'C4':
    case 'R4': {
      const t = turnW(s);
      t.formalBegun = true;
      t.begunCounts =
        t.owner === 0 ? [t.begunCounts[0] + 1, t.begunCounts[1]] : [t.begunCounts[0], t.begunCounts[1] + 1];
      // `number` counts turns 1, 2, 3 ... for readers; `turn` is the frame id the contract names
      ev.push({ type: 'turn_begin', turn: t.id, seat: t.owner, number: s.turns, contract: 'TurnFormalBegin5' });
      trigger(s, 'turn_begin', t.owner);
      s.cpDue = true;
      s.step = t.owner === CORP ? 'C5' : 'A1';
      return 'TurnFormalBegin5';
    }
    case 'C5': {
      if (variant === 'decking_not_fatal' && s.p[CORP].deck.length === 0) {
        // broken variant: a required draw from an empty deck is skipped instead of losing
        s.step = 'C6';
        return 'Draw';
      }
      if (s.p[CORP].deck.length === 0) {
        endGame(s, ev, [RUNNER], FATAL_REASON.empty_draw);
        return 'DoFatal';
      }
      drawOne(seatW(s, CORP));
      ev.push({ type: 'drew', seat: CORP, n: 1, required: true });
      s.cpDue = true;
      s.step = 'C6';
      return 'Draw';
    }
    case 'C6':
      turnW(s).phase = 'action';
      s.step = 'A1';
      return 'DrawPhaseComplete';
    case 'A1':
      openPaid(s);
      s.step = 'A2';
      return 'Window';
    case 'A2': {
      const o = s.turn.owner;
      if (s.p[o].clicks > 0) {
        s.ask = askOf(o, 'action', 0);
        return null;
      }
      ev.push({ type: 'action_phase_end', seat: o, mode: 'ordinary', contract: 'PhaseEndOrdinary' });
      trigger(s, 'phase_end', o);
      s.cpDue = true;
      s.step = 'A5';
      return 'PhaseEndOrdinary';
    }
    case 'A3':
      return actionStep(s, ev);
    case 'AD': {
      const o = s.turn.owner;
      s.win = NONE;
      s.directed = false;
      ev.push({ type: 'action_phase_end', seat: o, mode: 'directed', contract: 'PhaseEndDirected' });
      trigger(s, 'phase_end', o);
      // broken variant: the directed end does not make its ending checkpoint due
      if (variant !== 'directed_skips_checkpoint') s.cpDue = true;
      s.step = 'A5';
      return 'PhaseEndDirected';
    }
    case 'A5':
      if (variant !== 'directed_skips_checkpoint' && s.queue.length > 0) {
        // pending abilities are retired only by a checkpoint; make one due before leaving the phase
        s.cpDue = true;
        return 'Checkpoint';
      }
      turnW(s).phase = 'discard';
      s.step = 'D1';
      ev.push({ type: 'phase', seat: s.turn.owner, phase: 'discard', contract: 'PhaseEndComplete' });
      return 'PhaseEndComplete';
    case 'D1':
      return discardStep(s, ev);
    case 'D2':
      openPaid(s);
      s.step = 'D3';
      return 'Window';
    case 'D3':
      seatW(s, s.turn.owner).clicks = 0;
      s.step = 'D4';
      return 'LoseClicks';
    case 'D4': {
      const t = turnW(s);
      t.formalEnded = true;
      // the running totals ride on the end event so a log reader sees the score between turns
      ev.push({
        type: 'turn_end',
        turn: t.id,
        seat: t.owner,
        number: s.turns,
        points: points(s),
        credits: [s.p[0].credits, s.p[1].credits],
        hands: [s.p[0].hand.length, s.p[1].hand.length],
        contract: 'TurnFormalEnd5',
      });
      s.cpDue = true;
      s.step = 'D5';
      return 'TurnFormalEnd5';
    }
    case 'D5': {
      if (s.turns >= s.cfg.turns) {
        endGame(s, ev, [], 'turn limit');
        return 'TurnBound';
      }
      const t = turnW(s);
      const to = 1 - t.owner;
      const id = s.next++;
      ev.push({ type: 'handoff', from: t.owner, to, turn: id, contract: 'TurnHandoff5' });
      t.owner = to;
      t.phase = to === CORP ? 'draw' : 'action';
      t.id = id;
      t.formalBegun = false;
      t.formalEnded = false;
      // broken variant: handoff starts the begun counts again
      if (variant === 'handoff_resets_counts') t.begunCounts = [0, 0];
      s.turns++;
      s.step = to === CORP ? 'C1' : 'R1';
      return 'TurnHandoff5';
    }
  }
  throw new Error(`duel: unknown step ${s.step}`);
}

function openPaid(s: DuelState): void {
  s.win = [...s.win, { kind: 'paid', prio: s.turn.owner, passed: false, abilities: NONE }];
}

/** Top window: a seat with nothing to do passes automatically; otherwise it is asked. */
function windowStep(s: DuelState): string | null {
  const w = s.win[s.win.length - 1];
  if (w.kind === 'paid') {
    if (paidOptions(s, w.prio)) {
      s.ask = askOf(w.prio, 'paid', 0);
      return null;
    }
    passPaid(s);
    return 'Window';
  }
  if (w.abilities.length === 0) {
    s.win = dropLast(s.win);
    return 'Window';
  }
  // the active seat resolves its abilities first (U-react)
  const o = s.turn.owner;
  const seat = w.abilities.some((a) => a.who === o) ? o : 1 - o;
  s.ask = askOf(seat, 'react', 0);
  return null;
}

function passPaid(s: DuelState): void {
  const w = s.win[s.win.length - 1];
  if (w.passed) s.win = dropLast(s.win);
  else {
    w.passed = true;
    w.prio = 1 - w.prio;
  }
}

/** DoCheckpoint: winners first, then retire pending abilities into a reaction window. */
function checkpoint(s: DuelState, ev: GameEvent[]): string {
  if (s.cfg.variant === 'winners_after_drain' && s.queue.length > 0) {
    // broken variant: drains pending abilities before testing winners
    s.cpDue = false;
    s.win = [...s.win, { kind: 'react', prio: s.turn.owner, passed: false, abilities: s.queue }];
    s.queue = NONE;
    return 'DoCheckpoint';
  }
  const w = ObjectiveWinners(points(s));
  s.cpDue = false;
  if (w.length > 0) {
    const o = OutcomeOf(w);
    endGame(s, ev, o.winners, o.reason);
    return 'DoCheckpoint';
  }
  if (s.queue.length > 0) {
    ev.push({ type: 'reaction_window', abilities: s.queue.map((a) => a.src), seats: s.queue.map((a) => a.who) });
    s.win = [...s.win, { kind: 'react', prio: s.turn.owner, passed: false, abilities: s.queue }];
    s.queue = NONE;
  }
  return 'DoCheckpoint';
}

function dealDamage(s: DuelState, ev: GameEvent[]): string {
  const d = s.dmg!;
  const r = s.p[RUNNER];
  const fatal = s.cfg.variant === 'damage_not_strict' ? d.n >= r.hand.length : d.n > r.hand.length;
  if (fatal) {
    // the damage is reported even though it ends the game (nothing is trashed: the game is over)
    ev.push({ type: 'damage', seat: RUNNER, n: d.n, core: d.core, trashed: [], hand: r.hand.length, flatline: true });
    endGame(s, ev, [CORP], FATAL_REASON.damage);
    return 'DoFatal';
  }
  const trashed: string[] = [];
  // the rng is shared between clones: give this state its own copy before drawing from it
  s.rng = { seed: s.rng.seed, streams: cloneStreams(s.rng.streams) };
  const rw = seatW(s, RUNNER);
  const hand = rw.hand.slice();
  for (let i = 0; i < d.n; i++) {
    const k = nextInt(s.rng, 'damage', hand.length);
    trashed.push(hand.splice(k, 1)[0]);
  }
  rw.hand = hand;
  rw.heap = [...rw.heap, ...trashed.map((card) => ({ card, up: true }))];
  if (d.core) s.core++;
  s.dmg = null;
  ev.push({ type: 'damage', seat: RUNNER, n: d.n, core: d.core, trashed });
  return 'Damage';
}

function discardStep(s: DuelState, ev: GameEvent[]): string | null {
  const o = s.turn.owner;
  const max = effectiveMaxHand(s, o);
  const negFirst = s.cfg.variant === 'neg_limit_before_skip';
  if (o === RUNNER && negFirst && max < 0) {
    endGame(s, ev, [CORP], FATAL_REASON.negative_limit);
    return 'DoFatal';
  }
  if (o === RUNNER && s.skip) {
    s.skip = false;
    s.step = 'D2';
    ev.push({ type: 'discard_skipped', seat: o, max, contract: 'DiscardStep' });
    return 'DiscardStep';
  }
  if (max < 0) {
    endGame(s, ev, [CORP], FATAL_REASON.negative_limit);
    return 'DoFatal';
  }
  const need = s.p[o].hand.length - max;
  if (need > 0) {
    s.ask = askOf(o, 'discard', need);
    return null;
  }
  s.step = 'D2';
  return 'DiscardStep';
}

// ---------------------------------------------------------------- actions

function effectsBegin(s: DuelState, ev: GameEvent[]): string {
  const a = actionW(s);
  a.status = 'Effects';
  ev.push({ type: 'effects_begin', action: a.id, contract: 'ActionEffectsBegin5' });
  return 'ActionEffectsBegin5';
}

function actionStep(s: DuelState, ev: GameEvent[]): string | null {
  const a = s.action;
  if (a === null) throw new Error('duel: step A3 without an action frame');
  switch (a.status) {
    case 'CostReactions':
      return effectsBegin(s, ev);
    case 'Effects':
      if (a.fx === 0) {
        const aw = actionW(s);
        aw.fx = 1;
        effect(s, aw.owner, aw.kind, aw.card, ev);
        s.cpDue = true;
        return 'Effect';
      }
      actionW(s).status = 'Complete';
      ev.push({ type: 'action_complete', action: a.id, contract: 'ActionComplete' });
      return 'ActionComplete';
    case 'Nested': {
      const loose = s.cfg.variant === 'return_any_receipt';
      if (s.cfg.variant === 'done_without_complete' && s.receipt === a.child) {
        // broken variant: the child's completion is taken as the action's, and its frame is dropped
        s.action = null;
        s.step = s.directed ? 'AD' : 'A1';
        return 'ActionDone';
      }
      if (loose ? s.receipt !== 0 : s.receipt === a.child) {
        ev.push({
          type: 'child_returned',
          action: a.id,
          child: a.child,
          receipt: s.receipt,
          contract: 'ActionNestedReturn5',
        });
        const aw = actionW(s);
        aw.status = 'Effects';
        aw.child = 0;
        return 'ActionNestedReturn5';
      }
      if (s.run !== null) return runStep(s, ev);
      return null; // waiting on a child that no longer exists: a deadlock the explorer reports
    }
    case 'Complete':
      s.action = null;
      s.step = s.directed ? 'AD' : 'A1';
      return 'ActionDone';
  }
}

function runStep(s: DuelState, ev: GameEvent[]): string | null {
  const r = s.run!;
  switch (r.stage) {
    case 'ini': {
      ev.push({ type: 'run_start', run: r.id });
      // the run meets the outermost ICE first, then the next inward, then approaches the server
      const rw = runW(s);
      if (s.ice.length > 0) {
        rw.stage = 'ice';
        rw.pos = s.ice.length - 1;
      } else rw.stage = 'app';
      return 'Run';
    }
    case 'ice':
      s.ask = askOf(RUNNER, 'encounter', 0);
      return null;
    case 'app':
      s.ask = askOf(RUNNER, 'approach', 0);
      return null;
    case 'suc': {
      const rw = runW(s);
      rw.success = true;
      ev.push({ type: 'run_success', run: rw.id });
      rw.stage = 'brc';
      return 'Run';
    }
    case 'brc':
      if (s.remote !== null) {
        const card = s.remote.card;
        s.remote = null;
        const rn = seatW(s, RUNNER);
        rn.score = [...rn.score, { card, pts: CARDS[card].pts ?? 0 }];
        ev.push({ type: 'stolen', seat: RUNNER, card });
        if (s.cfg.variant === 'steal_opens_window') {
          // broken variant: the "when taken" ability skips the queue and opens its own window
          s.win = [
            ...s.win,
            { kind: 'react', prio: s.turn.owner, passed: false, abilities: [{ src: 'ledger', who: RUNNER }] },
          ];
        } else trigger(s, 'taken', RUNNER);
        s.cpDue = true;
      } else {
        ev.push({ type: 'breach_empty', run: r.id });
      }
      runW(s).stage = 'end';
      return 'Run';
    case 'end':
      s.receipt = r.id;
      s.run = null;
      ev.push({ type: 'run_end', run: r.id, success: r.success });
      return 'RunComplete';
  }
}

function effect(s: DuelState, seat: number, kind: string, card: string | null, ev: GameEvent[]): void {
  switch (kind) {
    case 'credit':
      seatW(s, seat).credits++;
      ev.push({ type: 'gained', seat, credits: 1 });
      return;
    case 'draw':
      drawOne(seatW(s, seat));
      ev.push({ type: 'drew', seat, n: 1, required: false });
      return;
    case 'advance':
      if (s.remote !== null) remoteW(s).adv++;
      ev.push({ type: 'advanced', seat, adv: s.remote === null ? 0 : s.remote.adv });
      return;
    case 'install': {
      const c = card!;
      actionW(s).card = null;
      const me = seatW(s, seat);
      if (CARDS[c].kind === 'ice') {
        s.ice = [...s.ice, c];
        ev.push({ type: 'installed', seat, card: c, where: 'ice' });
      } else if (CARDS[c].kind === 'agenda') {
        if (s.remote !== null) me.heap = [...me.heap, { card: s.remote.card, up: false }];
        s.remote = { card: c, adv: 0 };
        own(s, OWN_REMOTE);
        ev.push({ type: 'installed', seat, where: 'remote' });
      } else {
        me.installed = [...me.installed, c];
        ev.push({ type: 'installed', seat, card: c });
      }
      return;
    }
    case 'run': {
      const id = s.next++;
      s.run = { id, stage: 'ini', success: false, pos: -1 };
      own(s, OWN_RUN);
      const aw = actionW(s);
      aw.child = id;
      aw.status = 'Nested';
      ev.push({ type: 'child_started', action: s.action!.id, child: id });
      return;
    }
    case 'play':
      playCard(s, seat, card!, ev);
      return;
  }
  throw new Error(`duel: unknown action kind ${kind}`);
}

function playCard(s: DuelState, seat: number, card: string, ev: GameEvent[]): void {
  ev.push({ type: 'played', seat, card });
  switch (card) {
    case 'spike':
      s.dmg = { n: 3, core: false };
      return;
    case 'burn':
      s.dmg = { n: 1, core: true };
      return;
    case 'stop':
      seatW(s, seat).credits += 2;
      s.directed = true;
      return;
    case 'venture':
      seatW(s, 0).score = [...s.p[0].score, { card: 'venture', pts: 2 }];
      seatW(s, 1).score = [...s.p[1].score, { card: 'venture', pts: 2 }];
      return;
    case 'dayoff':
      s.skip = true;
      return;
    case 'gamble':
      seatW(s, seat).credits += 3;
      return;
  }
}

// ---------------------------------------------------------------- decisions

/** Apply a decision that validate accepted (or a menu element), then run on to the next decision. */
export function apply(s: DuelState, seat: number, a: DuelAction, ev: GameEvent[]): void {
  const b = tracer === null ? null : clone(s);
  const n0 = ev.length;
  s.ask = null;
  const claim = decide(s, seat, a, ev);
  if (b !== null) tracer!(claim, b, s, ev.slice(n0), a);
  advance(s, ev);
}

function decide(s: DuelState, seat: number, a: DuelAction, ev: GameEvent[]): string {
  switch (a.type) {
    case 'pass':
      passPaid(s);
      return 'Window';
    case 'score': {
      const card = s.remote!.card;
      s.remote = null;
      const corp = seatW(s, CORP);
      corp.score = [...corp.score, { card, pts: CARDS[card].pts ?? 0 }];
      s.win[s.win.length - 1].passed = false;
      ev.push({ type: 'scored', seat: CORP, card });
      trigger(s, 'taken', CORP);
      // broken variant: a checkpoint is made due only when the score wins (as if checkpoints were
      // there for the win test alone); a score short of 7 leaves its "when scored" ability queued
      if (s.cfg.variant !== 'score_checkpoint_if_winning' || ObjectiveWinners(points(s)).length > 0) s.cpDue = true;
      return 'Score';
    }
    case 'resolve': {
      const w = s.win[s.win.length - 1];
      const i = w.abilities.findIndex((x: Ability) => x.who === seat && x.src === a.src);
      w.abilities = [...w.abilities.slice(0, i), ...w.abilities.slice(i + 1)];
      // broken variant: the window closes once its first ability resolved
      if (s.cfg.variant === 'react_window_closes_early') w.abilities = NONE;
      const gain = ABILITY_GAIN[a.src] ?? 0;
      seatW(s, seat).credits += gain;
      ev.push({ type: 'reaction', seat, src: a.src, credits: gain });
      s.cpDue = true;
      return 'Reaction';
    }
    case 'continue':
      runW(s).stage = 'suc';
      return 'Run';
    case 'jack_out':
      runW(s).stage = 'end';
      ev.push({ type: 'jack_out', run: s.run!.id });
      return 'Run';
    case 'break': {
      const r = runW(s);
      const c = s.ice[r.pos];
      const cost = s.cfg.variant === 'free_break' ? 0 : (CARDS[c].brk ?? 0); // broken variant: breaking is free
      seatW(s, RUNNER).credits -= cost;
      ev.push({ type: 'ice_broken', run: r.id, card: c, credits: cost });
      passIce(r);
      s.cpDue = true;
      return 'Encounter';
    }
    case 'fire': {
      const r = runW(s);
      const c = s.ice[r.pos];
      if (CARDS[c].sub === 'end_run') {
        ev.push({ type: 'subroutine', run: r.id, card: c, effect: 'end the run' });
        r.stage = 'end';
        r.pos = -1;
      } else {
        ev.push({ type: 'subroutine', run: r.id, card: c, effect: '2 net damage' });
        s.dmg = { n: 2, core: false };
        passIce(r);
      }
      s.cpDue = true;
      return 'Encounter';
    }
    case 'discard': {
      const me = seatW(s, seat);
      let hand: string[] = me.hand;
      for (const c of a.cards) hand = without(hand, c);
      me.hand = hand;
      me.heap = [...me.heap, ...a.cards.map((card) => ({ card, up: seat === RUNNER }))];
      ev.push({
        type: 'discarded',
        seat,
        n: a.cards.length,
        ...(seat === RUNNER ? { cards: a.cards.slice() } : {}),
        contract: 'DiscardStep',
      });
      s.step = 'D2';
      return 'DiscardStep';
    }
  }
  return startAction(s, seat, a, ev);
}

/** The run moves past the ICE it met: to the next one inward, or on to the server's approach. */
function passIce(r: Run): void {
  r.pos--;
  if (r.pos < 0) {
    r.stage = 'app';
    r.pos = -1;
  }
}

/** CR 5.2.2: an action starts at the owner's action window; costs are paid, then cost reactions. */
function startAction(s: DuelState, seat: number, a: ClickAction, ev: GameEvent[]): string {
  const me = seatW(s, seat);
  const card = a.type === 'install' || a.type === 'play' ? a.card : null;
  let credits = 0;
  if (a.type === 'advance') credits = s.cfg.variant === 'free_advance' ? 0 : 1;
  else if (card !== null) credits = CARDS[card].cost;
  me.clicks--;
  me.credits -= credits;
  if (card !== null) {
    me.hand = without(me.hand, card);
    if (a.type === 'play') me.heap = [...me.heap, { card, up: true }];
  }
  const id = s.next++;
  s.action = { id, owner: seat, kind: a.type, card, status: 'CostReactions', child: 0, fx: 0 };
  own(s, OWN_ACTION);
  ev.push({
    type: 'action',
    seat,
    action: id,
    kind: a.type,
    ...(card !== null && (a.type === 'play' || seat === RUNNER || CARDS[card].kind !== 'agenda') ? { card } : {}),
    clicks: 1,
    credits,
  });
  if (a.type === 'run') trigger(s, 'run_paid', seat);
  s.cpDue = true; // a checkpoint follows every cost, even a zero one
  s.step = 'A3';
  return 'ActionStart';
}

/** The recorded result as the kernel's outcome: places and the objective points of both seats. */
export function outcome(s: DuelState): Outcome | null {
  if (s.result === null) return null;
  const w = s.result.winners;
  return {
    winners: w.slice(),
    places: w.length === 1 ? (w[0] === 0 ? [1, 2] : [2, 1]) : [1, 1],
    scores: points(s),
    reason: s.result.reason,
  };
}
