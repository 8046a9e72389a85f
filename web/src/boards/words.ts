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

export function outcomeText(outcome: Json | null, seat: number | null): string {
  if (outcome === null || typeof outcome !== 'object' || Array.isArray(outcome)) return '';
  const winners = Array.isArray(outcome.winners) ? outcome.winners : [];
  const reason = typeof outcome.reason === 'string' ? outcome.reason : '';
  const who =
    winners.length === 0
      ? 'No winner'
      : `Won by ${winners.map((w) => (w === seat ? `you (seat ${String(w)})` : `seat ${String(w)}`)).join(', ')}`;
  return reason ? `${who}: ${reason}` : who;
}
