// The authoritative menus (legal) and the checks on untrusted input (validate). Menu elements
// are shared frozen objects built once, so legal() allocates only the list that holds them.
// GR-P05: the menu offers only what can do something; GROUND modes follow GR-R05 (see groundMenu).

import {
  reject,
  requireObject,
  type Json,
  type JsonObject,
  type Menu,
  type Pending,
  type Rejection,
  type Validation,
} from '../../kernel/index.ts';
import {
  ACTIONS,
  type ActionName,
  type BondAction,
  type DarvoAttackAction,
  type DenyAction,
  type GroundAction,
  type GroundGameAction,
  type GroundState,
  type RivalryAction,
  type SelectAction,
} from './state.ts';
import { MAX_TARGET } from './schema.ts';

// SEL[action][target + 1][freedom ? 1 : 0]
const SEL: SelectAction[][][] = ACTIONS.map((action) =>
  Array.from({ length: MAX_TARGET + 1 }, (_, t1) =>
    [false, true].map(
      (freedom) => Object.freeze({ type: 'select', action, target: t1 === 0 ? null : t1 - 1, freedom }) as SelectAction,
    ),
  ),
);
const A_INV = 0,
  A_SOLVE = 1,
  A_SUP = 2,
  A_ATK = 3,
  A_GND = 4;

function sel(a: number, target: number, freedom: boolean): SelectAction {
  return SEL[a][target + 1][freedom ? 1 : 0];
}

const G_GR: GroundAction = Object.freeze({ type: 'ground', mode: 'GR', option: null, target: null });
const G_OPTS: Record<string, GroundAction[]> = {};
for (const [mode, option] of [
  ['OU', 'restore'],
  ['OU', 'cancel'],
  ['OU', 'protect'],
  ['ND', 'remove_blame'],
  ['ND', 'break'],
  ['ND', 'reject_reverse'],
] as const) {
  G_OPTS[option] = Array.from(
    { length: MAX_TARGET },
    (_, target) => Object.freeze({ type: 'ground', mode, option, target }) as GroundAction,
  );
}
const BOND_YES: BondAction = Object.freeze({ type: 'bond', accept: true });
const BOND_NO: BondAction = Object.freeze({ type: 'bond', accept: false });
const FLIP: RivalryAction = Object.freeze({ type: 'rivalry', choice: 'flip' });
const BREAK: RivalryAction = Object.freeze({ type: 'rivalry', choice: 'break' });
const DENY: DenyAction[] = Array.from(
  { length: MAX_TARGET },
  (_, problem) => Object.freeze({ type: 'deny', problem }) as DenyAction,
);
const DATK: DarvoAttackAction[] = Array.from(
  { length: MAX_TARGET },
  (_, target) => Object.freeze({ type: 'darvo_attack', target }) as DarvoAttackAction,
);

/** What `seat` owes now: 'select' | 'ground' | a decision kind | null. */
function owedKind(s: GroundState, seat: number): string | null {
  if (s.phase === 'select') return s.players[seat].choice === null ? 'select' : null;
  if (s.phase === 'ground') {
    const p = s.players[seat];
    return p.choice !== null && p.choice.action === 'GROUND' && p.ground === null ? 'ground' : null;
  }
  if (s.phase === 'resolve' && s.decision !== null && s.decision.seat === seat) return s.decision.kind;
  return null;
}

function hasHidden(s: GroundState): boolean {
  for (const pr of s.problems) if (!pr.faceUp && !pr.denied) return true;
  return false;
}

function selectMenu(s: GroundState, seat: number, out: GroundGameAction[]): void {
  const n = s.n;
  const pl = s.players[seat];
  const gated = pl.stress >= 4; // GR-R03 / GR-F02
  const free = gated && pl.freedom === 'READY';
  if (!gated || free) {
    // INVESTIGATE: one per hidden non-Denied Problem; with none left it only draws (U14)
    let any = false;
    for (const pr of s.problems) {
      if (!pr.faceUp && !pr.denied) {
        out.push(sel(A_INV, pr.slot, gated));
        any = true;
      }
    }
    if (!any && s.deck.length + s.discard.length > 0) out.push(sel(A_INV, -1, gated));
    // SOLVE (GR-P05): face up, not Denied, unclaimed, and a matching Solution in hand
    for (const pr of s.problems) {
      if (pr.faceUp && !pr.denied && pr.claimedBy < 0 && pl.hand[pr.suit] > 0) out.push(sel(A_SOLVE, pr.slot, gated));
    }
    for (let t = 0; t < n; t++) if (t !== seat) out.push(sel(A_SUP, t, gated));
  }
  for (let t = 0; t < n; t++) if (t !== seat) out.push(sel(A_ATK, t, false));
  out.push(sel(A_GND, -1, false));
}

/**
 * GR-R05 / GR-A11 / GR-A12: every mode the seed allows is offered. Options that act on a thing
 * already on the table (restore a Denied Problem, remove a Blame token, break a relation) name
 * such a thing. The three watching options (OU cancel, OU protect, ND reject) are declared before
 * the Attack, Deny or Reverse they answer, so they are offered against every candidate whether or
 * not it will come (U23): the menu neither filters out a mode that keeps a DARVO sequence alive nor
 * tells a player what it could not know.
 */
function groundMenu(s: GroundState, seat: number, out: GroundGameAction[]): void {
  const n = s.n;
  out.push(G_GR);
  // OU restore: a Denied Problem
  for (const pr of s.problems) if (pr.denied) out.push(G_OPTS.restore[pr.slot]);
  // OU cancel: names an attacker, any other seat (U16, U23)
  for (let q = 0; q < n; q++) if (q !== seat) out.push(G_OPTS.cancel[q]);
  // OU protect: a face-up, unclaimed Problem, whether or not a DENY comes this round (U23)
  for (const pr of s.problems) if (pr.faceUp && !pr.denied && pr.claimedBy < 0) out.push(G_OPTS.protect[pr.slot]);
  // ND remove Blame: a Blame token lying in front of this seat (named by its owner)
  for (let q = 0; q < n; q++) {
    const tk = s.players[q].token;
    if (tk.side === 'blame' && tk.at === seat) out.push(G_OPTS.remove_blame[q]);
  }
  // ND break: a relation involving this seat
  for (let q = 0; q < n; q++) if (q !== seat && s.rel[seat * n + q] !== 0) out.push(G_OPTS.break[q]);
  // ND reject: names a Reverse owner, any other seat (U23)
  for (let q = 0; q < n; q++) if (q !== seat) out.push(G_OPTS.reject_reverse[q]);
}

export function legal(s: GroundState, seat: number): Menu<GroundGameAction> {
  const actions: GroundGameAction[] = [];
  const kind = owedKind(s, seat);
  if (kind === 'select') selectMenu(s, seat, actions);
  else if (kind === 'ground') groundMenu(s, seat, actions);
  else if (kind === 'bond_accept') actions.push(BOND_YES, BOND_NO);
  else if (kind === 'rivalry_choice') actions.push(FLIP, BREAK);
  else if (kind === 'deny_target') for (const slot of s.decision!.options) actions.push(DENY[slot]);
  else if (kind === 'darvo_attack_target') for (const t of s.decision!.options) actions.push(DATK[t]);
  return { actions };
}

// validate: one path, menu membership. The input's shape is read into the interned menu element
// it names (bad_request when it names none); the element is accepted iff it is on the seat's menu,
// exactly as the kernel default would decide. A miss only picks the words of the refusal
// (illegal with a sub_reason); nothing here runs the transition or changes the state.

const TYPE_FOR_KIND: Record<string, string> = {
  select: 'select',
  ground: 'ground',
  bond_accept: 'bond',
  rivalry_choice: 'rivalry',
  deny_target: 'deny',
  darvo_attack_target: 'darvo_attack',
};
const KEYS: Record<string, string[]> = {
  select: ['type', 'action', 'target', 'freedom'],
  ground: ['type', 'mode', 'option', 'target'],
  bond: ['type', 'accept'],
  rivalry: ['type', 'choice'],
  deny: ['type', 'problem'],
  darvo_attack: ['type', 'target'],
};
const OU_OPTIONS = ['restore', 'cancel', 'protect'];
const ND_OPTIONS = ['remove_blame', 'break', 'reject_reverse'];

type Refusal = { ok: false; error: Rejection };
type Read = { ok: true; action: GroundGameAction } | Refusal;

function bad(reason: string, detail: JsonObject): Refusal {
  return { ok: false, error: reject('bad_request', reason, detail) };
}
function illegal(reason: string, sub_reason: string, extra: JsonObject = {}): Refusal {
  return { ok: false, error: reject('illegal', reason, { sub_reason, ...extra }) };
}

function isIndex(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < MAX_TARGET;
}

export function validate(s: GroundState, seat: number, input: unknown): Validation<GroundGameAction> {
  const obj = requireObject(input);
  if (!obj.ok) return obj;
  const a = obj.action;
  const type = a.type;
  if (typeof type !== 'string' || !Object.hasOwn(KEYS, type)) {
    return bad('type must be one of select, ground, bond, rivalry, deny, darvo_attack', { sub_reason: 'bad_type' });
  }
  for (const k of Object.keys(a)) {
    if (!KEYS[type].includes(k))
      return bad(`unknown field "${k}" for a ${type} action`, { sub_reason: 'unknown_field', field: k });
  }
  const kind = owedKind(s, seat);
  if (kind === null) return illegal(`seat ${seat} owes no decision now`, 'not_pending');
  if (TYPE_FOR_KIND[kind] !== type)
    return illegal(`seat ${seat} owes a ${kind} decision, not a ${type} action`, 'wrong_decision', { owed: kind });
  const read = readAction(type, a);
  if (!read.ok) return read;
  if (legal(s, seat).actions.includes(read.action)) return read;
  return explainRefusal(s, seat, read.action);
}

/** The interned menu element an input names, or the bad_request that says why it names none. */
function readAction(type: string, a: Record<string, Json>): Read {
  switch (type) {
    case 'select': {
      const action = a.action;
      const ai = typeof action === 'string' ? ACTIONS.findIndex((x) => x === action) : -1;
      if (ai < 0)
        return bad(`action must be one of ${ACTIONS.join(', ')}`, { sub_reason: 'bad_field', field: 'action' });
      const target = a.target === undefined ? null : a.target;
      if (target !== null && !isIndex(target))
        return bad('target must be null or a non-negative integer', { sub_reason: 'bad_field', field: 'target' });
      const freedom = a.freedom === undefined ? false : a.freedom;
      if (typeof freedom !== 'boolean')
        return bad('freedom must be true or false', { sub_reason: 'bad_field', field: 'freedom' });
      return { ok: true, action: sel(ai, target === null ? -1 : target, freedom) };
    }
    case 'ground': {
      const mode = a.mode;
      if (mode !== 'GR' && mode !== 'OU' && mode !== 'ND')
        return bad('mode must be GR, OU or ND', { sub_reason: 'bad_field', field: 'mode' });
      const option = a.option === undefined ? null : a.option;
      const target = a.target === undefined ? null : a.target;
      if (option !== null && typeof option !== 'string')
        return bad('option must be a string or null', { sub_reason: 'bad_field', field: 'option' });
      if (target !== null && !isIndex(target))
        return bad('target must be null or a non-negative integer', { sub_reason: 'bad_field', field: 'target' });
      if (mode === 'GR') {
        if (option !== null || target !== null)
          return bad('GROUND—GR takes no option or target', { sub_reason: 'bad_field' });
        return { ok: true, action: G_GR };
      }
      const ok = mode === 'OU' ? OU_OPTIONS : ND_OPTIONS;
      if (option === null || !ok.includes(option))
        return bad(`option for ${mode} must be one of ${ok.join(', ')}`, { sub_reason: 'bad_field', field: 'option' });
      if (target === null) return bad(`${mode} ${option} needs a target`, { sub_reason: 'target_required' });
      return { ok: true, action: G_OPTS[option][target] };
    }
    case 'bond':
      if (typeof a.accept !== 'boolean')
        return bad('accept must be true or false', { sub_reason: 'bad_field', field: 'accept' });
      return { ok: true, action: a.accept ? BOND_YES : BOND_NO };
    case 'rivalry':
      if (a.choice !== 'flip' && a.choice !== 'break')
        return bad('choice must be "flip" or "break"', { sub_reason: 'bad_field', field: 'choice' });
      return { ok: true, action: a.choice === 'flip' ? FLIP : BREAK };
    case 'deny':
      if (!isIndex(a.problem))
        return bad('problem must be a Problem slot number', { sub_reason: 'bad_field', field: 'problem' });
      return { ok: true, action: DENY[a.problem] };
    default:
      if (!isIndex(a.target)) return bad('target must be a seat number', { sub_reason: 'bad_field', field: 'target' });
      return { ok: true, action: DATK[a.target] };
  }
}

/** Why a well-formed action is not on the menu: the words and sub_reason of the refusal. */
function explainRefusal(s: GroundState, seat: number, a: GroundGameAction): Refusal {
  switch (a.type) {
    case 'select':
      return { ok: false, error: whySelectIllegal(s, seat, a.action, a.target, a.freedom) };
    case 'ground':
      return illegal(
        `GROUND—${a.mode} ${a.option ?? ''} has nothing to act on here (GR-A11/GR-A12, GR-P05)`,
        'ground_option_unavailable',
        { option: a.option },
      );
    case 'deny':
      return illegal(
        'DENY must pick a face-up, unclaimed Problem not protected this round (GR-D03)',
        'deny_target_not_allowed',
        { options: s.decision?.options ?? [] },
      );
    case 'darvo_attack':
      return illegal('the DARVO extra Attack targets another player (GR-D04)', 'darvo_target_not_allowed', {
        options: s.decision?.options ?? [],
      });
    default:
      return illegal('that choice is not on the menu now', 'not_on_menu');
  }
}

function whySelectIllegal(
  s: GroundState,
  seat: number,
  action: ActionName,
  target: number | null,
  freedom: boolean,
): Rejection {
  const pl = s.players[seat];
  const gated = pl.stress >= 4;
  const r = (reason: string, sub_reason: string) => illegal(reason, sub_reason).error;
  const needsSeat = action === 'SUPPORT' || action === 'ATTACK';
  const needsProblem = action === 'SOLVE';
  if ((needsSeat || needsProblem) && target === null)
    return reject('bad_request', `${action} needs a target`, { sub_reason: 'target_required' });
  if (action === 'GROUND' && target !== null)
    return reject('bad_request', 'GROUND takes no target at Select; its mode and target come after Reveal (GR-R05)', {
      sub_reason: 'no_target',
    });
  if (needsSeat && target !== null && target >= s.n)
    return reject('bad_request', `no seat ${target}`, { sub_reason: 'out_of_range' });
  if ((action === 'SOLVE' || action === 'INVESTIGATE') && target !== null && target >= s.problems.length) {
    return reject('bad_request', `no Problem slot ${target}`, { sub_reason: 'out_of_range' });
  }
  if (freedom && pl.freedom !== 'READY') return r('the Freedom token is already SPENT (GR-F03)', 'freedom_spent');
  if (freedom && !gated) return r('Freedom is spent only to lift the stress gate (U18)', 'freedom_not_needed');
  if (freedom && (action === 'ATTACK' || action === 'GROUND'))
    return r('ATTACK and GROUND pass the stress gate without spending Freedom (U18)', 'freedom_not_needed');
  if (gated && !freedom && action !== 'ATTACK' && action !== 'GROUND') {
    return r(
      `at Stress ${pl.stress} only ATTACK or GROUND may be selected unless Freedom is spent (GR-R03)`,
      'stress_gate',
    );
  }
  if (needsSeat && target === seat) return r(`${action} targets another player (GR-A13)`, 'self_target');
  if (action === 'SOLVE' && target !== null) {
    const pr = s.problems[target];
    if (!pr.faceUp) return r('SOLVE needs a face-up Problem (GR-P01)', pr.denied ? 'solve_denied' : 'solve_face_down');
    if (pr.denied) return r('a Denied Problem cannot be solved (GR-D03)', 'solve_denied');
    if (pr.claimedBy >= 0) return r('that Problem was claimed in an earlier round (GR-P05)', 'solve_claimed');
    if (pl.hand[pr.suit] === 0) return r('no Solution of the required suit in hand (GR-P05)', 'solve_no_matching_suit');
  }
  if (action === 'INVESTIGATE') {
    if (target === null) {
      if (hasHidden(s))
        return reject('bad_request', 'INVESTIGATE names a hidden Problem while any remains (GR-A13)', {
          sub_reason: 'target_required',
        });
      return r('nothing to reveal and no Solution left to draw (U14)', 'investigate_inert');
    }
    return r('INVESTIGATE targets a hidden, non-Denied Problem (GR-A13, GR-P02)', 'investigate_not_hidden');
  }
  return r('that choice is not on the menu now', 'not_on_menu');
}

/** Who owes a decision now: every uncommitted seat at Select, GROUND players after Reveal, or the one decision resolution waits on. */
export function pending(s: GroundState): Pending[] {
  if (s.phase === 'over') return [];
  if (s.phase === 'resolve') {
    const d = s.decision;
    if (d === null) return [];
    return [{ seat: d.seat, kind: d.kind, from: d.from, options: d.options.slice() }];
  }
  const out: Pending[] = [];
  for (let i = 0; i < s.n; i++) {
    const k = owedKind(s, i);
    if (k !== null) out.push({ seat: i, kind: k, round: s.round });
  }
  return out;
}
