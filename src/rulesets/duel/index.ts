// The `duel` ruleset: the seed's two-seat turn procedure as a playable reference profile. The
// engine (engine.ts) names the contract each micro-step claims; check.ts checks them.

import {
  checkSeed, reject, requireObject, type GameEvent, type Json, type Outcome, type Pending, type Ruleset, type Validation,
} from '../../kernel/index.ts';
import { catalog } from './catalog.ts';
import { agents as duelAgents } from './agents.ts';
import { PRESETS } from './config.ts';
import { catalogRulesPage, type JsonObject, type RulesetPackage } from '../../kernel/index.ts';
import { checkTransition } from './check.ts';
import { CONFIG_SCHEMA, DEFAULT_CONFIG, resolveConfig } from './config.ts';
import { TurnFrameValid5, describeFailure } from './contracts/index.ts';
import { describeEvent, describeAction } from './describe.ts';
import { applyDecision, cloneDuel, effectiveMaxHand, points, setupState } from './engine.ts';
import { goals } from './goals.ts';
import { stateKey, stateKeyInto } from './key.ts';
import { menu } from './menu.ts';
import { CORP, RUNNER, type DuelAction, type DuelState } from './types.ts';
import { secrets, view } from './view.ts';

const VERBS = new Set(['credit', 'draw', 'advance', 'run', 'install', 'play', 'score', 'pass', 'resolve', 'continue', 'jack_out', 'discard']);
const FIELDS = new Set(['do', 'card', 'src', 'cards']);

function shapeError(input: Record<string, Json>): string | null {
  for (const k of Object.keys(input)) if (!FIELDS.has(k)) return `unknown field "${k.slice(0, 40)}"`;
  const v = input.do;
  if (typeof v !== 'string' || !VERBS.has(v)) return '"do" must be one of ' + [...VERBS].join(', ');
  for (const k of ['card', 'src'] as const) {
    if (k in input && (typeof input[k] !== 'string' || (input[k] as string).length > 20)) return `"${k}" must be a short string`;
  }
  if ('cards' in input) {
    const c = input.cards;
    if (!Array.isArray(c) || c.length > 60 || !c.every((x) => typeof x === 'string' && x.length <= 20)) return '"cards" must be a list of card names';
  }
  return null;
}

/** Menu membership by field comparison (the menu's own element is what gets applied). */
function sameAction(m: DuelAction, x: Record<string, Json>): boolean {
  if (m.do !== x.do || m.card !== x.card || m.src !== x.src) return false;
  const a = m.cards;
  const b = x.cards as string[] | undefined;
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function cardCount(s: DuelState, side: number): number {
  const p = s.p[side];
  let n = p.deck.length + p.hand.length + p.heap.length + p.installed.length;
  if (side === CORP) {
    // agendas stay corp cards wherever they are scored or stolen; tokens are not cards
    n += s.remote !== null ? 1 : 0;
    for (const q of s.p) for (const x of q.score) if (x.card === 'ledger') n++;
  }
  if (s.action !== null && s.action.owner === side && s.action.kind === 'install' && s.action.card !== null) n++;
  return n;
}

const STEP_PHASE: Record<string, string> = {
  C1: 'draw', C2: 'draw', C4: 'draw', C5: 'draw', C6: 'draw', R1: 'action', R2: 'action', R4: 'action',
  A1: 'action', A2: 'action', A3: 'action', AD: 'action', A5: 'action', D1: 'discard', D2: 'discard', D3: 'discard', D4: 'discard', D5: 'discard',
};
const BEFORE_BEGIN = new Set(['C1', 'C2', 'C4', 'R1', 'R2', 'R4']);

export const duel: Ruleset<DuelState, DuelAction> = {
  id: 'duel',
  version: 'duel-refprofile-0.1',
  title: 'Duel: two-seat turn procedures (reference profile)',
  catalog,
  defaultConfig: DEFAULT_CONFIG as unknown as Record<string, Json>,
  configSchema: CONFIG_SCHEMA as unknown as Record<string, Json>,
  goals,

  setup(config, seed, events) {
    checkSeed(seed);
    const cfg = resolveConfig(config);
    return setupState(cfg, seed, events);
  },

  seats: () => 2,

  pending(s): Pending[] {
    if (s.result !== null || s.ask === null) return [];
    const p: Pending = { seat: s.ask.seat, kind: s.ask.kind };
    if (s.ask.kind === 'discard') p.count = s.ask.count;
    return [p];
  },

  legal(s, seat) {
    return { actions: menu(s, seat) };
  },

  validate(s, seat, input): Validation<DuelAction> {
    const obj = requireObject(input);
    if (!obj.ok) return obj;
    const bad = shapeError(obj.action);
    if (bad !== null) return { ok: false, error: reject('bad_request', bad, { sub_reason: 'shape' }) };
    const found = menu(s, seat).find((m) => sameAction(m, obj.action));
    if (found === undefined) {
      return { ok: false, error: reject('illegal', `"${obj.action.do}" with these arguments is not allowed now`, { sub_reason: 'not_on_menu', owed: s.ask?.kind ?? null }) };
    }
    return { ok: true, action: found };
  },

  apply(s, seat, action, events: GameEvent[]) {
    applyDecision(s, seat, action, events);
  },

  view,
  secrets,

  outcome(s): Outcome | null {
    if (s.result === null) return null;
    const w = s.result.winners;
    return {
      winners: w.slice(),
      places: w.length === 1 ? (w[0] === 0 ? [1, 2] : [2, 1]) : [1, 1],
      scores: points(s),
      reason: s.result.reason,
    };
  },

  clone: cloneDuel,
  describeEvent,
  describeAction,

  stateKey,
  stateKeyInto,

  invariants(s) {
    const bad: string[] = [];
    const v = TurnFrameValid5(s.turn);
    if (v) bad.push(describeFailure(v));
    if (STEP_PHASE[s.step] !== s.turn.phase) bad.push(`DUEL-STEPS: step ${s.step} lies in phase ${STEP_PHASE[s.step]}, frame says ${s.turn.phase}`);
    if (s.result === null) {
      if (BEFORE_BEGIN.has(s.step) === s.turn.formalBegun) bad.push(`TurnFormalBegin5: formalBegun is ${s.turn.formalBegun} at step ${s.step}`);
      if ((s.step === 'D5') !== s.turn.formalEnded) bad.push(`TurnFormalEnd5: formalEnded is ${s.turn.formalEnded} at step ${s.step}`);
      if (s.ask === null) bad.push('deadlock: no outcome and no decision owed');
    }
    const begun = s.turn.begunCounts[0] + s.turn.begunCounts[1];
    if (begun !== s.turns - (s.turn.formalBegun ? 0 : 1)) bad.push(`TurnHandoff5: begun counts total ${begun} but ${s.turns} frames opened`);
    for (const side of [0, 1]) if (cardCount(s, side) !== s.cfg.cards[side]) bad.push(`cards of seat ${side} are not conserved`);
    for (const side of [0, 1]) if (s.p[side].clicks < 0 || s.p[side].credits < 0) bad.push(`seat ${side} has negative clicks or credits`);
    if (s.action === null && s.run !== null) bad.push('ActionNestedReturn5: a run outlived the action that started it');
    if (s.turn.owner === RUNNER && s.cfg.maxHand[1] - s.core !== effectiveMaxHand(s, RUNNER)) bad.push('effective maximum hand size');
    return bad;
  },

  checkTransition,

  metrics(s, events) {
    let runs = 0, steals = 0, directed = 0, skipped = 0, reactions = 0;
    for (const e of events) {
      if (e.type === 'run_start') runs++;
      else if (e.type === 'stolen') steals++;
      else if (e.type === 'action_phase_end' && e.mode === 'directed') directed++;
      else if (e.type === 'discard_skipped') skipped++;
      else if (e.type === 'reaction') reactions++;
    }
    return { turn_frames: s.turns, runs, steals, directed_ends: directed, skipped_discards: skipped, reactions, core_damage: s.core };
  },
};

export const duelPackage: RulesetPackage<DuelState, DuelAction> = {
  ruleset: duel,
  gameType: { seats: { min: 2, max: 2 }, turns: 'sequential', chance: 'setup', information: 'imperfect', outcome: ['winners', 'scores'] },
  agents: { heuristic: { factory: duelAgents.heuristic, description: 'scores agendas, installs and runs when it can', reads: 'view' } },
  presets: PRESETS as Record<string, JsonObject>,
  tools: [],
  scenarios: 'scenarios/duel',
  rulesPage: () => catalogRulesPage(duel, duelPackage.gameType),
};
