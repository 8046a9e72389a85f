// A ruleset that exists only in the browser tests: no board, no describe, nothing in the page knows
// it. Two seats take 1 or 2 pebbles from a pile in turn; whoever takes the last one wins. A `note`
// action with a free text parameter (a menu template) writes on the table and passes the turn.

import { reject, type Json, type Menu, type RulesetPackage } from '../../packages/engine/src/kernel/index.ts';

type PebblesState = { pile: number; turn: number; notes: string[]; winner: number };
type PebblesAction = { type: 'take'; count: number } | { type: 'note'; text: string };

const NOTE_SCHEMA = {
  type: 'object',
  properties: { type: { const: 'note' }, text: { type: 'string', minLength: 1, maxLength: 40 } },
  required: ['type', 'text'],
  additionalProperties: false,
};

function legal(s: PebblesState, seat: number): Menu<PebblesAction> {
  if (s.winner >= 0 || seat !== s.turn) return { actions: [] };
  const actions: PebblesAction[] = [{ type: 'take', count: 1 }];
  if (s.pile >= 2) actions.push({ type: 'take', count: 2 });
  actions.push({ type: 'note', text: 'hello' });
  return { actions, templates: [{ family: 'note', schema: NOTE_SCHEMA, example: { type: 'note', text: 'hello' } }] };
}

export const pebblesPackage: RulesetPackage<PebblesState, PebblesAction> = {
  ruleset: {
    id: 'pebbles',
    version: 'pebbles-1',
    title: 'Pebbles (a test-only ruleset)',
    catalog: {
      rules: [
        { id: 'PB-1', summary: 'Seats alternate taking 1 or 2 pebbles.' },
        { id: 'PB-2', summary: 'Whoever takes the last pebble wins.' },
        { id: 'PB-3', summary: 'A note of 1 to 40 characters passes the turn.' },
      ],
      uItems: [],
    },
    defaultConfig: { pile: 7 },
    configSchema: {
      type: 'object',
      properties: {
        pile: { type: 'integer', minimum: 1, maximum: 30, default: 7, description: 'pebbles at the start' },
      },
      additionalProperties: false,
    },
    setup(config) {
      const c = (config ?? {}) as { pile?: number };
      return { pile: c.pile ?? 7, turn: 0, notes: [], winner: -1 };
    },
    seats: () => 2,
    pending: (s) => (s.winner >= 0 ? [] : [{ seat: s.turn, kind: 'take' }]),
    legal,
    validate(s, seat, input) {
      const a = input as Partial<Record<string, Json>>;
      if (a?.type === 'note') {
        if (typeof a.text !== 'string' || a.text.length < 1 || a.text.length > 40 || Object.keys(a).length !== 2)
          return { ok: false, error: reject('bad_request', 'a note is {"type":"note","text": 1..40 characters}') };
        return { ok: true, action: { type: 'note', text: a.text } };
      }
      const found = legal(s, seat).actions.find((m) => m.type === 'take' && m.count === a?.count);
      if (a?.type !== 'take' || !found || Object.keys(a).length !== 2)
        return { ok: false, error: reject('illegal', 'take 1 or 2 pebbles (no more than the pile holds)') };
      return { ok: true, action: found };
    },
    apply(s, seat, a, events) {
      if (a.type === 'note') {
        s.notes.push(a.text);
        events.push({ type: 'noted', seat, text: a.text });
      } else {
        s.pile -= a.count;
        events.push({ type: 'took', seat, count: a.count, left: s.pile });
        if (s.pile === 0) {
          s.winner = seat;
          events.push({ type: 'won', seat });
          return;
        }
      }
      s.turn = 1 - s.turn;
    },
    view: (s) => ({ pile: s.pile, turn: s.turn, notes: s.notes, winner: s.winner }),
    outcome: (s) => (s.winner >= 0 ? { winners: [s.winner], reason: 'took the last pebble' } : null),
  },
  gameType: {
    seats: { min: 2, max: 2 },
    turns: 'sequential',
    chance: 'none',
    information: 'perfect',
    outcome: ['winners'],
  },
  agents: {},
  presets: {},
  tools: [],
  scenarios: '',
  rulesPage: () => '# Pebbles\n',
};
