// Non-interference: two states that differ only in something private to other contestants must
// look the same to a seat — the same view, the same menu, and the same answer (acceptance or
// refusal, reason and detail) to every probe input. Each pair below is a leak the review found.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, type Json } from '../../packages/engine/src/kernel/index.ts';
import { bnc, type BncState } from '../../packages/engine/src/rulesets/bnc/index.ts';

const PROBES: Json[] = [
  ...[1, 2, 3].map((to) => ({ type: 'invite_guild', to })),
  ...['I1', 'I2'].flatMap((id) => [
    { type: 'accept_guild', invitation: id },
    { type: 'reject_guild', invitation: id },
  ]),
  ...[1, 2, 3].map((to) => ({ type: 'whisper', to, text: 'hello there' })),
  ...[1, 2, 3].map((to) => ({ type: 'propose_alliance', to, turns: 5 })),
  { type: 'leave_guild' },
  { type: 'found_guild', term: 10 },
];

function observe(s: BncState, seat: number): string {
  const probes = PROBES.map((p) => {
    const r = bnc.validate!(s, seat, p);
    return r.ok ? 'accepted' : { code: r.error.code, reason: r.error.reason, detail: r.error.detail ?? null };
  });
  return canonicalJson({ view: bnc.view(s, seat), menu: bnc.legal(s, seat), probes });
}

function base(): BncState {
  return bnc.setup({}, 1);
}

function guild(s: BncState, id: string, members: number[], home = 0): void {
  s.guilds.push({ id, home, members, vault: [], founded: 0, expiresAt: 30, claimSpent: false });
  for (const m of members) s.contestants[m].guild = id;
}

function assertSameTo(seat: number, a: BncState, b: BncState, what: string): void {
  assert.deepEqual(bnc.invariants!(a), []);
  assert.deepEqual(bnc.invariants!(b), []);
  assert.equal(observe(a, seat), observe(b, seat), `seat ${seat} can tell ${what}`);
}

test('[BNC-V03, BNC-G02] whether another contestant is in a guild changes nothing a member sees: view, menu (invite_guild) or refusals', () => {
  const a = base();
  guild(a, 'G1', [0]);
  const b = structuredClone(a);
  guild(b, 'G2', [2], 3);
  assertSameTo(0, a, b, 'that contestant 2 is in a guild');
  // and an unaligned contestant cannot tell either
  const c = base();
  const d = structuredClone(c);
  guild(d, 'G2', [2], 3);
  assertSameTo(1, c, d, 'that contestant 2 is in a guild');
});

test("[BNC-V03, BNC-G02] an invitation is private to inviter and invitee: the inviter's guild-mates cannot see it", () => {
  const a = base();
  guild(a, 'G1', [0, 1]);
  const b = structuredClone(a);
  b.invitations.push({ id: 'I1', guild: 'G1', from: 1, to: 3, made: 0, expiresAt: 15 });
  b.serial.invitation = 1;
  assertSameTo(0, a, b, 'that its guild-mate invited contestant 3');
  assertSameTo(2, a, b, 'that contestant 1 invited contestant 3');
  // the parties themselves do see it
  assert.notEqual(observe(a, 1), observe(b, 1));
  assert.notEqual(observe(a, 3), observe(b, 3));
});

test('[BNC-V03, BNC-S02, BNC-U19] a whisper tells its recipient who spoke and what, not the zone the speaker stood in', () => {
  const whisperFrom = (zone: number) => {
    const s = base();
    s.contestants[1].zone = 4;
    s.messages.push({ turn: 1, from: 1, to: 0, zone, text: 'meet me by the pumps', heard: [0] });
    return s;
  };
  const a = whisperFrom(2);
  const b = whisperFrom(3);
  assertSameTo(0, a, b, 'where the whisperer stood');
  const seen = canonicalJson(bnc.view(a, 0));
  assert.ok(seen.includes('meet me by the pumps'), 'the recipient does hear the whisper');
  // the speaker keeps its own full record
  assert.notEqual(observe(a, 1), observe(b, 1));
  // and the stored record is listed among the recipient's secrets, so the whole-match check covers it
  assert.ok(bnc.secrets!(a, 0).some((x) => canonicalJson(x) === canonicalJson(a.messages[0])));
});
