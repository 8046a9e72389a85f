// The card pool: one card kind per contract branch the profile must be able to reach.

type CardKind = 'agenda' | 'operation' | 'asset' | 'event' | 'resource' | 'ice';

export type CardDef = {
  name: string;
  side: 0 | 1;
  kind: CardKind;
  /** Credits to play or install. */
  cost: number;
  /** Agenda points and advancement requirement. */
  pts?: number;
  adv?: number;
  text: string;
  /** ICE: credits the runner pays to break it, and what its subroutine does when it fires. */
  brk?: number;
  sub?: 'end_run' | 'net2';
  /** A card whose ability triggers "when your turn begins" (its installer's turn). */
  onTurnBegin?: true;
  /** True for cards that exist only to reach a branch (no counterpart in the source game). */
  synthetic?: boolean;
};

export const CARDS: Record<string, CardDef> = {
  ledger: {
    name: 'ledger',
    side: 0,
    kind: 'agenda',
    cost: 0,
    pts: 2,
    adv: 3,
    text: 'Agenda worth 2 points, advancement requirement 3. When scored or stolen, the seat taking it gains 1 credit.',
  },
  spike: { name: 'spike', side: 0, kind: 'operation', cost: 1, text: 'Deal 3 net damage to the runner.' },
  burn: { name: 'burn', side: 0, kind: 'operation', cost: 2, text: 'Deal 1 core damage to the runner.' },
  stop: {
    name: 'stop',
    side: 0,
    kind: 'operation',
    cost: 0,
    text: 'Gain 2 credits. Terminal: then end your action phase (directed end).',
  },
  venture: {
    name: 'venture',
    side: 0,
    kind: 'operation',
    cost: 0,
    synthetic: true,
    text: "Put a 2-point token in each seat's score area (the only way to reach a simultaneous win).",
  },
  wall: {
    name: 'wall',
    side: 0,
    kind: 'ice',
    cost: 1,
    brk: 6,
    sub: 'end_run',
    text: 'ICE protecting the remote. Subroutine: end the run. The runner breaks it by paying 6 credits.',
  },
  barb: {
    name: 'barb',
    side: 0,
    kind: 'ice',
    cost: 1,
    brk: 5,
    sub: 'net2',
    text: 'ICE protecting the remote. Subroutine: deal 2 net damage to the runner. The runner breaks it by paying 5 credits.',
  },
  toll: {
    name: 'toll',
    side: 0,
    kind: 'asset',
    cost: 0,
    text: 'After the runner pays the cost of a run, gain 1 credit.',
  },
  bell: { name: 'bell', side: 0, kind: 'asset', cost: 0, text: 'When your action phase ends, gain 1 credit.' },
  dayoff: { name: 'dayoff', side: 1, kind: 'event', cost: 0, text: 'Skip your discard step this turn.' },
  coffee: {
    name: 'coffee',
    side: 1,
    kind: 'resource',
    cost: 1,
    onTurnBegin: true,
    text: 'When your turn begins, gain 1 credit.',
  },
  gamble: { name: 'gamble', side: 1, kind: 'event', cost: 1, text: 'Gain 3 credits.' },
};

export const CARD_NAMES = Object.keys(CARDS).sort();

/** Credits a reaction ability gives its holder when it resolves. */
export const ABILITY_GAIN: Record<string, number> = { toll: 1, bell: 1, coffee: 1, ledger: 1 };
