// bnc-1.1: the Episode 2 survival match. Four contestants, a six-zone spine with hidden
// shortcuts, three access fragments, a Stage Warden, talk, trade, pacts and guilds.

import { reject, requireObject, type GameEvent, type Json, type Pending, type Ruleset, type Validation } from '../../kernel/index.ts';
import { catalog } from './catalog.ts';
import { ITEM_IDS, ZONE_COUNT, ZONE_NAMES } from './constants.ts';
import { describeAction, describeEvent } from './describe.ts';
import { legalMenu, owes } from './menu.ts';
import { metricsOf, outcomeOf } from './outcome.ts';
import { submit } from './resolve.ts';
import { check } from './rules.ts';
import { actionSchema, configSchema, type Action } from './schema.ts';
import { DEFAULT_CONFIG, setupState } from './setup.ts';
import type { BncState } from './state.ts';
import { sampleBnc } from './sample.ts';
import { secretsFor, seatView, spectatorView } from './view.ts';
import { z } from 'zod';
import { bncAgents } from './agents.ts';
import { renderRulesPage } from './rulespage.ts';
import manifest from './manifest.json' with { type: 'json' };
import type { RulesetPackage } from '../../kernel/index.ts';

export type { BncState } from './state.ts';
export type { Action as BncAction } from './schema.ts';

export const bnc: Ruleset<BncState, Action> = {
  id: 'bnc',
  version: 'bnc-1.1',
  title: 'bnc-1.1 — Episode 2 survival match',
  catalog,
  defaultConfig: { ...DEFAULT_CONFIG },
  configSchema: z.toJSONSchema(configSchema) as Record<string, Json>,

  setup: setupState,
  seats: (s) => s.contestants.length,

  pending(s): Pending[] {
    const out: Pending[] = [];
    if (s.over) return out;
    for (const c of s.contestants) if (owes(s, c.seat)) out.push({ seat: c.seat, kind: 'turn', turn: s.turn + 1 });
    return out;
  },

  legal: (s, seat) => legalMenu(s, seat),
  sampleState: sampleBnc,

  validate(s, seat, input): Validation<Action> {
    const obj = requireObject(input);
    if (!obj.ok) return obj;
    const parsed = actionSchema.safeParse(obj.action);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        error: reject('bad_request', `action does not match its schema: ${issue.path.join('.') || '(root)'}: ${issue.message}`, {
          path: issue.path.map(String),
          issue: issue.code,
        }),
      };
    }
    const action = parsed.data as Action;
    if (!owes(s, seat)) return { ok: false, error: reject('illegal', 'this contestant has already submitted for this turn', { sub_reason: 'submitted' }) };
    const bad = check(s, seat, action);
    return bad ? { ok: false, error: bad } : { ok: true, action };
  },

  apply(s, seat, action, events: GameEvent[]) {
    submit(s, seat, action, events);
  },

  view: (s, seat) => (seat === null ? spectatorView(s) : seatView(s, seat)),
  secrets: secretsFor,
  outcome: outcomeOf,
  metrics: metricsOf,
  describeEvent,
  describeAction,

  invariants(s) {
    const bad: string[] = [];
    // every item is in exactly one place (spent fragments excepted)
    const seen: string[] = [];
    for (const f of s.floor) seen.push(...f);
    for (const c of s.contestants) seen.push(...c.items);
    for (const g of s.guilds) seen.push(...g.vault);
    if (new Set(seen).size !== seen.length) bad.push('BNC-M05: an item is in two places');
    const spent = s.contestants.some((c) => c.route === 'fragments');
    if (!spent && seen.length !== ITEM_IDS.length) bad.push('BNC-M05: an item went missing');
    for (const c of s.contestants) {
      if (c.zone < 0 || c.zone >= ZONE_COUNT) bad.push(`contestant ${c.seat} is off the map`);
      if (c.status === 'active' && c.health <= 0) bad.push(`BNC-M07: contestant ${c.seat} is active at 0 health`);
      if (c.status !== 'active' && c.items.length > 0) bad.push(`contestant ${c.seat} left the match holding items`);
      if (c.guild !== null && !s.guilds.some((g) => g.id === c.guild && g.members.includes(c.seat))) bad.push(`contestant ${c.seat} names a guild it is not in`);
    }
    for (const g of s.guilds) if (g.members.length === 0) bad.push(`BNC-G04: guild ${g.id} has no members`);
    if (s.turn > s.config.turns) bad.push('BNC-M06: the clock ran past the last turn');
    return bad;
  },

  checkTransition(before, after, seat) {
    const bad: string[] = [];
    if (after.turn < before.turn || after.turn > before.turn + 1) bad.push('BNC-M06: the clock moves forward one turn at a time');
    if (after.turn === before.turn && after.contestants[seat].submitted === null) bad.push('BNC-M06: a submission is stored until the turn resolves');
    for (let i = 0; i < before.contestants.length; i++) {
      const b = before.contestants[i];
      const a = after.contestants[i];
      if (b.status !== 'active' && (a.status !== b.status || a.at !== b.at)) bad.push(`BNC-M07: contestant ${i} came back after leaving`);
      if (a.health > b.health) bad.push(`contestant ${i} gained health`);
      if (a.health < b.health && after.turn === before.turn) bad.push(`contestant ${i} was hurt before the turn resolved`);
    }
    if (after.warden.health > before.warden.health || (before.warden.down && !after.warden.down)) bad.push('BNC-U08: the Warden recovered');
    if (after.warden.zone !== before.warden.zone) bad.push('BNC-U09: the Warden moved');
    return bad;
  },
};

export { ZONE_NAMES };

export const bncPackage: RulesetPackage<BncState, Action> = {
  ruleset: bnc,
  gameType: { seats: { min: 2, max: 6 }, turns: 'simultaneous', chance: 'setup-and-play', information: 'imperfect', outcome: ['winners', 'places'], defaultAction: 'wait' },
  agents: Object.fromEntries(
    Object.entries(bncAgents).map(([name, factory]) => [name, { factory, description: `scripted ${name} temperament`, reads: 'state' as const }]),
  ),
  presets: {},
  tools: [],
  scenarios: 'scenarios/bnc',
  rulesPage: () => renderRulesPage((manifest as { engine_sha: string | null }).engine_sha),
};
