// Invariants that hold in every reachable state, and contracts on every transition; tests, the
// conformance suite and `explore` run them. Both only read.

import type { Seat } from '../../kernel/index.ts';
import { ITEM_IDS, ZONE_COUNT } from './constants.ts';
import type { BncState } from './state.ts';

export function invariants(s: BncState): string[] {
  const bad: string[] = [];
  // every item is in exactly one place (fragments spent by an escape excepted)
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
    if (c.guild !== null && !s.guilds.some((g) => g.id === c.guild && g.members.includes(c.seat)))
      bad.push(`contestant ${c.seat} names a guild it is not in`);
  }
  for (const g of s.guilds) if (g.members.length === 0) bad.push(`BNC-G04: guild ${g.id} has no members`);
  if (s.turn > s.config.turns) bad.push('BNC-M06: the clock ran past the last turn');
  return bad;
}

export function checkTransition(before: BncState, after: BncState, seat: Seat): string[] {
  const bad: string[] = [];
  if (after.turn < before.turn || after.turn > before.turn + 1)
    bad.push('BNC-M06: the clock moves forward one turn at a time');
  if (after.turn === before.turn && after.contestants[seat].submitted === null)
    bad.push('BNC-M06: a submission is stored until the turn resolves');
  for (let i = 0; i < before.contestants.length; i++) {
    const b = before.contestants[i];
    const a = after.contestants[i];
    if (b.status !== 'active' && (a.status !== b.status || a.at !== b.at))
      bad.push(`BNC-M07: contestant ${i} came back after leaving`);
    if (a.health > b.health) bad.push(`contestant ${i} gained health`);
    if (a.health < b.health && after.turn === before.turn)
      bad.push(`contestant ${i} was hurt before the turn resolved`);
  }
  if (after.warden.health > before.warden.health || (before.warden.down && !after.warden.down))
    bad.push('BNC-U08: the Warden recovered');
  if (after.warden.zone !== before.warden.zone) bad.push('BNC-U09: the Warden moved');
  return bad;
}
