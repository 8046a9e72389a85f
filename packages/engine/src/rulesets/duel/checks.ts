// checkTransition: re-runs a transition with the tracer on and checks every micro-step against the
// contract it claims. The supplied facts (drained, completed id, at-step, effective maximum ...)
// are computed here from the before-snapshot — the "provider" — never taken from the engine.

import type { GameEvent } from '../../kernel/index.ts';
import {
  ActionComplete,
  ActionDone,
  EncounterIce,
  type EncounterRecord,
  ActionEffectsBegin5,
  ActionNestedReturn5,
  DiscardStep,
  DoCheckpoint,
  DoFatal,
  PhaseEndComplete,
  PhaseEndDirected,
  PhaseEndOrdinary,
  PointsCheckpointDue,
  TurnBeginTriggers,
  TurnFormalBegin5,
  TurnFormalEnd5,
  TurnFrameValid5,
  TurnHandoff5,
  describeFailure,
  except,
  fail,
  frameEquals,
  same,
  type FatalCondition,
  type ProcRecord,
  type Verdict,
} from './contracts/index.ts';
import { ABILITY_GAIN, CARDS } from './cards.ts';
import { apply, clone, effectiveMaxHand, points, withTracer } from './rules.ts';
import { CORP, RUNNER, type DuelAction, type DuelState } from './state.ts';

/**
 * What each micro-step may change: the top-level state fields it may write and the event types it
 * may emit. Everything else must stay byte-identical, so a step that names no seed contract
 * (a window, a reaction, a run stage, an effect) still cannot touch the action frame, the queue,
 * the windows, the checkpoint flag or the event stream beyond its own. `ask` is exempt: the
 * decision marker is set around every decision.
 */
const STEP_FRAME: Record<string, { fields: readonly (keyof DuelState)[]; events: readonly string[] }> = {
  GainClicks: { fields: ['p', 'step'], events: ['clicks_gained'] },
  Window: { fields: ['win', 'step'], events: [] },
  TurnFormalBegin5: { fields: ['turn', 'step', 'queue', 'cpDue'], events: ['turn_begin'] },
  Draw: { fields: ['p', 'cpDue', 'step'], events: ['drew'] },
  DrawPhaseComplete: { fields: ['turn', 'step'], events: [] },
  PhaseEndOrdinary: { fields: ['step', 'queue', 'cpDue'], events: ['action_phase_end'] },
  ActionStart: { fields: ['p', 'next', 'action', 'cpDue', 'step', 'queue'], events: ['action'] },
  ActionEffectsBegin5: { fields: ['action'], events: ['effects_begin'] },
  Effect: {
    fields: ['action', 'p', 'remote', 'ice', 'run', 'next', 'dmg', 'directed', 'skip', 'cpDue'],
    events: ['gained', 'drew', 'advanced', 'installed', 'played', 'child_started'],
  },
  ActionComplete: { fields: ['action'], events: ['action_complete'] },
  ActionNestedReturn5: { fields: ['action'], events: ['child_returned'] },
  ActionDone: { fields: ['action', 'step'], events: [] },
  Run: {
    fields: ['run', 'remote', 'p', 'queue', 'cpDue'],
    events: ['run_start', 'run_success', 'stolen', 'breach_empty', 'jack_out'],
  },
  Encounter: { fields: ['run', 'p', 'dmg', 'cpDue'], events: ['ice_broken', 'subroutine'] },
  RunComplete: { fields: ['run', 'receipt'], events: ['run_end'] },
  Score: { fields: ['remote', 'p', 'win', 'queue', 'cpDue'], events: ['scored'] },
  Reaction: { fields: ['win', 'p', 'cpDue'], events: ['reaction'] },
  DoCheckpoint: { fields: ['cpDue', 'result', 'queue', 'win'], events: ['game_over', 'reaction_window'] },
  Checkpoint: { fields: ['cpDue'], events: [] },
  PhaseEndDirected: { fields: ['step', 'queue', 'cpDue', 'win', 'directed'], events: ['action_phase_end'] },
  PhaseEndComplete: { fields: ['turn', 'step'], events: ['phase'] },
  DiscardStep: { fields: ['p', 'skip', 'step'], events: ['discard_skipped', 'discarded'] },
  Damage: { fields: ['rng', 'p', 'core', 'dmg'], events: ['damage'] },
  DoFatal: { fields: ['result'], events: ['damage', 'game_over'] },
  LoseClicks: { fields: ['p', 'step'], events: [] },
  TurnFormalEnd5: { fields: ['turn', 'step', 'cpDue'], events: ['turn_end'] },
  TurnHandoff5: { fields: ['turn', 'step', 'next', 'turns'], events: ['handoff'] },
  TurnBound: { fields: ['result'], events: ['game_over'] },
};

// The checker before issue 10 (kept so tests can show that only the new checks catch the new
// variants): fields listed for the seed contracts only; other steps checked for frame and result.
const LEGACY_ALLOWED: Record<string, readonly string[]> = {
  TurnFormalBegin5: ['turn', 'step', 'queue', 'cpDue'],
  TurnFormalEnd5: ['turn', 'step', 'cpDue'],
  TurnHandoff5: ['turn', 'step', 'next', 'turns'],
  ActionEffectsBegin5: ['action'],
  ActionNestedReturn5: ['action'],
  ActionComplete: ['action'],
  PhaseEndOrdinary: ['step', 'queue', 'cpDue'],
  PhaseEndDirected: ['step', 'queue', 'cpDue', 'win', 'directed'],
  PhaseEndComplete: ['turn', 'step'],
  DiscardStep: ['p', 'skip', 'step', 'ask'],
  DoCheckpoint: ['cpDue', 'result', 'queue', 'win'],
  DoFatal: ['result'],
};
const MAY_CHANGE_FRAME = new Set([
  'TurnFormalBegin5',
  'TurnFormalEnd5',
  'TurnHandoff5',
  'PhaseEndComplete',
  'DrawPhaseComplete',
]);
const MAY_END_GAME = new Set(['DoCheckpoint', 'DoFatal', 'TurnBound']);
const KEYS: readonly (keyof DuelState)[] = [
  'cfg',
  'rng',
  'turn',
  'step',
  'next',
  'p',
  'remote',
  'ice',
  'core',
  'skip',
  'directed',
  'action',
  'run',
  'receipt',
  'dmg',
  'cpDue',
  'queue',
  'win',
  'ask',
  'turns',
  'result',
];

/** The venture card's text: "a 2-point token in each seat's score area". */
const VENTURE_TOKEN = 2;

/**
 * Objective points counted by the checker itself, from what each score item is (an agenda's
 * printed points, the configured start token, the venture token), not from the item's own `pts`
 * nor the engine's `points()`.
 */
function countPoints(s: DuelState): number[] {
  return s.p.map((p, seat) => {
    let t = 0;
    for (const x of p.score) {
      if (x.card === 'start') t += s.cfg.startPoints[seat];
      else if (x.card === 'venture') t += VENTURE_TOKEN;
      else if (x.card in CARDS && CARDS[x.card].kind === 'agenda') t += CARDS[x.card].pts ?? 0;
    }
    return t;
  });
}

/** Credits an action costs besides its click, from the card table (advance costs 1). */
function creditCost(act: DuelAction): number {
  if (act.type === 'advance') return 1;
  if (act.type === 'install' || act.type === 'play') return CARDS[act.card].cost;
  return 0;
}

/** The "when your turn begins" abilities on cards `seat` has installed, in install order (card table). */
function beginAbilities(s: DuelState, seat: number): string[] {
  return s.p[seat].installed.filter((c) => CARDS[c].onTurnBegin === true);
}

function proc(s: DuelState): ProcRecord {
  return {
    phase: s.turn.phase,
    step: s.step,
    directed: s.directed,
    acting: s.action !== null,
    windows: s.win.length,
    cpDue: s.cpDue,
    queued: s.queue.length,
  };
}

function drained(s: DuelState): boolean {
  return !s.cpDue && s.queue.length === 0 && s.win.length === 0 && s.dmg === null;
}

function countInstalled(s: DuelState, seat: number, card: string): number {
  let n = 0;
  for (const c of s.p[seat].installed) if (c === card) n++;
  return n;
}

function addTo(out: string[], v: Verdict, step: string, claim: string): void {
  if (v) out.push(`${describeFailure(v)} [step ${step}, claim ${claim}]`);
}

/** Every violation of one micro-step, each naming its contract and failed conjunct. */
function checkStep(
  claim: string,
  b: DuelState,
  a: DuelState,
  evs: readonly GameEvent[],
  act: DuelAction | null,
  strict: boolean,
  pointsAndBegin = strict,
): string[] {
  const out: string[] = [];
  const add = (v: Verdict) => addTo(out, v, b.step, claim);
  if (strict) {
    const frame = STEP_FRAME[claim];
    if (frame === undefined) add(fail('StepFrame', 'every micro-step declares what it may change', claim));
    else {
      for (const k of KEYS) {
        if (k === 'ask' || frame.fields.includes(k)) continue;
        if (!same(b[k], a[k]))
          add(fail(claim, `frame: ${k} unchanged`, `${JSON.stringify(b[k])} -> ${JSON.stringify(a[k])}`));
      }
      for (const e of evs)
        if (!frame.events.includes(e.type)) add(fail(claim, 'frame: emits only its own events', e.type));
    }
    for (const v of obligations(claim, b, a, act)) add(v);
    // score arrays are replaced, never changed in place: the same arrays mean the same points
    if (pointsAndBegin && (b.p[0].score !== a.p[0].score || b.p[1].score !== a.p[1].score))
      add(PointsCheckpointDue(countPoints(b), countPoints(a), a.cpDue));
  } else {
    const allowed = LEGACY_ALLOWED[claim];
    for (const k of KEYS) {
      if (k === 'ask') continue;
      if (allowed && allowed.includes(k)) continue;
      if (!allowed && k !== 'turn' && k !== 'result') continue;
      if (k === 'turn' && MAY_CHANGE_FRAME.has(claim)) continue;
      if (k === 'result' && MAY_END_GAME.has(claim)) continue;
      if (!same(b[k], a[k]))
        add(fail(claim, `frame: ${k} unchanged`, `${JSON.stringify(b[k])} -> ${JSON.stringify(a[k])}`));
    }
  }
  add(TurnFrameValid5(a.turn));
  const o = b.turn.owner;
  switch (claim) {
    case 'TurnFormalBegin5':
      add(TurnFormalBegin5(b.turn, a.turn, b.step === (o === CORP ? 'C4' : 'R4'), evs));
      if (pointsAndBegin) add(TurnBeginTriggers(o, b.queue, a.queue, beginAbilities(b, o)));
      break;
    case 'TurnFormalEnd5':
      add(TurnFormalEnd5(b.turn, a.turn, b.step === 'D4', evs));
      break;
    case 'TurnHandoff5':
      add(TurnHandoff5(b.turn, a.turn, b.step === 'D5' && drained(b) && b.action === null && b.run === null, b.next));
      break;
    case 'DrawPhaseComplete':
      if (b.step !== 'C6' || b.turn.phase !== 'draw') add(fail(claim, 'at the end of the draw phase'));
      add(
        frameEquals(claim, 'after = [before EXCEPT !.phase = "action"]', except(b.turn, [['phase'], 'action']), a.turn),
      );
      break;
    case 'ActionStart':
      if (
        b.step !== 'A2' ||
        b.turn.phase !== 'action' ||
        act === null ||
        b.ask?.kind !== 'action' ||
        b.ask.seat !== o
      ) {
        add(fail(claim, "only in the owner's action phase at an action window"));
      }
      if (b.action !== null) add(fail(claim, 'no other action is resolving'));
      if (b.p[o].clicks < 1) add(fail(claim, 'a click remains to pay'));
      if (a.action === null || a.action.status !== 'CostReactions' || a.action.id !== b.next)
        add(fail(claim, 'a fresh action frame starts at CostReactions'));
      if (!a.cpDue) add(fail(claim, 'a checkpoint is due after the cost'));
      if (strict && act !== null) {
        // the cost was paid: one click, the card's credits, the card out of the hand
        const cost = creditCost(act);
        if (a.p[o].clicks !== b.p[o].clicks - 1)
          add(fail(claim, 'cost paid: clicks = @ - 1', `${b.p[o].clicks} -> ${a.p[o].clicks}`));
        if (a.p[o].credits !== b.p[o].credits - cost)
          add(fail(claim, `cost paid: credits = @ - ${cost}`, `${b.p[o].credits} -> ${a.p[o].credits}`));
        const card = act.type === 'install' || act.type === 'play' ? act.card : null;
        if (card !== null && a.p[o].hand.length !== b.p[o].hand.length - 1)
          add(fail(claim, 'cost paid: the card leaves the hand', card));
      }
      break;
    case 'ActionEffectsBegin5':
      add(ActionEffectsBegin5(b.action, a.action, drained(b)));
      break;
    case 'ActionNestedReturn5':
      add(ActionNestedReturn5(b.action, a.action, b.receipt));
      break;
    case 'ActionComplete':
      add(ActionComplete(b.action, a.action, b.action !== null && b.action.fx === 1 && drained(b)));
      break;
    case 'Encounter':
      if (strict) add(EncounterIce(encounterRecord(b), encounterRecord(a), act, b.ice));
      break;
    case 'Run':
      // a run approaches the server only past every ICE, outermost first
      if (strict && b.run !== null && b.run.stage === 'ini' && a.run !== null) {
        const want = b.ice.length > 0 ? { stage: 'ice', pos: b.ice.length - 1 } : { stage: 'app', pos: -1 };
        if (a.run.stage !== want.stage || a.run.pos !== want.pos)
          add(
            fail(
              'EncounterIce',
              'a run meets the outermost ICE first and approaches only past all ICE',
              `${a.run.stage} ${a.run.pos}`,
            ),
          );
      }
      break;
    case 'ActionDone':
      if (strict) add(ActionDone(b.action, a.action, b.directed ? 'AD' : 'A1', a.step));
      break;
    case 'PhaseEndOrdinary':
      add(PhaseEndOrdinary(proc(b), proc(a), b.p[o].clicks === 0, o === CORP ? countInstalled(b, CORP, 'bell') : 0));
      break;
    case 'PhaseEndDirected':
      add(PhaseEndDirected(proc(b), proc(a), o === CORP ? countInstalled(b, CORP, 'bell') : 0));
      break;
    case 'PhaseEndComplete':
      add(PhaseEndComplete(b.turn, a.turn, proc(b), proc(a), drained(b)));
      break;
    case 'DiscardStep': {
      const rec = (s: DuelState) => ({ hand: s.p[o].hand, heap: s.p[o].heap, skip: s.skip, step: s.step });
      add(
        DiscardStep(
          rec(b),
          rec(a),
          effectiveMaxHand(b, o),
          act !== null && act.type === 'discard' ? act.cards : null,
          o === RUNNER,
          evs,
        ),
      );
      break;
    }
    case 'DoCheckpoint': {
      const rec = (s: DuelState) => ({ cpDue: s.cpDue, result: s.result, queue: s.queue, win: s.win });
      add(DoCheckpoint(rec(b), rec(a), b.dmg === null, [], strict ? countPoints(b) : points(b), o));
      break;
    }
    case 'DoFatal': {
      let cond: FatalCondition;
      let holds: boolean;
      let loser: number;
      if (b.dmg !== null) {
        cond = 'damage';
        holds = b.dmg.n > b.p[RUNNER].hand.length;
        loser = RUNNER;
      } else if (b.step === 'C5') {
        cond = 'empty_draw';
        holds = b.p[CORP].deck.length === 0;
        loser = CORP;
      } else if (b.step === 'D1') {
        cond = 'negative_limit';
        holds = o === RUNNER && !b.skip && effectiveMaxHand(b, RUNNER) < 0;
        loser = RUNNER;
      } else {
        add(fail('DoFatal', 'at a fatal boundary (damage, required draw, discard step)', b.step));
        break;
      }
      add(DoFatal({ result: b.result }, { result: a.result }, TurnFrameValid5(b.turn) === null, cond, holds, loser));
      break;
    }
  }
  return out;
}

/**
 * What must happen, not only what may: a due checkpoint runs before anything else (and before any
 * seat is given priority), a fatal condition that holds at its boundary fires, a reaction
 * resolves exactly one ability its seat holds, and a reaction window closes only when empty.
 */
function obligations(claim: string, b: DuelState, a: DuelState, act: DuelAction | null): Verdict[] {
  const out: Verdict[] = [];
  if (b.result !== null) return out;
  if (act !== null) {
    if (b.cpDue) out.push(fail('DUEL-CHECKPOINT', 'priority is given only after the due checkpoint ran', act.type));
  } else if (b.dmg !== null) {
    if (b.dmg.n > b.p[RUNNER].hand.length && claim !== 'DoFatal')
      out.push(
        fail('DoFatal', 'a holding damage condition fires', `${b.dmg.n} damage, ${b.p[RUNNER].hand.length} cards`),
      );
  } else if (b.cpDue) {
    if (claim !== 'DoCheckpoint')
      out.push(fail('DUEL-CHECKPOINT', 'a due checkpoint runs before any other step', claim));
  } else if (b.win.length === 0) {
    if (b.step === 'C5' && b.p[CORP].deck.length === 0 && claim !== 'DoFatal')
      out.push(fail('DoFatal', 'a required draw from an empty deck fires', claim));
    if (
      b.step === 'D1' &&
      b.turn.owner === RUNNER &&
      !b.skip &&
      effectiveMaxHand(b, RUNNER) < 0 &&
      claim !== 'DoFatal'
    ) {
      out.push(fail('DoFatal', 'a negative maximum hand size at an unskipped discard step fires', claim));
    }
  }
  const top = b.win.length > 0 ? b.win[b.win.length - 1] : null;
  if (
    claim === 'Window' &&
    top !== null &&
    a.win.length < b.win.length &&
    top.kind === 'react' &&
    top.abilities.length > 0
  ) {
    out.push(
      fail(
        'DUEL-REACT',
        'a reaction window closes only once every ability in it resolved',
        top.abilities.map((x) => x.src).join(','),
      ),
    );
  }
  if (claim === 'Reaction' && act !== null && act.type === 'resolve') {
    const seat = b.ask === null ? -1 : b.ask.seat;
    const after = a.win.length === b.win.length ? a.win[a.win.length - 1] : null;
    if (top === null || top.kind !== 'react' || after === null)
      out.push(fail('DUEL-REACT', 'a reaction resolves inside its reaction window'));
    else {
      const i = top.abilities.findIndex((x) => x.who === seat && x.src === act.src);
      const rest = i < 0 ? null : [...top.abilities.slice(0, i), ...top.abilities.slice(i + 1)];
      if (rest === null) out.push(fail('DUEL-REACT', 'the resolved ability is held by the resolving seat', act.src));
      else if (!same(rest, after.abilities))
        out.push(
          fail(
            'DUEL-REACT',
            'resolving removes exactly that one ability from the window',
            `${JSON.stringify(top.abilities)} -> ${JSON.stringify(after.abilities)}`,
          ),
        );
      const gain = ABILITY_GAIN[act.src] ?? 0;
      if (seat >= 0 && a.p[seat].credits !== b.p[seat].credits + gain)
        out.push(fail('DUEL-REACT', `the holder gains ${gain}`));
    }
  }
  return out;
}

function encounterRecord(s: DuelState): EncounterRecord {
  return { run: s.run, credits: s.p[RUNNER].credits, dmg: s.dmg, cpDue: s.cpDue };
}

function traced(strict: boolean, pointsAndBegin = strict) {
  return (
    before: DuelState,
    after: DuelState,
    seat: number,
    action: DuelAction,
    _events: readonly GameEvent[],
  ): string[] => {
    const out: string[] = [];
    const probe = clone(before);
    const evs: GameEvent[] = [];
    withTracer(
      (claim, b, a, stepEvents, act) => {
        for (const v of checkStep(claim, b, a, stepEvents, act, strict, pointsAndBegin)) out.push(v);
      },
      () => apply(probe, seat, action, evs),
    );
    if (!same(probe, after)) out.push('Replay: the traced re-run of this transition did not reproduce its after-state');
    return out;
  };
}

const strictCheck = traced(true);

/** The Ruleset hook: re-run (before, seat, action) traced and check every step and the replay. */
export function checkTransition(
  before: DuelState,
  after: DuelState,
  seat: number,
  action: DuelAction,
  events: readonly GameEvent[],
): string[] {
  return strictCheck(before, after, seat, action, events);
}

/** The checker as it was before the contract gaps were closed (tests prove the new checks' teeth). */
export const legacyCheckTransition = traced(false);

/** The checker without issue 28's two contracts (PointsCheckpointDue, TurnBeginTriggers). */
export const checkTransitionBefore28 = traced(true, false);

/** Cards of one side wherever they are (an agenda stays a corp card when scored or stolen). */
function cardCount(s: DuelState, side: number): number {
  const p = s.p[side];
  let n = p.deck.length + p.hand.length + p.heap.length + p.installed.length;
  if (side === CORP) {
    // agendas stay corp cards wherever they are scored or stolen; tokens are not cards
    n += (s.remote !== null ? 1 : 0) + s.ice.length;
    for (const q of s.p) for (const x of q.score) if (x.card === 'ledger') n++;
  }
  if (s.action !== null && s.action.owner === side && s.action.kind === 'install' && s.action.card !== null) n++;
  return n;
}

const STEP_PHASE: Record<string, string> = {
  C1: 'draw',
  C2: 'draw',
  C4: 'draw',
  C5: 'draw',
  C6: 'draw',
  R1: 'action',
  R2: 'action',
  R4: 'action',
  A1: 'action',
  A2: 'action',
  A3: 'action',
  AD: 'action',
  A5: 'action',
  D1: 'discard',
  D2: 'discard',
  D3: 'discard',
  D4: 'discard',
  D5: 'discard',
};
const BEFORE_BEGIN = new Set(['C1', 'C2', 'C4', 'R1', 'R2', 'R4']);

/** Properties of every reachable state; returns the violated ones. */
export function invariants(s: DuelState): string[] {
  const bad: string[] = [];
  const v = TurnFrameValid5(s.turn);
  if (v) bad.push(describeFailure(v));
  if (STEP_PHASE[s.step] !== s.turn.phase)
    bad.push(`DUEL-STEPS: step ${s.step} lies in phase ${STEP_PHASE[s.step]}, frame says ${s.turn.phase}`);
  if (s.result === null) {
    if (BEFORE_BEGIN.has(s.step) === s.turn.formalBegun)
      bad.push(`TurnFormalBegin5: formalBegun is ${s.turn.formalBegun} at step ${s.step}`);
    if ((s.step === 'D5') !== s.turn.formalEnded)
      bad.push(`TurnFormalEnd5: formalEnded is ${s.turn.formalEnded} at step ${s.step}`);
    if (s.ask === null) bad.push('deadlock: no outcome and no decision owed');
  }
  const begun = s.turn.begunCounts[0] + s.turn.begunCounts[1];
  if (begun !== s.turns - (s.turn.formalBegun ? 0 : 1))
    bad.push(`TurnHandoff5: begun counts total ${begun} but ${s.turns} frames opened`);
  for (const side of [0, 1])
    if (cardCount(s, side) !== s.cfg.cards[side]) bad.push(`cards of seat ${side} are not conserved`);
  for (const side of [0, 1])
    if (s.p[side].clicks < 0 || s.p[side].credits < 0) bad.push(`seat ${side} has negative clicks or credits`);
  if (s.action === null && s.run !== null) bad.push('ActionNestedReturn5: a run outlived the action that started it');
  if (s.turn.owner === RUNNER && s.cfg.maxHand[1] - s.core !== effectiveMaxHand(s, RUNNER))
    bad.push('effective maximum hand size');
  return bad;
}
