// The match log of docs/logs.md as data: its header, submissions and footer, the failure reasons
// a default records, and the recorder that keeps a log's hashes as it is written. Every writer
// (the match engine, the CLI, the server, the web viewer) builds its lines here.

import {
  ArbiterError,
  assertNoPrototypeKeys,
  canonicalJson,
  cloneJson,
  isPlainJson,
  sortedKeys,
  StreamHash,
  type GameEvent,
  type Json,
  type Outcome,
  type Rejection,
} from '../kernel/index.ts';

const ENGINE = 'arbiter 0.1.0';
/** Engines whose logs this build can verify (a log names the engine that wrote it). */
export const KNOWN_ENGINES: readonly string[] = [ENGINE];
/** The version of the log format below; a header without it, or with another, is refused. */
export const LOG_FORMAT = 1;

export type LogHeader = {
  format: typeof LOG_FORMAT;
  ruleset: string;
  version: string;
  engine: string;
  seed: number;
  /** The config exactly as setup received it (a plain JSON copy taken before setup ran). */
  config: Json;
  agents?: string[];
  /** Events of the automatic steps `setup` took, when there were any (first in the hash). */
  setup_events?: GameEvent[];
  /** The line-up the seats came from, when one was named (issue 25). */
  lineup?: { id: string; version: string };
  /** Per seat, what answered it: a model seat's provider, model, temperature and system-prompt hash. */
  seats?: SeatHeader[];
};

/** One seat in the header: the agent spec, and for a model seat what was asked and how. */
export type SeatHeader = {
  agent: string;
  provider?: string;
  model?: string;
  /** null when the seat sends no temperature (reasoning models). */
  temperature?: number | null;
  /** First 16 hex digits of the SHA-256 of the whole system prompt (rules text included). */
  system_hash?: string;
};

/**
 * Why a runner played a seat's default action instead of the agent's answer (issue 12). Besides
 * the six of the issue: `error`, the transport itself failed (an HTTP status, a model API error
 * after the SDK's retries, a connection refused); `seat_failed`, the seat had failed K decisions
 * in a row and now plays its default at once without being asked.
 */
export const DEFAULT_REASONS = [
  'timeout',
  'invalid_json',
  'refused',
  'oversize',
  'exited',
  'stale',
  'error',
  'seat_failed',
] as const;
export type DefaultReason = (typeof DEFAULT_REASONS)[number];
/** The agent's raw answer is kept at most this long (UTF-16 units) in a defaulted record. */
export const MAX_DEFAULT_RAW = 4096;

export type DefaultInfo = {
  reason: DefaultReason;
  /** The id of the decision request the agent failed to answer. */
  request: number | string;
  /** What the agent sent, cut to MAX_DEFAULT_RAW; null when it sent nothing. */
  raw: string | null;
  /** The rejection of the agent's answer, when reason is "refused". */
  error?: Rejection;
  /** The HTTP status a model provider answered with, when the transport got one (null: no HTTP answer). */
  status?: number | null;
  /** The transport's own words on the failure (a provider's error message, a slot wait), clipped. */
  message?: string;
};

export type LogResult = 'accepted' | 'rejected' | 'defaulted';

/**
 * One submission. `accepted` and `defaulted` carry the events of applying `input`; for `defaulted`,
 * `input` is the default action the runner played on the seat's behalf and `default` says why.
 * `rejected` carries no events and the rejection in `error`.
 */
export type LogEntry = {
  seq: number;
  seat: number;
  input: Json;
  result: LogResult;
  events: GameEvent[];
  error?: Rejection;
  default?: DefaultInfo;
};

export type LogFooter = {
  end: true;
  outcome: Outcome | null;
  /** Event-stream hash: setup events, then every submission's events, in order. */
  hash: string;
  /** Hash of the canonical JSON of every line before this one (header and submissions). */
  log_hash: string;
  events: number;
  submissions: number;
};

/** Cut an agent's raw answer to the size a defaulted record keeps. */
export function clipRaw(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  return raw.length > MAX_DEFAULT_RAW ? raw.slice(0, MAX_DEFAULT_RAW) : raw;
}

/**
 * Keeps the running hashes and counts of a match log as it is written, so every writer (the match
 * runner, a drive session, the agents' default path) produces the same footer.
 */
export class MatchRecorder {
  readonly header: LogHeader;
  private eventHash = new StreamHash();
  /** Null when the writer keeps no line hash (a server rebuilds its log from the store instead). */
  private readonly lineHash: StreamHash | null;
  private submissions = 0;
  private eventCount = 0;

  constructor(
    fields: {
      ruleset: string;
      version: string;
      seed: number;
      config: Json;
      agents?: string[];
      setupEvents: readonly GameEvent[];
      extra?: Pick<LogHeader, 'lineup' | 'seats'>;
    },
    opts: { lineHash?: boolean } = {},
  ) {
    const header: LogHeader = {
      format: LOG_FORMAT,
      ruleset: fields.ruleset,
      version: fields.version,
      engine: ENGINE,
      seed: fields.seed,
      config: fields.config,
    };
    if (fields.agents) header.agents = fields.agents;
    if (fields.setupEvents.length > 0) header.setup_events = [...fields.setupEvents];
    if (fields.extra?.lineup) header.lineup = fields.extra.lineup;
    if (fields.extra?.seats) header.seats = fields.extra.seats;
    this.header = header;
    this.lineHash = opts.lineHash === false ? null : new StreamHash();
    this.lineHash?.update(canonicalJson(header));
    for (const e of fields.setupEvents) this.eventHash.update(canonicalJson(e));
    this.eventCount = fields.setupEvents.length;
  }

  /**
   * The event-stream hash as it would be after `events`, without changing this recorder; hand it
   * to `record` with the same events to adopt it instead of hashing them again.
   */
  hashAfter(events: readonly GameEvent[], textOf: (e: GameEvent) => string = canonicalJson): StreamHash {
    const h = this.eventHash.fork();
    for (const e of events) h.update(textOf(e));
    return h;
  }

  /** Give the submission its seq, fold it into the hashes, and return it. */
  record(entry: Omit<LogEntry, 'seq'>, hashed?: StreamHash): LogEntry {
    const full: LogEntry = { seq: ++this.submissions, ...entry };
    if (hashed) this.eventHash = hashed;
    else for (const e of full.events) this.eventHash.update(canonicalJson(e));
    this.eventCount += full.events.length;
    this.lineHash?.update(canonicalJson(full));
    return full;
  }

  get count(): number {
    return this.submissions;
  }

  /** The event-stream hash so far. */
  eventDigest(): string {
    return this.eventHash.digest();
  }

  footer(outcome: Outcome | null): LogFooter {
    if (!this.lineHash) throw new ArbiterError('bad_request', 'this recorder keeps no line hash: it writes no footer');
    return {
      end: true,
      outcome,
      hash: this.eventHash.digest(),
      log_hash: this.lineHash.digest(),
      events: this.eventCount,
      submissions: this.submissions,
    };
  }
}

/**
 * The input as the log will hold it: keys sorted, as canonical JSON writes them. Runners submit this
 * form, so a ruleset whose answer depends on key order (a rejection listing the keys it saw) gives
 * the same answer on replay.
 */
export function canonicalInput(input: Json): Json {
  // most inputs already have sorted keys (menu elements, parsed log lines): skip the copy then
  return keysSorted(input) ? input : sortedCopy(input);
}

/**
 * What `JSON.parse(canonicalJson(v))` gives, built directly (no text in between): keys sorted,
 * undefined members dropped (null in arrays), -0 as 0, a non-finite number refused.
 */
function sortedCopy(v: Json): Json {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new TypeError(`non-finite number ${v} is not JSON`);
      return v === 0 ? 0 : v;
    }
    return v;
  }
  if (Array.isArray(v)) {
    const arr: Json[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) arr[i] = v[i] === undefined ? null : sortedCopy(v[i]);
    return arr;
  }
  const out: { [k: string]: Json } = {};
  for (const k of sortedKeys(v)) {
    const x = v[k];
    if (x === undefined) continue;
    // an own "__proto__" member stays a member (as JSON.parse makes it), never the prototype
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: sortedCopy(x), enumerable: true, writable: true, configurable: true });
    else out[k] = sortedCopy(x);
  }
  return out;
}

function keysSorted(v: Json, depth = 0): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (depth > 200) return false;
  if (Array.isArray(v)) return v.every((x) => keysSorted(x, depth + 1));
  let prev: string | null = null;
  for (const k in v) {
    if (prev !== null && !(prev < k)) return false;
    if (v[k] === undefined || !keysSorted(v[k], depth + 1)) return false;
    prev = k;
  }
  return true;
}

/** A config as the log records it: plain JSON with no prototype keys, copied so setup cannot change the record. */
export function recordableConfig(config: unknown): Json {
  if (!isPlainJson(config))
    throw new ArbiterError(
      'bad_config',
      'the config must be plain JSON (objects, arrays, strings, finite numbers, booleans, null)',
    );
  assertNoPrototypeKeys(config, 'config', 'bad_config');
  return cloneJson(config);
}

/** Event-stream hash: canonical JSON of every event, in order. */
export function hashEvents(events: readonly GameEvent[]): string {
  const h = new StreamHash();
  for (const e of events) h.update(canonicalJson(e));
  return h.digest();
}

export function logLines(m: { header: LogHeader; entries: LogEntry[]; footer: LogFooter }): string[] {
  return [canonicalJson(m.header), ...m.entries.map((e) => canonicalJson(e)), canonicalJson(m.footer)];
}
