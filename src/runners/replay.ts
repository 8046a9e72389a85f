// Re-execute a match log line by line and stop at the first thing that is wrong: the form of a line,
// a version this build does not have, a result or event that re-execution does not reproduce, a
// footer whose counts or hashes disagree, or no footer at all. Nothing but the game state is kept
// between lines, so a log of any size is verified in constant memory (apart from the state).

import {
  act,
  ArbiterError,
  canonicalJson,
  cloneJson,
  StreamHash,
  type GameEvent,
  type Json,
  type Ruleset,
} from '@arbiter/engine/kernel';
import { canonicalInput, KNOWN_ENGINES, type LogEntry, type LogFooter, type LogHeader } from '@arbiter/engine/match';
import {
  checkBodyLine,
  checkHeader,
  LogError,
  logFileLines,
  parseLine,
  type LogProblemKind,
  type ParsedLog,
} from './logfile.ts';
import type { LineItem } from './lines.ts';

export interface Divergence {
  /** 0 for the setup events, then the submission's seq, or 'end' for the footer. */
  seq: number | 'end';
  what: string;
  expected: Json;
  actual: Json;
}

export interface VerifyOptions {
  /**
   * The ruleset a log names at the version its header names, or undefined when this build does not
   * have it (a ruleset of another version is reported as a version mismatch).
   */
  resolve: (id: string, version: string) => Ruleset<unknown> | undefined;
  /** Accept a log with no footer (a match still running) and say so. */
  partial?: boolean;
}

export interface VerifyReport {
  ok: boolean;
  /** 'verified' (whole log), 'partial' (no footer, accepted with --partial), or the problem kind. */
  status: 'verified' | 'partial' | LogProblemKind;
  /** One line saying what was verified, or the first thing wrong. */
  message: string;
  line: number | null;
  ruleset: string | null;
  submissions: number;
  events: number;
  hash: string;
  divergence: Divergence | null;
  /** Final game state after the verified lines (null when setup never ran). */
  state: unknown;
}

/** Exit codes of `replay --verify`, one per problem kind (2 stays the CLI's usage-error code). */
export const VERIFY_EXIT: Record<VerifyReport['status'], number> = {
  verified: 0,
  partial: 0,
  diverged: 1,
  incomplete: 3,
  counts: 4,
  version: 5,
  malformed: 6,
  too_large: 7,
  digest: 8,
};

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

function firstDifference(a: readonly unknown[], b: readonly unknown[]): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (canonicalJson(a[i] ?? null) !== canonicalJson(b[i] ?? null)) return i;
  return n;
}

class Diverged extends LogError {
  readonly divergence: Divergence;
  constructor(line: number, d: Divergence) {
    const where = d.seq === 'end' ? 'footer' : d.seq === 0 ? 'setup' : `submission ${d.seq}`;
    super('diverged', line, `${where}: ${d.what} differs (recorded ${clip(d.expected)}, replayed ${clip(d.actual)})`);
    this.divergence = d;
  }
}

function clip(v: unknown): string {
  const s = canonicalJson(v ?? null);
  return s.length > 200 ? s.slice(0, 200) + '…' : s;
}

/** Feed it lines in order; it throws a LogError at the first problem. */
class LogVerifier {
  private rs: Ruleset<unknown> | null = null;
  private header: LogHeader | null = null;
  state: unknown = null;
  private seq = 0;
  private events = 0;
  private readonly eventHash = new StreamHash();
  private readonly lineHash = new StreamHash();
  private footer: LogFooter | null = null;
  private lastLine = 0;
  private unfinished = false;

  constructor(private readonly opts: VerifyOptions) {}

  item(it: LineItem): void {
    this.lastLine = it.no;
    if (it.kind === 'too_large') {
      if (!it.terminated) this.unfinished = true;
      throw new LogError('too_large', it.no, `longer than the line limit (${it.bytes} bytes read)`, {
        bytes: it.bytes,
      });
    }
    if (!it.terminated) {
      // the last line has no newline: a finished footer is fine; anything else was cut short
      let v: Record<string, Json> | null = null;
      try {
        v = parseLine(it.text, it.no);
      } catch {
        v = null;
      }
      if (v === null) {
        this.unfinished = true;
        if (this.opts.partial) return;
        throw new LogError(
          'incomplete',
          null,
          `incomplete: ${this.seq} submissions, no footer (line ${it.no} is cut short)`,
          { submissions: this.seq, lines: it.no },
        );
      }
    }
    this.line(it.text, it.no);
  }

  line(text: string, no: number): void {
    this.lastLine = no;
    if (this.footer) throw new LogError('malformed', no, 'content after the footer');
    const v = parseLine(text, no);
    if (!this.header) return this.start(checkHeader(v, no), no);
    const r = checkBodyLine(v, no, this.seq + 1);
    if ('footer' in r) return this.end(r.footer, no);
    this.submission(r.entry, no);
    this.lineHash.update(canonicalJson(v));
  }

  private start(h: LogHeader, no: number): void {
    if (!KNOWN_ENGINES.includes(h.engine)) {
      throw new LogError(
        'version',
        no,
        `written by engine "${h.engine}", which this arbiter cannot verify (it has ${KNOWN_ENGINES.join(', ')})`,
        { engine: h.engine },
      );
    }
    const rs = this.opts.resolve(h.ruleset, h.version);
    if (!rs)
      throw new LogError('version', no, `ruleset "${h.ruleset}" is not one this arbiter has`, { ruleset: h.ruleset });
    if (h.version !== rs.version) {
      throw new LogError(
        'version',
        no,
        `written by ${h.ruleset} version "${h.version}"; this arbiter has "${rs.version}"`,
        { ruleset: h.ruleset, log: h.version, have: rs.version },
      );
    }
    const setupEvents: GameEvent[] = [];
    try {
      this.state = rs.setup(cloneJson(h.config), h.seed, setupEvents);
    } catch (err) {
      if (err instanceof ArbiterError)
        throw new LogError('diverged', no, `setup refuses the recorded config: ${err.message}`);
      throw err;
    }
    const recorded = h.setup_events ?? [];
    if (!same(recorded, setupEvents)) {
      const i = firstDifference(recorded, setupEvents);
      throw new Diverged(no, {
        seq: 0,
        what: `setup event ${i}`,
        expected: recorded[i] ?? null,
        actual: setupEvents[i] ?? null,
      });
    }
    for (const e of setupEvents) this.eventHash.update(canonicalJson(e));
    this.events = setupEvents.length;
    this.lineHash.update(canonicalJson(h));
    this.rs = rs;
    this.header = h;
  }

  private submission(entry: LogEntry, no: number): void {
    const rs = this.rs!;
    const res = act(rs, this.state, entry.seat, canonicalInput(entry.input));
    const seq = entry.seq;
    if (entry.result === 'rejected') {
      if (res.ok) throw new Diverged(no, { seq, what: 'result', expected: 'rejected', actual: 'accepted' });
      if (entry.events.length > 0) {
        throw new Diverged(no, {
          seq,
          what: 'events of a refused submission',
          expected: entry.events,
          actual: [],
        });
      }
      if (!same(entry.error, res.error))
        throw new Diverged(no, {
          seq,
          what: 'rejection',
          expected: entry.error ?? null,
          actual: res.error,
        });
    } else {
      if (!res.ok)
        throw new Diverged(no, {
          seq,
          what: 'result',
          expected: entry.result,
          actual: { rejected: res.error },
        });
      if (!same(res.events, entry.events)) {
        const i = firstDifference(entry.events, res.events);
        throw new Diverged(no, {
          seq,
          what: `event ${i}`,
          expected: entry.events[i] ?? null,
          actual: res.events[i] ?? null,
        });
      }
      this.state = res.state;
      for (const e of res.events) this.eventHash.update(canonicalJson(e));
      this.events += res.events.length;
    }
    this.seq = seq;
  }

  private end(f: LogFooter, no: number): void {
    if (f.submissions !== this.seq) {
      throw new LogError('counts', no, `the footer counts ${f.submissions} submissions; the log has ${this.seq}`, {
        recorded: f.submissions,
        actual: this.seq,
      });
    }
    if (f.events !== this.events) {
      throw new LogError('counts', no, `the footer counts ${f.events} events; the log has ${this.events}`, {
        recorded: f.events,
        actual: this.events,
      });
    }
    const digest = this.eventHash.digest();
    if (f.hash !== digest)
      throw new Diverged(no, { seq: 'end', what: 'event-stream hash', expected: f.hash, actual: digest });
    const outcome = this.rs!.outcome(this.state);
    if (!same(outcome, f.outcome))
      throw new Diverged(no, {
        seq: 'end',
        what: 'outcome',
        expected: f.outcome,
        actual: outcome,
      });
    const lines = this.lineHash.digest();
    if (f.log_hash !== lines) {
      throw new LogError(
        'digest',
        no,
        `the footer's log hash ${f.log_hash} does not match the lines (${lines}): a recorded field was changed`,
        { recorded: f.log_hash, actual: lines },
      );
    }
    this.footer = f;
  }

  /** Call after the last line. */
  finish(): VerifyReport {
    if (!this.header) throw new LogError('malformed', null, 'the log is empty');
    if (!this.footer) {
      if (!this.opts.partial)
        throw new LogError('incomplete', null, `incomplete: ${this.seq} submissions, no footer`, {
          submissions: this.seq,
          lines: this.lastLine,
        });
      const cut = this.unfinished ? '; an unfinished last line was ignored' : '';
      return this.report(
        true,
        'partial',
        `partial: ${this.seq} submissions and ${this.events} events verified, no footer yet (a match still running)${cut}`,
      );
    }
    return this.report(
      true,
      'verified',
      `verified: ${this.seq} submissions, ${this.events} events, hash ${this.footer.hash}`,
    );
  }

  report(
    ok: boolean,
    status: VerifyReport['status'],
    message: string,
    line: number | null = null,
    divergence: Divergence | null = null,
  ): VerifyReport {
    return {
      ok,
      status,
      message,
      line,
      ruleset: this.header?.ruleset ?? null,
      submissions: this.seq,
      events: this.events,
      hash: this.eventHash.digest(),
      divergence,
      state: this.state,
    };
  }

  /** The report for a problem thrown while feeding lines. */
  failure(err: LogError): VerifyReport {
    return this.report(false, err.kind, err.message, err.line, err instanceof Diverged ? err.divergence : null);
  }
}

function settle(v: LogVerifier, run: () => void): VerifyReport {
  try {
    run();
    return v.finish();
  } catch (err) {
    if (err instanceof LogError) return v.failure(err);
    throw err;
  }
}

/** Verify a log held in memory (a final newline optional). */
export function verifyLogText(text: string, opts: VerifyOptions): VerifyReport {
  const v = new LogVerifier(opts);
  return settle(v, () => {
    const lines = text.split('\n');
    const last = lines.pop()!;
    lines.forEach((l, i) =>
      v.item({ kind: 'line', no: i + 1, text: l.endsWith('\r') ? l.slice(0, -1) : l, terminated: true }),
    );
    if (last !== '' || lines.length === 0)
      v.item({ kind: 'line', no: lines.length + 1, text: last, terminated: false });
  });
}

/** Verify a log file (or '-' for stdin) as a stream: any size, one line at a time. */
export async function verifyLogFile(file: string, opts: VerifyOptions & { maxLine?: number }): Promise<VerifyReport> {
  const v = new LogVerifier(opts);
  try {
    for await (const it of logFileLines(file, opts.maxLine)) v.item(it);
    return v.finish();
  } catch (err) {
    if (err instanceof LogError) return v.failure(err);
    throw err;
  }
}

/** Re-execute a parsed log against one ruleset (tests and tools); same checks as the verifier. */
export function replayLog<S>(
  rs: Ruleset<S>,
  log: ParsedLog,
  opts: { partial?: boolean } = {},
): VerifyReport & { state: S } {
  const v = new LogVerifier({
    resolve: (id) => (id === rs.id ? (rs as Ruleset<unknown>) : undefined),
    partial: opts.partial,
  });
  const lines = [log.header, ...log.entries, ...(log.footer ? [log.footer] : [])];
  return settle(v, () => lines.forEach((l, i) => v.line(canonicalJson(l), i + 1))) as VerifyReport & { state: S };
}
