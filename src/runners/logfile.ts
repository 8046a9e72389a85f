// Reading a JSON Lines match log back, with a typed error for every way it can be broken.

import { ArbiterError, isPlainJson, type Json } from '../kernel/index.ts';
import type { LogEntry, LogFooter, LogHeader } from './match.ts';

export interface ParsedLog {
  header: LogHeader;
  entries: LogEntry[];
  footer: LogFooter | null;
}

const MAX_LINE = 16 * 1024 * 1024;

export function parseLog(text: string): ParsedLog {
  const lines = text.split('\n').filter((l, i, all) => l.trim() !== '' || i < all.length - 1);
  const nonEmpty = lines.map((l, i) => [l, i + 1] as const).filter(([l]) => l.trim() !== '');
  if (nonEmpty.length === 0) throw new ArbiterError('corrupt_log', 'the log is empty');
  const parsed = nonEmpty.map(([line, no]) => {
    if (line.length > MAX_LINE) throw new ArbiterError('corrupt_log', `line ${no}: longer than ${MAX_LINE} characters`);
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (err) {
      throw new ArbiterError('corrupt_log', `line ${no}: not JSON (${(err as Error).message})`, { line: no });
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !isPlainJson(v)) {
      throw new ArbiterError('corrupt_log', `line ${no}: not a JSON object`, { line: no });
    }
    return [v as Record<string, Json>, no] as const;
  });
  const [h, hno] = parsed[0];
  if (typeof h.ruleset !== 'string' || typeof h.version !== 'string' || typeof h.seed !== 'number') {
    throw new ArbiterError('corrupt_log', `line ${hno}: the header needs ruleset, version and seed`, { line: hno });
  }
  const header = h as unknown as LogHeader;
  const entries: LogEntry[] = [];
  let footer: LogFooter | null = null;
  for (let i = 1; i < parsed.length; i++) {
    const [v, no] = parsed[i];
    if (footer) throw new ArbiterError('corrupt_log', `line ${no}: content after the final line`, { line: no });
    if (v.end === true) {
      if (typeof v.hash !== 'string') throw new ArbiterError('corrupt_log', `line ${no}: the final line needs a hash`, { line: no });
      footer = v as unknown as LogFooter;
      continue;
    }
    if (typeof v.seq !== 'number' || typeof v.seat !== 'number' || !('input' in v) || (v.result !== 'accepted' && v.result !== 'rejected' && v.result !== 'defaulted') || !Array.isArray(v.events)) {
      throw new ArbiterError('corrupt_log', `line ${no}: a submission needs seq, seat, input, result and events`, { line: no });
    }
    if (v.seq !== entries.length + 1) {
      throw new ArbiterError('corrupt_log', `line ${no}: seq ${v.seq} out of order (expected ${entries.length + 1})`, { line: no });
    }
    if ((v.result === 'defaulted') !== (v.default !== undefined)) {
      throw new ArbiterError('corrupt_log', `line ${no}: a defaulted submission carries its default record, and only it does`, { line: no });
    }
    entries.push(v as unknown as LogEntry);
  }
  return { header, entries, footer };
}
