// Readable lines for the terminal: actions, events and outcomes, using the ruleset's own
// descriptions where it has them and compact JSON where it does not.

import { pc } from '../colors.ts';
import { canonicalJson, type GameEvent, type Json, type Outcome, type Ruleset } from '@arbiter/engine/kernel';
import type { LogEntry } from '@arbiter/engine/match';

function compact(v: unknown, max = 160): string {
  const s = canonicalJson(v ?? null);
  return s.length > max ? s.slice(0, max) + '…' : s;
}

export function describeEvent(rs: Ruleset, e: GameEvent): string {
  if (rs.describeEvent) {
    try {
      return rs.describeEvent(e);
    } catch {
      /* fall back to JSON */
    }
  }
  return compact(e);
}

function describeAction(rs: Ruleset, action: Json, seat: number): string {
  if (rs.describeAction) {
    try {
      return rs.describeAction(action, seat);
    } catch {
      /* fall back to JSON */
    }
  }
  return compact(action);
}

export function entryLines(rs: Ruleset, entry: LogEntry, agentName?: string): string[] {
  const who = `seat ${entry.seat}${agentName ? ` (${agentName})` : ''}`;
  const head = `${pc.dim(String(entry.seq).padStart(4))}  ${pc.cyan(who)}: ${describeAction(rs, entry.input, entry.seat)}`;
  if (entry.result === 'rejected')
    return [head, `        ${pc.red('refused')} ${entry.error?.code}: ${entry.error?.reason}`];
  if (entry.result === 'defaulted' && entry.default) {
    const d = entry.default;
    const raw =
      d.raw === null ? '' : ` — answer ${JSON.stringify(d.raw.length > 200 ? d.raw.slice(0, 200) + '…' : d.raw)}`;
    const why = `${pc.yellow('default')} (${d.reason}, request ${d.request})${d.error ? `: ${d.error.code}: ${d.error.reason}` : ''}${raw}`;
    return [head, `        ${why}`, ...entry.events.map((e) => `        ${describeEvent(rs, e)}`)];
  }
  return [
    head,
    ...entry.events.map((e) => `        ${e.type === 'beat' ? pc.magenta('★ ') : ''}${describeEvent(rs, e)}`),
  ];
}

export function outcomeLine(o: Outcome | null): string {
  if (!o) return pc.yellow('no outcome (stopped before the end)');
  const winners = o.winners.length
    ? `winner${o.winners.length > 1 ? 's' : ''}: seat ${o.winners.join(', ')}`
    : 'no winner';
  const extra = [o.scores ? `scores ${o.scores.join('/')}` : '', o.places ? `places ${o.places.join('/')}` : '']
    .filter(Boolean)
    .join('; ');
  return `${pc.bold(winners)} — ${o.reason}${extra ? ` (${extra})` : ''}`;
}
