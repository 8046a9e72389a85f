// legal(): the authoritative menu. Finite families are enumerated; families with free parameters
// (text, item lists, a number of turns) are templates with their JSON Schema, and one filled-in
// example of each sits among the actions. `wait` is always first (agents fall back to it, U11).

import type { Menu, Template } from '../../kernel/index.ts';
import { ALLIANCE_TURNS_MAX, CHART, GUILD_TERM_MAX, ITEM_IDS, OFFER_TURNS_MAX } from './constants.ts';
import { check, owes } from './conditions.ts';
import { jsonSchemaOf, type Action, type ActionType } from './schema.ts';
import { guildOf, neighbours, type BncState } from './state.ts';

const WAIT: Action = Object.freeze({ type: 'wait' });

const DESCRIPTIONS: Partial<Record<ActionType, string>> = {
  say: 'speak to every contestant in your zone (at most 240 code points)',
  whisper: 'speak privately to one active contestant (at most 240 code points)',
  offer: 'offer up to 5 of your items for up to 5 of theirs; open for 1–15 turns',
  propose_alliance: 'propose a two-party pact lasting 1–30 turns',
  found_guild: 'found a guild at your current zone with a term of 1–30 turns',
};

/** The families this menu publishes as templates (free parameters: text, item lists, terms). */
export const FREE_FAMILIES: readonly ActionType[] = ['say', 'whisper', 'offer', 'propose_alliance', 'found_guild'];

function template(family: ActionType, example: Action): Template {
  return { family, schema: jsonSchemaOf(family), example, description: DESCRIPTIONS[family] ?? family };
}

export function legal(s: BncState, seat: number): Menu<Action> {
  if (!owes(s, seat)) return { actions: [] };
  const c = s.contestants[seat];
  const actions: Action[] = [WAIT];
  const templates: Template[] = [];
  const push = (a: Action) => {
    if (check(s, seat, a) === null) actions.push(a);
  };
  for (const to of neighbours(s, c)) actions.push({ type: 'move', to });
  for (const item of s.floor[c.zone]) actions.push({ type: 'pickup', item });
  if (c.items.includes(CHART)) push({ type: 'use_chart' });
  push({ type: 'attack' });
  for (const o of s.offers) {
    if (o.to === seat) push({ type: 'accept_offer', offer: o.id });
    if (o.to === seat || o.from === seat) actions.push({ type: 'reject_offer', offer: o.id });
  }
  for (const p of s.proposals) {
    if (p.to === seat) push({ type: 'accept_alliance', proposal: p.id });
    if (p.to === seat || p.from === seat) actions.push({ type: 'reject_alliance', proposal: p.id });
  }
  for (const p of s.pacts) if (p.a === seat || p.b === seat) actions.push({ type: 'break_alliance', pact: p.id });
  for (const i of s.invitations) {
    if (i.to !== seat) continue;
    push({ type: 'accept_guild', invitation: i.id });
    actions.push({ type: 'reject_guild', invitation: i.id });
  }
  const g = guildOf(s, c);
  if (g) {
    actions.push({ type: 'leave_guild' });
    if (g.home === c.zone) {
      for (const item of c.items) actions.push({ type: 'deposit', item });
      for (const item of g.vault) actions.push({ type: 'withdraw', item });
    }
  }
  const others = s.contestants.filter((o) => o.seat !== seat && o.status === 'active').map((o) => o.seat);
  if (g) for (const to of others) push({ type: 'invite_guild', to });

  // free-parameter families: the example text names seat and turn so it is unique per speaker
  const say: Action = { type: 'say', text: `seat ${seat} speaks on turn ${s.turn + 1}.` };
  actions.push(say);
  templates.push(template('say', say));
  if (others.length > 0) {
    const to = others[0];
    const whisper: Action = { type: 'whisper', to, text: `seat ${seat} whispers to ${to} on turn ${s.turn + 1}.` };
    actions.push(whisper);
    templates.push(template('whisper', whisper));
    const offer = exampleOffer(s, seat, others);
    if (offer) {
      actions.push(offer);
      templates.push(template('offer', offer));
    }
    const ally = others.find((o) => check(s, seat, { type: 'propose_alliance', to: o, turns: 1 }) === null);
    if (ally !== undefined) {
      const p: Action = { type: 'propose_alliance', to: ally, turns: ALLIANCE_TURNS_MAX };
      actions.push(p);
      templates.push(template('propose_alliance', p));
    }
  }
  if (!g) {
    const f: Action = { type: 'found_guild', term: GUILD_TERM_MAX };
    actions.push(f);
    templates.push(template('found_guild', f));
  }
  return { actions, templates };
}

function exampleOffer(s: BncState, seat: number, others: number[]): Action | null {
  const c = s.contestants[seat];
  const wanted = ITEM_IDS.filter((it) => !c.items.includes(it));
  for (const to of others) {
    const a: Action =
      c.items.length > 0
        ? { type: 'offer', to, give: [c.items[0]], get: [], turns: OFFER_TURNS_MAX }
        : { type: 'offer', to, give: [], get: [wanted[0]], turns: OFFER_TURNS_MAX };
    if (check(s, seat, a) === null) return a;
  }
  return null;
}
