// Per-seat transcripts: every decision attempt (prompt, answer, tokens, latency, request id, why
// it failed) in `<log>.agents/seat-N.transcript.jsonl`, one file per seat so no seat's prompts
// reach another's. `arbiter transcript LOG --seat N` prints one readably.

import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArbiterError } from '@arbiter/engine/kernel';
import type { AttemptRecord } from '@arbiter/engine/agents';

/** Folder beside a match log for its agents' files (transcripts, stderr). */
export function agentsDirFor(logPath: string): string {
  return `${logPath}.agents`;
}

function transcriptPath(dir: string, seat: number): string {
  return join(dir, `seat-${seat}.transcript.jsonl`);
}

export class TranscriptWriter {
  private readonly started = new Set<number>();
  /** The folder is made on the first record, so a match without protocol agents leaves nothing. */
  constructor(readonly dir: string) {}
  write(rec: AttemptRecord): void {
    const file = transcriptPath(this.dir, rec.seat);
    if (!this.started.has(rec.seat)) {
      if (this.started.size === 0) mkdirSync(this.dir, { recursive: true });
      this.started.add(rec.seat);
      writeFileSync(file, '');
    }
    appendFileSync(file, JSON.stringify(rec) + '\n');
  }
}

export function readTranscript(logPath: string, seat: number): AttemptRecord[] {
  const file = transcriptPath(agentsDirFor(logPath), seat);
  if (!existsSync(file))
    throw new ArbiterError(
      'not_found',
      `no transcript for seat ${seat} (${file}); transcripts are written by play --log for protocol agents`,
    );
  const out: AttemptRecord[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        out.push(JSON.parse(line) as AttemptRecord);
      } catch {
        throw new ArbiterError('corrupt_log', `${file} line ${i + 1}: not JSON`);
      }
    });
  return out;
}

export function formatTranscript(records: AttemptRecord[]): string {
  const out: string[] = [];
  let input = 0;
  let output = 0;
  for (const r of records) {
    const tokens = r.meta?.tokens as { input?: number; output?: number } | undefined;
    input += tokens?.input ?? 0;
    output += tokens?.output ?? 0;
    out.push(
      `── ${r.request} (attempt ${r.attempt}) — ${r.ok ? 'accepted' : `FAILED: ${r.reason}${r.detail ? ` (${r.detail})` : ''}`} — ${r.latency_ms} ms${tokens ? `, ${tokens.input ?? 0} in / ${tokens.output ?? 0} out tokens` : ''}`,
    );
    if (typeof r.meta?.system === 'string') out.push('system:', indent(r.meta.system));
    if (typeof r.meta?.prompt === 'string') out.push('prompt:', indent(r.meta.prompt));
    if (r.answer !== undefined) out.push('answer:', indent(r.answer || '(empty)'));
    if (r.stale?.length) {
      const all = r.stale_count ?? r.stale.length;
      out.push(
        `stale answers dropped: ${all}${all > r.stale.length ? ` (the last ${r.stale.length} shown)` : ''}`,
        indent(r.stale.join('\n')),
      );
    }
    out.push('');
  }
  out.push(`${records.length} attempts; tokens ${input} in, ${output} out`);
  return out.join('\n') + '\n';
}

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => '    ' + l)
    .join('\n');
}
