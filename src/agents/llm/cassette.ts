// Cassettes: model answers stored under a hash of the request, so an episode re-runs offline
// with no network and a byte-identical log. Each key holds the answers in the order they were
// asked (a prompt asked twice gets its two answers back in turn); timeouts and API errors are
// stored too, so a replay fails the same decisions the recording failed. `resume` answers from
// the cassette while it has answers and records new ones after (an interrupted episode goes on).

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArbiterError, canonicalJson, type Json } from '@arbiter/engine/kernel';

export type CassetteEntry =
  | { response: Json }
  | { error: { status: number | null; message: string } }
  | { timeout: true };

export type CassetteMode = 'record' | 'replay' | 'resume';

export function requestKey(provider: string, body: Json): string {
  return createHash('sha256')
    .update(provider + '\n' + canonicalJson(body))
    .digest('hex')
    .slice(0, 32);
}

export class Cassette {
  readonly dir: string;
  readonly mode: CassetteMode;
  private readonly used = new Map<string, number>();
  private readonly lists = new Map<string, CassetteEntry[]>();

  constructor(dir: string, mode: CassetteMode) {
    this.dir = dir;
    this.mode = mode;
    if (mode === 'replay' && !existsSync(dir))
      throw new ArbiterError('not_found', `--replay-llm: no cassette folder ${dir}`);
    if (mode !== 'replay') mkdirSync(dir, { recursive: true });
  }

  private file(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  /** The answers stored for a key (recording starts empty; replay and resume read the folder). */
  private list(key: string): CassetteEntry[] {
    let list = this.lists.get(key);
    if (!list) {
      list = [];
      if (this.mode !== 'record' && existsSync(this.file(key))) {
        try {
          list = (JSON.parse(readFileSync(this.file(key), 'utf8')) as { answers: CassetteEntry[] }).answers;
        } catch {
          throw new ArbiterError('corrupt_log', `cassette ${this.file(key)} is not a cassette file`);
        }
      }
      this.lists.set(key, list);
    }
    return list;
  }

  /** The next stored answer for this request, or undefined when the cassette has none left. */
  next(key: string): CassetteEntry | undefined {
    if (this.mode === 'record') return undefined;
    const i = this.used.get(key) ?? 0;
    const list = this.list(key);
    if (i >= list.length) return undefined;
    this.used.set(key, i + 1);
    return list[i];
  }

  store(key: string, request: Json, entry: CassetteEntry): void {
    const list = this.list(key);
    list.push(entry);
    this.used.set(key, list.length);
    writeFileSync(this.file(key), JSON.stringify({ request, answers: list }, null, 1) + '\n');
  }
}
