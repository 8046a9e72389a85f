// Plain words for JSON the page knows nothing about: action labels and scalar values.
import type { Json } from './types.ts';

export function scalar(v: Json): string {
  if (v === null) return 'none';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** "mark: cell 4" for {"type":"mark","cell":4}; compact JSON for anything deeper. */
export function actionLabel(a: Json): string {
  if (a === null || typeof a !== 'object' || Array.isArray(a)) return scalar(a);
  const { type, ...rest } = a;
  const parts = Object.entries(rest).map(([k, v]) => `${k.replace(/_/g, ' ')} ${scalar(v)}`);
  const head = typeof type === 'string' ? type.replace(/_/g, ' ') : 'action';
  return parts.length ? `${head}: ${parts.join(', ')}` : head;
}

/**
 * The outcome as it concerns the reader: "You won" / "You lost: seat 1 won" to a seat, "Won by
 * seat 1" to a spectator, "Everyone won" when every seat shares the win (cooperative games).
 */
export function outcomeText(outcome: Json | null, seat: number | null, seats?: number): string {
  if (outcome === null || typeof outcome !== 'object' || Array.isArray(outcome)) return '';
  const winners = (Array.isArray(outcome.winners) ? outcome.winners : []).filter((w) => typeof w === 'number');
  const reason = typeof outcome.reason === 'string' ? outcome.reason : '';
  const named = winners.map((w) => `seat ${String(w)}`).join(', ');
  const all = seats !== undefined && seats > 1 && winners.length === seats;
  let who: string;
  if (winners.length === 0) who = seat === null ? 'No winner' : 'Nobody won';
  else if (all) who = seat === null ? 'Everyone won together' : 'You all won together';
  else if (seat === null) who = `Won by ${named}`;
  else if (winners.includes(seat))
    who = winners.length === 1 ? 'You won' : `You won, with ${named.replace(`seat ${seat}`, 'you')}`;
  else who = `You lost: ${named} won`;
  return reason ? `${who} (${reason})` : who;
}
