// Abandoned matches: a match that is not finished and has not changed for `expireAfterMs` (no
// submission since it was created or since its last one) has expired. Expired matches leave the
// list the lobby reads (`GET /api/matches`, unless `?expired=include`), and an expired match that
// still waits for players takes no more joins. Nothing is deleted: logs stay readable, and a player
// holding a seat token can still act (a move makes the match current again).

import { DomainError } from './errors.ts';

/** One hour; `arbiter serve --expire-after MINUTES` changes it, 0 turns expiry off. */
export const DEFAULT_EXPIRE_AFTER_MS = 60 * 60_000;

type Dated = { status?: unknown; updatedAt?: unknown };

export function expired(rec: Dated, now: number, expireAfterMs: number): boolean {
  if (expireAfterMs <= 0 || rec.status === 'finished') return false;
  return typeof rec.updatedAt === 'number' && now - rec.updatedAt >= expireAfterMs;
}

/** Refuses a join of an expired waiting match. */
export function refuseExpiredJoin(rec: Dated, now: number, expireAfterMs: number): void {
  if (rec.status === 'waiting' && expired(rec, now, expireAfterMs))
    throw new DomainError(
      'match_expired',
      `this match expired: its open seats were not taken within ${Math.round(expireAfterMs / 60_000)} minute(s)`,
    );
}
