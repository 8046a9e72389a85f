// The duel's declared schemas: the config with its limits (decks of at most 60 cards and a turn
// bound keep setup, a view and a whole game small) and every action family the menus offer,
// `score` and `pass` (the paid-ability decision) among them. resolveConfig checks the config
// here and adds only what a schema cannot say (a card's side, a hand no larger than its deck).

import { z } from 'zod';
import { CARDS } from './cards.ts';
import type { Variant } from './state.ts';

/** Deliberately broken engine behaviours (tests of the checkers only). */
const VARIANTS: readonly Variant[] = [
  'handoff_resets_counts',
  'return_any_receipt',
  'neg_limit_before_skip',
  'effects_before_drain',
  'effects_skip_reactions',
  'winners_after_drain',
  'directed_skips_checkpoint',
  'damage_not_strict',
  'done_without_complete',
  'steal_opens_window',
  'windows_before_checkpoint',
  'decking_not_fatal',
  'react_window_closes_early',
  'free_advance',
  'points_ignore_tokens',
  'free_break',
  'score_checkpoint_if_winning',
  'begin_trigger_second_copy',
];

/** Cards in one deck (the bound on setup, a view and a game's length). */
const DECK_MAX = 60;
/** Turn frames before a draw by the turn bound. */
const TURNS_MAX = 500;

const CARD_NAMES = Object.keys(CARDS).sort() as [string, ...string[]];
const card = z.enum(CARD_NAMES);

const pair = (lo: number, hi: number, description: string) =>
  z
    .tuple([z.int().min(lo).max(hi), z.int().min(lo).max(hi)])
    .optional()
    .describe(description);

export const configSchema = z.strictObject({
  profile: z
    .enum(['0.3', '0.4'])
    .optional()
    .describe('the reference profile whose defaults fill the fields not given (default 0.4; U-PROFILE)'),
  clicks: pair(1, 9, 'clicks gained per turn [corp, runner] (default [3, 4])'),
  credits: pair(0, 99, 'starting credits (default [5, 5])'),
  hand: pair(0, DECK_MAX, 'starting hand sizes (default [5, 5])'),
  maxHand: pair(0, 20, 'base maximum hand sizes (default [5, 5])'),
  decks: z
    .tuple([z.array(card).max(DECK_MAX), z.array(card).max(DECK_MAX)])
    .optional()
    .describe(`deck lists [corp, runner], at most ${DECK_MAX} cards each`),
  shuffle: z.boolean().optional().describe('shuffle decks at setup (default true)'),
  startPoints: pair(0, 6, 'objective points each seat starts with (default [0, 0])'),
  turns: z.int().min(1).max(TURNS_MAX).optional().describe('turn frames before a draw by the turn bound (default 40)'),
  variant: z
    .enum(VARIANTS as [Variant, ...Variant[]])
    .nullable()
    .optional()
    .describe('a deliberately broken engine behaviour, for checker tests only (default null)'),
});

const bare = <T extends string>(type: T) => z.strictObject({ type: z.literal(type) });

export const actionSchemas = {
  credit: bare('credit'),
  draw: bare('draw'),
  advance: bare('advance'),
  run: bare('run'),
  install: z.strictObject({ type: z.literal('install'), card }),
  play: z.strictObject({ type: z.literal('play'), card }),
  score: bare('score'),
  pass: bare('pass'),
  resolve: z.strictObject({ type: z.literal('resolve'), src: card }),
  continue: bare('continue'),
  jack_out: bare('jack_out'),
  break: bare('break'),
  fire: bare('fire'),
  discard: z.strictObject({ type: z.literal('discard'), cards: z.array(card).min(1).max(DECK_MAX) }),
};
