// Small readers for the JSON the boards receive: a view is untrusted data, so every board reads it
// through these instead of casting.

import type { Json } from './types.ts';

export type JsonObj = { [k: string]: Json };

export function obj(v: Json | undefined): JsonObj | null {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : null;
}

export function arr(v: Json | undefined): Json[] {
  return Array.isArray(v) ? v : [];
}

export function num(v: Json | undefined, dflt = 0): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : dflt;
}

export function str(v: Json | undefined, dflt = ''): string {
  return typeof v === 'string' ? v : dflt;
}

export function bool(v: Json | undefined): boolean {
  return v === true;
}

/** The `detail` a refusal may carry beside code and reason (the server sends it; the type need not name it). */
export function refusalDetail(r: unknown): JsonObj | null {
  if (r === null || typeof r !== 'object' || !('detail' in r)) return null;
  return obj((r as { detail?: Json }).detail);
}
