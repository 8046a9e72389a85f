// Reading a JSON Lines match log: every line is checked against the format (docs/logs.md) with a
// typed error naming the line and a problem kind, which `replay --verify` maps to an exit code.
// Lines are checked one at a time, so a log of any size can be read as a stream.

import { createReadStream } from 'node:fs';
import {
  ArbiterError,
  findNonFiniteNumber,
  findPrototypeKey,
  isPlainJson,
  type Json,
  type Rejection,
} from '@arbiter/engine/kernel';
import {
  DEFAULT_REASONS,
  LOG_FORMAT,
  MAX_DEFAULT_RAW,
  type DefaultInfo,
  type LogEntry,
  type LogFooter,
  type LogHeader,
} from '@arbiter/engine/match';
import { splitLines, type LineItem } from './lines.ts';

/** A single log line longer than this is refused as too large (the file itself may be any size). */
const MAX_LOG_LINE = 64 * 1024 * 1024;

/**
 * What is wrong with a log, first thing first. Each kind has its own exit code in `replay --verify`.
 *  - malformed: not JSON, a blank or junk line, unknown or missing fields, wrong types, seq out of
 *    order, content after the footer
 *  - incomplete: no footer (a truncated log, or a match still running: see --partial)
 *  - counts: the footer's submission or event count disagrees with the lines
 *  - version: a log format, engine, ruleset or ruleset version this build does not have
 *  - diverged: re-execution differs (a result, events, a rejection, the event-stream hash, the outcome)
 *  - digest: the footer's log hash differs (a recorded field re-execution cannot re-derive was changed)
 *  - too_large: one line over the line limit
 */
export type LogProblemKind = 'malformed' | 'incomplete' | 'counts' | 'version' | 'diverged' | 'digest' | 'too_large';

export class LogError extends ArbiterError {
  readonly kind: LogProblemKind;
  readonly line: number | null;
  constructor(kind: LogProblemKind, line: number | null, reason: string, detail?: Record<string, Json>) {
    super(kind === 'too_large' ? 'too_large' : 'corrupt_log', line === null ? reason : `line ${line}: ${reason}`, {
      kind,
      line,
      ...(detail ?? {}),
    });
    this.kind = kind;
    this.line = line;
  }
}

export interface ParsedLog {
  header: LogHeader;
  entries: LogEntry[];
  footer: LogFooter | null;
}

type Obj = Record<string, Json>;

const HEADER_KEYS = new Set([
  'format',
  'ruleset',
  'version',
  'engine',
  'seed',
  'config',
  'agents',
  'setup_events',
  'lineup',
  'seats',
]);
const ENTRY_KEYS = new Set(['seq', 'seat', 'input', 'result', 'events', 'error', 'default']);
const FOOTER_KEYS = new Set(['end', 'outcome', 'hash', 'log_hash', 'events', 'submissions']);
const DEFAULT_KEYS = new Set(['reason', 'request', 'raw', 'error', 'status', 'message']);
const SEAT_HEADER_KEYS = new Set(['agent', 'provider', 'model', 'temperature', 'system_hash']);
/** A default record's `message` is clipped to this many characters. */
const MAX_DEFAULT_MESSAGE = 500;
const REJECTION_KEYS = new Set(['code', 'reason', 'detail']);

const malformed = (no: number, reason: string, detail?: Record<string, Json>) =>
  new LogError('malformed', no, reason, detail);

/** Parse one line into a JSON object, refusing blank lines, junk, prototype keys and overflowing numbers. */
export function parseLine(text: string, no: number): Obj {
  if (text.trim() === '') throw malformed(no, 'a blank line (a log has no blank lines)');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw malformed(no, `not JSON (${(err as Error).message})`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw malformed(no, 'not a JSON object');
  const proto = findPrototypeKey(v);
  if (proto !== null) throw malformed(no, `the key "${proto}" is not allowed`, { path: proto });
  const inf = findNonFiniteNumber(v);
  if (inf !== null)
    throw malformed(no, `the number at "${inf}" is too large for JSON (it reads as Infinity)`, { path: inf });
  if (!isPlainJson(v)) throw malformed(no, 'nested too deeply');
  return v as Obj;
}

function unknownKeys(v: Obj, allowed: Set<string>, no: number, what: string): void {
  for (const k of Object.keys(v))
    if (!allowed.has(k)) throw malformed(no, `unknown field "${k}" in the ${what}`, { field: k });
}

const isInt = (v: Json | undefined, min = 0, max = Number.MAX_SAFE_INTEGER): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isObj = (v: Json | undefined): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isEventList = (v: Json | undefined): boolean =>
  Array.isArray(v) && v.every((e) => isObj(e) && typeof e.type === 'string');

/** Fields only; versions and ruleset are checked against what this build has by the verifier. */
export function checkHeader(v: Obj, no: number): LogHeader {
  if ('end' in v || 'seq' in v) throw malformed(no, 'the first line must be the header');
  unknownKeys(v, HEADER_KEYS, no, 'header');
  if (!('format' in v))
    throw new LogError(
      'version',
      no,
      `the header has no "format": a log from before log format ${LOG_FORMAT}, which this arbiter does not read`,
    );
  if (v.format !== LOG_FORMAT)
    throw new LogError(
      'version',
      no,
      `log format ${JSON.stringify(v.format)}; this arbiter reads format ${LOG_FORMAT}`,
      { have: LOG_FORMAT, log: v.format },
    );
  for (const k of ['ruleset', 'version', 'engine'] as const)
    if (typeof v[k] !== 'string' || v[k] === '') throw malformed(no, `the header's "${k}" must be a non-empty string`);
  if (!isInt(v.seed, 0, 0xffffffff))
    throw malformed(no, 'the header\'s "seed" must be an integer from 0 to 4294967295');
  if (!('config' in v)) throw malformed(no, 'the header has no "config"');
  if ('agents' in v && !(Array.isArray(v.agents) && v.agents.every((a) => typeof a === 'string')))
    throw malformed(no, 'the header\'s "agents" must be a list of strings');
  if ('setup_events' in v && !(isEventList(v.setup_events) && (v.setup_events as Json[]).length > 0))
    throw malformed(no, 'the header\'s "setup_events" must be a non-empty list of events');
  if ('lineup' in v) {
    const l = v.lineup;
    if (!isObj(l) || typeof l.id !== 'string' || typeof l.version !== 'string' || Object.keys(l).length !== 2)
      throw malformed(no, 'the header\'s "lineup" must be {id, version} (strings)');
  }
  if ('seats' in v) {
    if (!Array.isArray(v.seats)) throw malformed(no, 'the header\'s "seats" must be a list');
    for (const s of v.seats) {
      if (!isObj(s) || typeof s.agent !== 'string') throw malformed(no, 'each of the header\'s "seats" needs "agent"');
      unknownKeys(s, SEAT_HEADER_KEYS, no, 'header seat');
      for (const k of ['provider', 'model', 'system_hash'] as const)
        if (k in s && typeof s[k] !== 'string') throw malformed(no, `a header seat's "${k}" must be a string`);
      if ('temperature' in s && !(s.temperature === null || typeof s.temperature === 'number'))
        throw malformed(no, 'a header seat\'s "temperature" must be a number or null');
    }
  }
  return v as LogHeader;
}

function checkRejection(v: Json | undefined, no: number, where: string): Rejection {
  if (!isObj(v)) throw malformed(no, `${where} must be a rejection {code, reason, detail?}`);
  unknownKeys(v, REJECTION_KEYS, no, where);
  if (typeof v.code !== 'string' || typeof v.reason !== 'string')
    throw malformed(no, `${where} needs a string code and reason`);
  return v as Rejection;
}

function checkEntry(v: Obj, no: number, expectedSeq: number): LogEntry {
  unknownKeys(v, ENTRY_KEYS, no, 'submission');
  for (const k of ['seq', 'seat', 'input', 'result', 'events'])
    if (!(k in v)) throw malformed(no, `a submission needs "${k}"`);
  if (!isInt(v.seq, 1)) throw malformed(no, '"seq" must be a positive integer');
  if (v.seq !== expectedSeq)
    throw malformed(no, `seq ${v.seq} out of order (expected ${expectedSeq})`, {
      expected: expectedSeq,
      actual: v.seq,
    });
  if (!isInt(v.seat)) throw malformed(no, '"seat" must be a seat number');
  if (!isEventList(v.events)) throw malformed(no, '"events" must be a list of events');
  switch (v.result) {
    case 'accepted':
      if ('error' in v || 'default' in v) throw malformed(no, 'an accepted submission has no "error" or "default"');
      break;
    case 'rejected':
      if ('default' in v) throw malformed(no, 'a rejected submission has no "default"');
      checkRejection(v.error, no, 'a rejected submission\'s "error"');
      break;
    case 'defaulted': {
      if ('error' in v) throw malformed(no, "a defaulted submission keeps the agent's rejection in default.error");
      const d = v.default;
      if (!isObj(d)) throw malformed(no, 'a defaulted submission needs "default": {reason, request, raw}');
      unknownKeys(d, DEFAULT_KEYS, no, 'default record');
      if (!DEFAULT_REASONS.includes(d.reason as DefaultInfo['reason']))
        throw malformed(no, `default.reason must be one of ${DEFAULT_REASONS.join(', ')}`);
      if (!(isInt(d.request) || (typeof d.request === 'string' && d.request.length <= 200)))
        throw malformed(
          no,
          'default.request must be the request id (an integer, or a string of at most 200 characters)',
        );
      if (!(d.raw === null || (typeof d.raw === 'string' && d.raw.length <= MAX_DEFAULT_RAW)))
        throw malformed(no, `default.raw must be null or a string of at most ${MAX_DEFAULT_RAW} characters`);
      if ('error' in d) checkRejection(d.error, no, 'default.error');
      if ('status' in d && !(d.status === null || isInt(d.status, 100, 599)))
        throw malformed(no, 'default.status must be an HTTP status or null');
      if ('message' in d && !(typeof d.message === 'string' && d.message.length <= MAX_DEFAULT_MESSAGE))
        throw malformed(no, `default.message must be a string of at most ${MAX_DEFAULT_MESSAGE} characters`);
      break;
    }
    default:
      throw malformed(no, '"result" must be "accepted", "rejected" or "defaulted"');
  }
  return v as LogEntry;
}

function checkFooter(v: Obj, no: number): LogFooter {
  unknownKeys(v, FOOTER_KEYS, no, 'footer');
  if (v.end !== true) throw malformed(no, 'the footer\'s "end" must be true');
  for (const k of ['hash', 'log_hash'] as const)
    if (typeof v[k] !== 'string' || !/^[0-9a-f]{16}$/.test(v[k] as string))
      throw malformed(no, `the footer's "${k}" must be 16 hex digits`);
  for (const k of ['events', 'submissions'] as const)
    if (!isInt(v[k])) throw malformed(no, `the footer's "${k}" must be a count`);
  if (!('outcome' in v) || !(v.outcome === null || isObj(v.outcome)))
    throw malformed(no, 'the footer needs "outcome" (null or an object)');
  return v as LogFooter;
}

/** Classify and check one line of a log after the header. */
export function checkBodyLine(v: Obj, no: number, expectedSeq: number): { footer: LogFooter } | { entry: LogEntry } {
  return 'end' in v ? { footer: checkFooter(v, no) } : { entry: checkEntry(v, no, expectedSeq) };
}

/**
 * Parse a whole log held in memory (small logs: tests, tools). Checks every line's form and order,
 * not the replay; a missing footer gives `footer: null`. A final newline is optional.
 */
export function parseLog(text: string): ParsedLog {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 1 && lines[0].trim() === '') throw new LogError('malformed', null, 'the log is empty');
  const header = checkHeader(parseLine(lines[0], 1), 1);
  const entries: LogEntry[] = [];
  let footer: LogFooter | null = null;
  for (let i = 1; i < lines.length; i++) {
    const no = i + 1;
    if (footer) throw malformed(no, 'content after the footer');
    const r = checkBodyLine(parseLine(lines[i], no), no, entries.length + 1);
    if ('footer' in r) footer = r.footer;
    else entries.push(r.entry);
  }
  return { header, entries, footer };
}

/** The lines of a log file as a stream, a line over MAX_LOG_LINE skipped and reported. */
export async function* logFileLines(file: string, maxLine = MAX_LOG_LINE): AsyncGenerator<LineItem> {
  const stream = file === '-' ? process.stdin : createReadStream(file);
  try {
    yield* splitLines(stream, maxLine);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new ArbiterError('not_found', `no such log file: ${file}`);
    if (e.code === 'EISDIR') throw new ArbiterError('bad_request', `${file} is a folder, not a log file`);
    if (e.code === 'EACCES' || e.code === 'EPERM')
      throw new ArbiterError('bad_request', `cannot read ${file}: permission denied`);
    throw err;
  }
}
