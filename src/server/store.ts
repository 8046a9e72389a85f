// What the server keeps, behind one interface with two backends: an embedded SQLite file (one
// process) and PostgreSQL (several processes on one database). The submissions table's primary key
// (match, seq) is what keeps one history per match: a second writer of the same seq fails.

import type { Json, JsonObject } from '@arbiter/engine/kernel';

export type MatchStatus = 'waiting' | 'running' | 'finished';

export type MatchRow = {
  id: string;
  ruleset: string;
  version: string;
  seed: number;
  config: Json;
  /** The log header as the match began (format, engine, setup events ...). */
  header: JsonObject;
  status: MatchStatus;
  /** A private match needs its spectate password to be watched; null when public. */
  spectateHash: string | null;
  /** Per-seat turn deadline in milliseconds, or null. */
  deadlineMs: number | null;
  seats: number;
  seq: number;
  /** Event-stream hash after `seq` submissions. */
  hash: string;
  outcome: Json;
  createdAt: number;
  updatedAt: number;
};

export type SeatKind = 'open' | 'player' | 'agent';

export type SeatRow = {
  seat: number;
  kind: SeatKind;
  /** A player's chosen name, or the agent spec. */
  name: string | null;
  /** sha256 of the seat token (hex); null for open and agent seats. */
  tokenHash: string | null;
};

export type SubmissionRow = {
  seq: number;
  seat: number;
  input: Json;
  result: 'accepted' | 'defaulted';
  events: Json[];
  /** Why the server played the seat's default action (result 'defaulted'). */
  default: Json;
  idemKey: string | null;
  /** Event-stream hash after this submission. */
  hash: string;
  at: number;
};

export interface MatchFilter {
  ruleset?: string;
  status?: MatchStatus;
  limit: number;
  offset: number;
}

export type AppendResult = 'ok' | 'conflict' | 'duplicate_key';

export interface MatchUpdate {
  status: MatchStatus;
  seq: number;
  hash: string;
  outcome: Json;
}

/** What `/api/health` reports of the store: whether a query just reached it, and (PostgreSQL) whether it hears other servers. */
export type StoreHealth = { ok: boolean; problem?: string; listening?: boolean };

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  init(): Promise<void>;
  createMatch(m: MatchRow, seats: SeatRow[]): Promise<void>;
  getMatch(id: string): Promise<MatchRow | null>;
  getSeats(id: string): Promise<SeatRow[]>;
  listMatches(f: MatchFilter): Promise<MatchRow[]>;
  unfinished(): Promise<string[]>;
  /**
   * Take an open seat (atomic): null when someone else has it, else how many seats are still open.
   * The last seat taken starts the match.
   */
  claimSeat(id: string, seat: number, name: string, tokenHash: string): Promise<number | null>;
  /** Give a player's seat back (it becomes open again). */
  releaseSeat(id: string, seat: number, tokenHash: string): Promise<boolean>;
  /** Write one submission and the match's new head in one transaction. */
  append(id: string, sub: SubmissionRow, head: MatchUpdate): Promise<AppendResult>;
  submissions(id: string, afterSeq: number): Promise<SubmissionRow[]>;
  byIdempotencyKey(id: string, key: string): Promise<SubmissionRow | null>;
  /**
   * Follow other servers' changes (PostgreSQL; a no-op for one process). `listener(id)` for one
   * match, `listener(null)` when changes may have been missed (the listening connection was lost and
   * is back): the caller reads every match it holds again.
   */
  onChange(listener: (matchId: string | null) => void): Promise<void>;
  /** A query that reaches the store now (the health check). */
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}
