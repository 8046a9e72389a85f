// Cassettes: model answers stored under a hash of the request, so an episode re-runs offline
// with no network and a byte-identical log. Each key holds the answers in the order they were
// asked (a prompt asked twice gets its two answers back in turn); timeouts and API errors are
// stored too, so a replay fails the same decisions the recording failed.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArbiterError, canonicalJson, type Json } from '../../kernel/index.ts';

export type CassetteEntry =
  | { response: Json }
  | { error: { status: number | null; message: string } }
  | { timeout: true };

export function requestKey(provider: string, body: Json): string {
  return createHash('sha256')
    .update(provider + '\n' + canonicalJson(body))
    .digest('hex')
    .slice(0, 32);
}

export class Cassette {
  readonly dir: string;
  readonly mode: 'record' | 'replay';
  private readonly used = new Map<string, number>();
  private readonly recorded = new Map<string, CassetteEntry[]>();

  constructor(dir: string, mode: 'record' | 'replay') {
    this.dir = dir;
    this.mode = mode;
    if (mode === 'record') mkdirSync(dir, { recursive: true });
    else if (!existsSync(dir)) throw new ArbiterError('not_found', `--replay-llm: no cassette folder ${dir}`);
  }

  private file(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  /** The next stored answer for this request; a missing one is an error (replay never goes online). */
  next(key: string): CassetteEntry {
    const i = this.used.get(key) ?? 0;
    this.used.set(key, i + 1);
    let list: CassetteEntry[];
    try {
      list = (JSON.parse(readFileSync(this.file(key), 'utf8')) as { answers: CassetteEntry[] }).answers;
    } catch {
      throw new ArbiterError('not_found', `cassette ${this.dir} has no answer for request ${key}`);
    }
    if (i >= list.length)
      throw new ArbiterError('not_found', `cassette ${this.dir} has only ${list.length} answer(s) for request ${key}`);
    return list[i];
  }

  store(key: string, request: Json, entry: CassetteEntry): void {
    const list = this.recorded.get(key) ?? [];
    list.push(entry);
    this.recorded.set(key, list);
    writeFileSync(this.file(key), JSON.stringify({ request, answers: list }, null, 1) + '\n');
  }
}
