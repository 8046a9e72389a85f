// The rule conditions of every action, in one place: `check` says whether `seat` may take
// `action` in `state` now. `validate` (the ruleset's one validation path: the zod schema, then
// `check`, neither changing anything) uses it on submission; the turn resolution uses it again
// when the action's turn comes (an action that became impossible then fizzles).

import { reject, requireObject, type Pending, type Rejection, type Validation } from '../../kernel/index.ts';
import { CHART, OPEN_OFFERS_MAX } from './constants.ts';
import { actionSchema, type Action } from './schema.ts';
import { guildOf, isActive, neighbours, pactBetween, pairKey, type BncState } from './state.ts';

function no(sub: string, reason: string, extra: Record<string, string | number> = {}): Rejection {
  return reject('illegal', reason, { sub_reason: sub, ...extra });
}

function distinct(list: readonly string[]): boolean {
  return new Set(list).size === list.length;
}

function otherActive(s: BncState, seat: number, to: number): Rejection | null {
  if (to === seat) return no('self', 'a contestant cannot address itself');
  if (!isActive(s, to)) return no('not_active', `contestant ${to} is not in the match`, { to });
  return null;
}

/** null when `seat` may take `action` now; otherwise the reason it may not. */
export function check(s: BncState, seat: number, a: Action): Rejection | null {
  const c = s.contestants[seat];
  if (!c || c.status !== 'active') return no('not_active', 'only an active contestant acts');
  switch (a.type) {
    case 'wait':
      return null;
    case 'move':
      return neighbours(s, c).includes(a.to)
        ? null
        : no('no_edge', `no visible edge from zone ${c.zone} to zone ${a.to}`, { from: c.zone, to: a.to });
    case 'pickup':
      return s.floor[c.zone].includes(a.item)
        ? null
        : no('not_here', `${a.item} is not lying in this zone`, { item: a.item });
    case 'use_chart':
      // U04: the chart stays usable while held, even when it has nothing new to show
      return c.items.includes(CHART) ? null : no('no_chart', 'the contestant does not hold the survey chart');
    case 'attack':
      if (s.warden.down) return no('warden_down', 'the Warden has fallen');
      return s.warden.zone === c.zone ? null : no('warden_absent', 'the Warden is not in this zone');
    case 'say':
      return null;
    case 'whisper':
      return otherActive(s, seat, a.to);
    case 'offer': {
      const bad = otherActive(s, seat, a.to);
      if (bad) return bad;
      if (a.give.length + a.get.length === 0) return no('empty_offer', 'an offer names at least one item');
      if (!distinct(a.give) || !distinct(a.get)) return no('duplicate_item', 'an item appears twice in the offer');
      for (const it of a.give)
        if (!c.items.includes(it)) return no('not_held', `the offerer does not hold ${it}`, { item: it });
      for (const it of a.get)
        if (c.items.includes(it)) return no('already_held', `the offerer already holds ${it}`, { item: it });
      if (s.offers.filter((o) => o.from === seat).length >= OPEN_OFFERS_MAX)
        return no('too_many_offers', `at most ${OPEN_OFFERS_MAX} open offers per contestant`);
      return null;
    }
    case 'accept_offer': {
      const o = s.offers.find((x) => x.id === a.offer);
      if (!o || o.to !== seat) return no('no_offer', `no open offer ${a.offer} to this contestant`, { offer: a.offer });
      const from = s.contestants[o.from];
      if (from.zone !== c.zone) return no('apart', 'both parties must share a zone to exchange items', { offer: o.id });
      if (!o.give.every((it) => from.items.includes(it)))
        return no('offerer_lacks', 'the offerer no longer holds every offered item', { offer: o.id });
      if (!o.get.every((it) => c.items.includes(it)))
        return no('recipient_lacks', 'the recipient does not hold every requested item', { offer: o.id });
      return null;
    }
    case 'reject_offer': {
      const o = s.offers.find((x) => x.id === a.offer);
      return o && (o.to === seat || o.from === seat)
        ? null
        : no('no_offer', `no open offer ${a.offer} involving this contestant`, { offer: a.offer });
    }
    case 'propose_alliance': {
      const bad = otherActive(s, seat, a.to);
      if (bad) return bad;
      if (pactBetween(s, seat, a.to)) return no('already_allied', 'these two already have a pact');
      if (s.proposals.some((p) => pairKey(p.from, p.to) === pairKey(seat, a.to)))
        return no('already_proposed', 'a proposal between these two is open');
      return null;
    }
    case 'accept_alliance': {
      const p = s.proposals.find((x) => x.id === a.proposal);
      if (!p || p.to !== seat)
        return no('no_proposal', `no open proposal ${a.proposal} to this contestant`, { proposal: a.proposal });
      return pactBetween(s, p.from, seat) ? no('already_allied', 'these two already have a pact') : null;
    }
    case 'reject_alliance': {
      const p = s.proposals.find((x) => x.id === a.proposal);
      return p && (p.to === seat || p.from === seat)
        ? null
        : no('no_proposal', `no open proposal ${a.proposal} involving this contestant`, { proposal: a.proposal });
    }
    case 'break_alliance': {
      const p = s.pacts.find((x) => x.id === a.pact);
      return p && (p.a === seat || p.b === seat)
        ? null
        : no('no_pact', `no pact ${a.pact} with this contestant in it`, { pact: a.pact });
    }
    case 'found_guild':
      return c.guild === null ? null : no('in_guild', 'a guild member cannot found another guild');
    case 'invite_guild': {
      if (c.guild === null) return no('no_guild', 'only a guild member can invite');
      const bad = otherActive(s, seat, a.to);
      if (bad) return bad;
      // U25: whether the invitee is in a guild is private, so it is judged when the invitee answers
      // (accept_guild needs it unaligned), never here where the answer would reveal it
      if (s.contestants[a.to].guild === c.guild)
        return no('same_guild', `contestant ${a.to} is already in your guild`, { to: a.to });
      if (s.invitations.some((i) => i.from === seat && i.to === a.to))
        return no('already_invited', 'this contestant already has an open invitation from you');
      return null;
    }
    case 'accept_guild': {
      const inv = s.invitations.find((x) => x.id === a.invitation);
      if (!inv || inv.to !== seat)
        return no('no_invitation', `no open invitation ${a.invitation} to this contestant`, {
          invitation: a.invitation,
        });
      if (c.guild !== null) return no('in_guild', 'leave the current guild before joining another');
      return null;
    }
    case 'reject_guild': {
      const inv = s.invitations.find((x) => x.id === a.invitation);
      return inv && inv.to === seat
        ? null
        : no('no_invitation', `no open invitation ${a.invitation} to this contestant`, { invitation: a.invitation });
    }
    case 'leave_guild':
      return c.guild === null ? no('no_guild', 'the contestant is in no guild') : null;
    case 'deposit': {
      const g = guildOf(s, c);
      if (!g) return no('no_guild', 'only a guild member can deposit');
      if (g.home !== c.zone) return no('away_from_home', `the vault is at zone ${g.home}`, { home: g.home });
      return c.items.includes(a.item)
        ? null
        : no('not_held', `the contestant does not hold ${a.item}`, { item: a.item });
    }
    case 'withdraw': {
      const g = guildOf(s, c);
      if (!g) return no('no_guild', 'only a guild member can withdraw');
      if (g.home !== c.zone) return no('away_from_home', `the vault is at zone ${g.home}`, { home: g.home });
      return g.vault.includes(a.item) ? null : no('not_in_vault', `${a.item} is not in the vault`, { item: a.item });
    }
  }
}

/** The contract's `pending`: every active contestant that has not submitted this turn's action. */
export function pending(s: BncState): Pending[] {
  const out: Pending[] = [];
  if (s.over) return out;
  for (const c of s.contestants) if (owes(s, c.seat)) out.push({ seat: c.seat, kind: 'turn', turn: s.turn + 1 });
  return out;
}

/** Whether `seat` owes a submission now. */
export function owes(s: BncState, seat: number): boolean {
  const c = s.contestants[seat];
  return !s.over && c !== undefined && c.status === 'active' && c.submitted === null;
}

/** Untrusted input → an action: schema (bad_request naming the failing path), then the rules (illegal). */
export function validate(s: BncState, seat: number, input: unknown): Validation<Action> {
  const obj = requireObject(input);
  if (!obj.ok) return obj;
  const parsed = actionSchema.safeParse(obj.action);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      error: reject(
        'bad_request',
        `action does not match its schema: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
        {
          path: issue.path.map(String),
          issue: issue.code,
        },
      ),
    };
  }
  if (!owes(s, seat))
    return {
      ok: false,
      error: reject('illegal', 'this contestant has already submitted for this turn', { sub_reason: 'submitted' }),
    };
  const bad = check(s, seat, parsed.data);
  return bad ? { ok: false, error: bad } : { ok: true, action: parsed.data };
}
