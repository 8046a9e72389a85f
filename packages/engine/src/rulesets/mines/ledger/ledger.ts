// A3, minimal but real: the action-point ledger. It owns the round phase (Idle / Active /
// Waiting), the AP of the round, the remaining-AP bank RAP and the record of the last round end.
// It decides round ends with the priority cleared > stopped > ap_exhausted, and it emits the
// stopped round_end itself (the second emitter); the board-path round_ends are A2's to emit.

import type { EconomyTable } from './economy.ts';

export type Phase = 'Idle' | 'Active' | 'Waiting';
type PathTag = 'ap_exhausted' | 'cleared' | 'stopped';
type Continuation = 'same_board' | 'new_board';
type SpendKind = 'dig' | 'flag_place' | 'flag_pull';

type RoundEndRecord = {
  path_tag: PathTag;
  continuation_hint: Continuation;
  /** Round number it closed. */
  round: number;
};

export type LedgerState = {
  phase: Phase;
  ap: number;
  rap: number;
  /** Rounds started so far (the current one, while Active). */
  round: number;
  /** AP spent in the current (or last) round. */
  spent: number;
  table: EconomyTable;
  last_round_end: RoundEndRecord | null;
};

/** A round_end as emitted (same payload on both emitters). */
type RoundEndEvent = {
  type: 'round_end';
  path_tag: PathTag;
  continuation_hint: Continuation;
};

export function createLedger(table: EconomyTable): LedgerState {
  return { phase: 'Idle', ap: 0, rap: 0, round: 0, spent: 0, table: { ...table }, last_round_end: null };
}

export function price(l: LedgerState, kind: SpendKind): number {
  switch (kind) {
    case 'dig':
      return l.table.dig_ap_cost;
    case 'flag_place':
      return l.table.flag_place_ap_cost;
    case 'flag_pull':
      return l.table.flag_pull_ap_cost;
  }
}

/** Start a round: Idle/Waiting -> Active with a fresh AP allowance. False when not allowed. */
export function startRound(l: LedgerState): boolean {
  if (l.phase === 'Active') return false;
  l.phase = 'Active';
  l.ap = l.table.ap_per_round;
  l.spent = 0;
  l.round++;
  return true;
}

/** Waiting -> Idle once the orchestrator has settled the round. */
export function settleDone(l: LedgerState): boolean {
  if (l.phase !== 'Waiting') return false;
  l.phase = 'Idle';
  return true;
}

/** Whether try_spend would pay for `kind` now; changes nothing. */
export function canSpend(l: LedgerState, kind: SpendKind): boolean {
  return l.phase === 'Active' && l.ap >= price(l, kind);
}

/**
 * The only way AP is spent. False (nothing changes) outside Active or when AP is short.
 * A flag action that spends the last AP closes the round at once (no zero-AP window); a dig
 * waits for request_dig, because a clearing dig outranks exhaustion.
 */
export function trySpend(l: LedgerState, kind: SpendKind): boolean {
  if (l.phase !== 'Active') return false;
  const cost = price(l, kind);
  if (l.ap < cost) return false;
  l.ap -= cost;
  l.spent += cost;
  if (kind !== 'dig' && l.ap === 0) endRound(l, 'ap_exhausted');
  return true;
}

/** A2 reports a finished dig. Decides cleared (first) or exhaustion; null when the round goes on. */
export function requestDig(l: LedgerState, chainSize: number, clearsMap: boolean): RoundEndRecord | null {
  void chainSize; // kept for the contract: A3 prices chains as free, so the size does not change AP
  if (l.phase !== 'Active') return null;
  if (clearsMap) return endRound(l, 'cleared');
  if (l.ap === 0) return endRound(l, 'ap_exhausted');
  return null;
}

/** Stop: bank the remaining AP 1:1 and emit the stopped round_end directly (A3's emitter). */
export function requestStop(l: LedgerState, emit: (e: RoundEndEvent) => void): boolean {
  if (l.phase !== 'Active') return false;
  const rec = endRound(l, 'stopped');
  emit({ type: 'round_end', path_tag: rec.path_tag, continuation_hint: rec.continuation_hint });
  return true;
}

/** Pay the refresh cost from the RAP bank (the refresh path runs inside an Active round). */
export function trySpendRefresh(l: LedgerState): boolean {
  if (l.phase !== 'Active') return false;
  if (l.rap < l.table.rap_refresh_cost) return false;
  l.rap -= l.table.rap_refresh_cost;
  return true;
}

export function lastRoundEnd(l: LedgerState): RoundEndRecord | null {
  return l.last_round_end === null ? null : { ...l.last_round_end };
}

function endRound(l: LedgerState, tag: PathTag): RoundEndRecord {
  // stopped banks what is left; cleared forfeits it (not banked); exhaustion has nothing left
  if (tag === 'stopped') l.rap += l.ap;
  l.ap = 0;
  l.phase = 'Waiting';
  const rec: RoundEndRecord = {
    path_tag: tag,
    continuation_hint: tag === 'cleared' ? 'new_board' : 'same_board',
    round: l.round,
  };
  l.last_round_end = rec;
  return rec;
}
