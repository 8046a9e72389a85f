// Setup: the config resolved, decks dealt, and the automatic steps run to the first decision (their
// events are the log's setup events).

import { checkSeed, createRng, shuffleInPlace, type GameEvent } from '../../kernel/index.ts';
import { resolveConfig } from './config.ts';
import { advance } from './rules.ts';
import { CORP, type DuelState, type SeatState } from './state.ts';

export function setup(config: unknown, seed: number, events: GameEvent[] = []): DuelState {
  checkSeed(seed);
  const cfg = resolveConfig(config);
  const rng = createRng(seed);
  const p: SeatState[] = [0, 1].map((side) => {
    const deck = cfg.decks[side].slice();
    if (cfg.shuffle) shuffleInPlace(rng, side === 0 ? 'deck0' : 'deck1', deck);
    const hand = deck.splice(0, cfg.hand[side]);
    const score = cfg.startPoints[side] > 0 ? [{ card: 'start', pts: cfg.startPoints[side] }] : [];
    return { clicks: 0, credits: cfg.credits[side], deck, hand, heap: [], score, installed: [] };
  });
  const s: DuelState = {
    cfg: {
      clicks: cfg.clicks.slice(),
      maxHand: cfg.maxHand.slice(),
      turns: cfg.turns,
      variant: cfg.variant,
      cards: [cfg.decks[0].length, cfg.decks[1].length],
      startPoints: cfg.startPoints.slice(),
    },
    rng,
    turn: { owner: CORP, phase: 'draw', id: 1, formalBegun: false, formalEnded: false, begunCounts: [0, 0] },
    step: 'C1',
    next: 2,
    p,
    remote: null,
    ice: [],
    core: 0,
    skip: false,
    directed: false,
    action: null,
    run: null,
    receipt: 0,
    dmg: null,
    cpDue: false,
    queue: [],
    win: [],
    ask: null,
    turns: 1,
    result: null,
  };
  advance(s, events);
  return s;
}
