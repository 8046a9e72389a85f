// Who the caller is: seat tokens (made, hashed, found in constant time), spectate passwords, and
// seat claims (a join takes an open seat in the store under its lock). No HTTP here: refusals are
// DomainErrors, which the edge maps to statuses.

import { createHash, randomBytes, randomFillSync, scryptSync, timingSafeEqual } from 'node:crypto';
import { ArbiterError, type Seat } from '@arbiter/engine/kernel';
import { DomainError } from './errors.ts';
import type { LiveMatch } from './live.ts';
import type { SeatRow, Store } from './store.ts';
import { closedByDefault, storedPolicy, watchPolicy, type Delay } from './watch.ts';

/** A seat, or a spectator (who sees the match `delay` ago when its creator chose a delay). */
export type Audience = { seat: Seat } | { seat: null; delay?: Delay };

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Each seat row's stored token hash as bytes, made once per row (rows are replaced, never changed). */
const seatHashBytes = new WeakMap<SeatRow, Buffer>();

function sameHash(s: SeatRow & { tokenHash: string }, h: Buffer): boolean {
  let x = seatHashBytes.get(s);
  if (!x) {
    x = Buffer.from(s.tokenHash, 'hex');
    seatHashBytes.set(s, x);
  }
  return x.length === h.length && timingSafeEqual(x, h);
}

/** The seat whose stored token hash is `h` (compared in constant time), or -1. */
function findSeat(seats: readonly SeatRow[], h: Buffer): Seat {
  let found = -1;
  for (const s of seats)
    if (s.tokenHash && sameHash(s as SeatRow & { tokenHash: string }, h) && found < 0) found = s.seat;
  return found;
}

// Random bytes for match ids and seat tokens, drawn from the same CSPRNG a block at a time (one
// call per 256 tokens instead of one each); every byte is handed out once.
const POOL = Buffer.alloc(4096);
let poolAt = POOL.length;

function randomText(bytes: number): string {
  if (poolAt + bytes > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  const out = POOL.toString('base64url', poolAt, poolAt + bytes);
  poolAt += bytes;
  return out;
}

/**
 * A new match id: the creation time (base 36, so ids sort by time) and 48 random bits. Matches
 * created together sit together in the stores' indexes, so the writes of the matches being played
 * now touch a few pages at the right edge of each B-tree instead of one page anywhere in it each.
 */
export function matchId(): string {
  return Date.now().toString(36).padStart(9, '0') + randomText(6);
}

function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, 32, { N: 4096 }).toString('hex')}`;
}

function checkPassword(password: string, stored: string): boolean {
  const [, salt, want] = stored.split('$');
  const got = scryptSync(password, Buffer.from(salt, 'hex'), 32, { N: 4096 });
  return timingSafeEqual(got, Buffer.from(want, 'hex'));
}

/** What a match row keeps of its creator's watching choice: a password's hash, a delay, public, or null. */
export function spectateColumn(o: { password?: string; delay?: Delay; public?: boolean }): string | null {
  return o.password ? hashPassword(o.password) : storedPolicy({ delay: o.delay, public: o.public });
}

/** The seat a token belongs to, or token_required / token_unknown. */
export async function seatOf(
  m: LiveMatch,
  store: Store,
  token: string | undefined,
  tokenHash?: string,
): Promise<{ seat: Seat; tokenHash: string }> {
  if (!token) throw new DomainError('token_required', 'a seat token is required (Authorization: Bearer TOKEN)');
  // the caller may pass sha256(token) it already computed (the rate limiter's key)
  const h = tokenHash ?? sha256(token);
  const hb = Buffer.from(h, 'hex');
  let seat = findSeat(m.seats, hb);
  if (seat < 0 && store.kind === 'postgres') {
    // a seat taken through another server
    m.seats = await store.getSeats(m.id);
    seat = findSeat(m.seats, hb);
  }
  if (seat < 0) throw new DomainError('token_unknown', 'this token holds no seat in this match');
  return { seat, tokenHash: h };
}

/** Whether sha256(token) holds a seat of the match (nothing is read from the store). */
export function holdsSeat(m: LiveMatch, tokenHash: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(tokenHash)) return false;
  return findSeat(m.seats, Buffer.from(tokenHash, 'hex')) >= 0;
}

/** Who the caller is: a seat (token), or a spectator (password when the match is private). */
export async function audienceOf(
  m: LiveMatch,
  store: Store,
  token: string | undefined,
  password: string | undefined,
  tokenHash?: string,
): Promise<Audience> {
  if (token) return { seat: (await seatOf(m, store, token, tokenHash)).seat };
  const policy = watchPolicy(m.row.spectateHash);
  if (policy.kind === 'password') {
    if (!(typeof password === 'string' && password.length <= 1024 && checkPassword(password, policy.hash)))
      throw new DomainError('spectate_password', 'this match is private: spectating needs its password');
    return { seat: null };
  }
  // delays and the closed default last while the match runs; a finished match is public
  if (m.status === 'finished' || policy.kind === 'public') return { seat: null };
  if (policy.kind === 'delay') return { seat: null, delay: policy.delay };
  if (closedByDefault(m))
    throw new DomainError(
      'spectate_closed',
      "this match's spectators see every seat's secrets: it can be watched once it is over (its creator chose no spectate password, delay or public watching)",
    );
  return { seat: null };
}

/** The seat a join asks for (or the first open one), refused with the reason when it cannot be had. */
function pickSeat(seats: SeatRow[], seat: number | undefined): number {
  const open = seats.filter((s) => s.kind === 'open').map((s) => s.seat);
  const want = seat ?? open[0];
  if (want === undefined) throw new DomainError('no_open_seat', 'no open seat in this match');
  if (!seats.some((s) => s.seat === want))
    throw new ArbiterError('bad_request', `seat ${want} does not exist (seats are 0..${seats.length - 1})`);
  if (!open.includes(want)) throw new DomainError('seat_not_open', `seat ${want} is not open`);
  return want;
}

/**
 * Claim a seat for `name` in the store and in the match's copy of its seats; the new token is
 * handed out once and only its hash is kept. Call it in the match's queue.
 */
export async function claimSeat(
  m: LiveMatch,
  store: Store,
  seat: number | undefined,
  name: string,
): Promise<{ seat: Seat; token: string }> {
  if (m.status === 'finished') throw new DomainError('match_over', 'the match is over');
  const token = randomText(16);
  const tokenHash = sha256(token);
  let pick = -1;
  // async, so that pickSeat's refusal (made from a copy of the seats that may be stale) rejects
  // the attempt like a failed claim instead of throwing past the retry below
  const attempt = async (): Promise<number | null> => {
    pick = pickSeat(m.seats, seat);
    return store.claimSeat(m.id, pick, name, tokenHash);
  };
  let open: number | null;
  if (store.kind === 'postgres') {
    // another server may have taken or given back seats: our copy is read again only when the
    // first try fails, so the usual join is one write
    open = await attempt().catch(() => null);
    if (open === null) {
      m.seats = await store.getSeats(m.id);
      open = await attempt();
    }
  } else open = await attempt();
  if (open === null) throw new DomainError('seat_taken', `seat ${pick} was taken meanwhile`);
  const want = pick;
  m.seats = m.seats.map((s) => (s.seat === want ? { seat: want, kind: 'player', name, tokenHash } : s));
  // the store counted the open seats under its lock; when our copy disagrees, another server
  // changed seats meanwhile
  if (m.seats.filter((s) => s.kind === 'open').length !== open) m.seats = await store.getSeats(m.id);
  if (m.status === 'waiting' && open === 0) m.status = 'running';
  m.row = { ...m.row, status: m.status };
  return { seat: want, token };
}

/** Give a seat back: the store forgets its token, the match's copy shows it open. */
export async function releaseSeat(m: LiveMatch, store: Store, seat: Seat, tokenHash: string): Promise<void> {
  await store.releaseSeat(m.id, seat, tokenHash);
  m.seats = m.seats.map((s) => (s.seat === seat ? { seat, kind: 'open', name: null, tokenHash: null } : s));
}
