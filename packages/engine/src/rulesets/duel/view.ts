// Per-seat views: what each seat may observe. Hands of the other seat, deck order, the face-down
// remote agenda and face-down archives stay hidden (DUEL-VIEW).

import type { Json } from '../../kernel/index.ts';
import { effectiveMaxHand, points } from './rules.ts';
import { CARDS } from './cards.ts';
import { CORP, type Ability, type DuelState, type Frame } from './state.ts';

/** One seat as another seat (or the seat itself) sees it. */
type SeatView = {
  clicks: number;
  credits: number;
  handCount: number;
  /** Only in the seat's own view. */
  hand?: string[];
  deckCount: number;
  /** A face-down card shows as null to everyone but its owner. */
  heap: { card: string | null; up: boolean }[];
  score: { card: string; pts: number }[];
  installed: string[];
  maxHand: number;
  /** Cards of this seat's area the viewer cannot locate (deck, and for the other seat its hand,
   *  face-down heap, face-down remote and an agenda being installed), as counts: derivable from the
   *  public decklists minus what the viewer has seen; search agents deal them out (issue 15). */
  unseen: Record<string, number>;
};

/** What a seat observes (DUEL-VIEW); agents read exactly this. */
export type DuelView = {
  turn: Frame;
  step: string;
  seats: SeatView[];
  points: number[];
  remote: { card: string | null; adv: number } | null;
  /** Installed ICE is public (U-ICE: no rez, no face-down ICE). */
  ice: string[];
  core: number;
  skip: boolean;
  directed: boolean;
  action: { id: number; owner: number; kind: string; status: string; child: number } | null;
  run: { id: number; stage: string; success: boolean; pos: number } | null;
  checkpointDue: boolean;
  windows: { kind: string; prio: number; abilities: Ability[] }[];
  queued: Ability[];
  owes: { seat: number; kind: string } | null;
  result: { winners: number[]; reason: string } | null;
  /** Public bookkeeping a determinizing sampler needs to rebuild the state (issue 15). */
  engine: {
    cfg: DuelState['cfg'];
    next: number;
    receipt: number;
    turns: number;
    dmg: { n: number; core: boolean } | null;
    askCount: number;
    /** The action's card (null when it is a face-down agenda install the viewer cannot see) and effect flag. */
    actionCard: string | null;
    actionFx: number;
    passed: boolean[];
  };
};

function bump(m: Record<string, number>, card: string): void {
  m[card] = (m[card] ?? 0) + 1;
}

/** Whether `seat` cannot see the card of the action in progress (the corp installing an agenda). */
function actionCardHidden(s: DuelState, seat: number | null): boolean {
  const a = s.action;
  return (
    a !== null &&
    a.card !== null &&
    a.kind === 'install' &&
    a.owner === CORP &&
    seat !== CORP &&
    CARDS[a.card].kind === 'agenda'
  );
}

function unseenOf(s: DuelState, seat: number | null, i: number): Record<string, number> {
  const m: Record<string, number> = {};
  const p = s.p[i];
  for (const c of p.deck) bump(m, c);
  if (seat !== i) {
    for (const c of p.hand) bump(m, c);
    for (const h of p.heap) if (!h.up) bump(m, h.card);
  }
  if (i === CORP && seat !== CORP && s.remote !== null) bump(m, s.remote.card);
  if (s.action !== null && s.action.owner === i && actionCardHidden(s, seat)) bump(m, s.action.card!);
  const out: Record<string, number> = {};
  for (const k of Object.keys(m).sort()) out[k] = m[k];
  return out;
}

export function view(s: DuelState, seat: number | null): DuelView {
  const seats = s.p.map((p, i): SeatView => {
    const own = seat === i;
    return {
      clicks: p.clicks,
      credits: p.credits,
      handCount: p.hand.length,
      ...(own ? { hand: p.hand.slice() } : {}),
      deckCount: p.deck.length,
      heap: p.heap.map((h) => (h.up || own ? { card: h.card, up: h.up } : { card: null, up: false })),
      score: p.score.map((x) => ({ card: x.card, pts: x.pts })),
      installed: p.installed.slice(),
      maxHand: effectiveMaxHand(s, i),
      unseen: unseenOf(s, seat, i),
    };
  });
  return {
    turn: { ...s.turn, begunCounts: s.turn.begunCounts.slice() },
    step: s.step,
    seats,
    points: points(s),
    remote: s.remote === null ? null : { card: seat === CORP ? s.remote.card : null, adv: s.remote.adv },
    ice: s.ice.slice(),
    core: s.core,
    skip: s.skip,
    directed: s.directed,
    action:
      s.action === null
        ? null
        : {
            id: s.action.id,
            owner: s.action.owner,
            kind: s.action.kind,
            status: s.action.status,
            child: s.action.child,
          },
    run: s.run === null ? null : { ...s.run },
    checkpointDue: s.cpDue,
    windows: s.win.map((w) => ({ kind: w.kind, prio: w.prio, abilities: w.abilities.map((a) => ({ ...a })) })),
    queued: s.queue.map((a) => ({ ...a })),
    owes: s.ask === null ? null : { seat: s.ask.seat, kind: s.ask.kind },
    result: s.result === null ? null : { winners: s.result.winners.slice(), reason: s.result.reason },
    engine: {
      cfg: {
        clicks: s.cfg.clicks.slice(),
        maxHand: s.cfg.maxHand.slice(),
        turns: s.cfg.turns,
        variant: s.cfg.variant,
        cards: s.cfg.cards.slice(),
        startPoints: s.cfg.startPoints.slice(),
      },
      next: s.next,
      receipt: s.receipt,
      turns: s.turns,
      dmg: s.dmg === null ? null : { n: s.dmg.n, core: s.dmg.core },
      askCount: s.ask === null ? 0 : s.ask.count,
      actionCard: s.action === null || actionCardHidden(s, seat) ? null : s.action.card,
      actionFx: s.action === null ? 0 : s.action.fx,
      passed: s.win.map((w) => w.passed),
    },
  };
}

/** Values that must never appear in `seat`'s view: the other hands and both deck orders. */
export function secrets(s: DuelState, seat: number | null): Json[] {
  const out: Json[] = [];
  for (let i = 0; i < 2; i++) {
    // single cards and empty lists are too common to be a meaningful secret
    if (i !== seat && s.p[i].hand.length >= 2) out.push(s.p[i].hand.slice());
    if (i !== seat && s.p[i].deck.length >= 2) out.push(s.p[i].deck.slice());
  }
  return out;
}
