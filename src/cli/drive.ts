// `arbiter drive`: the headless JSON-lines protocol of docs/drive.md. One request per line in, one
// response per line out, in order. Bad lines get a typed answer; the driver keeps serving. Lines are
// capped while they are read (an oversize line is skipped, never held), nothing refused is kept, and
// reading waits while the answer stream is full.

import { once } from 'node:events';
import { ArbiterError, findNonFiniteNumber, findPrototypeKey, isPlainJson, type Json } from '@arbiter/engine/kernel';
import { Session } from '../runners/session.ts';
import { splitLines, type LineItem } from '../runners/lines.ts';
import { REGISTRY, rulesetIds } from '@arbiter/engine';
import type { Command } from 'commander';
import type { CliContext } from './io.ts';

const MAX_REASON = 2000;
const MAX_DETAIL = 4096;

/** True when the JSON text of `v` would be longer than about `max` characters (stops early). */
function sizeOver(v: Json, max: number): boolean {
  let left = max;
  const walk = (x: Json): boolean => {
    if (typeof x === 'string') left -= x.length + 2;
    else if (x === null || typeof x !== 'object') left -= 8;
    else if (Array.isArray(x)) {
      for (const y of x) if (walk(y)) return true;
    } else {
      for (const k of Object.keys(x)) {
        left -= k.length + 4;
        if (walk(x[k])) return true;
      }
    }
    return left < 0;
  };
  return walk(v);
}

/** Default maximum request line, in bytes (without the newline). */
export const DEFAULT_MAX_LINE = 1024 * 1024;

export interface DriveState {
  session: Session | null;
}

type Req = Record<string, Json>;

function need<T extends Json>(req: Req, field: string, check: (v: Json) => boolean, what: string): T {
  if (!(field in req) || !check(req[field]))
    throw new ArbiterError('bad_request', `"${field}" must be ${what}`, { field });
  return req[field] as T;
}

function session(ds: DriveState): Session {
  if (!ds.session) throw new ArbiterError('bad_request', 'no game yet: send {"op":"new","ruleset":...} first');
  return ds.session;
}

const isInt = (v: Json) => typeof v === 'number' && Number.isInteger(v);
const isSeatOrNull = (v: Json) => v === null || isInt(v);

/** Answer one request line. Never throws. */
export function handleLine(ds: DriveState, line: string): Json {
  let id: Json = null;
  try {
    let req: unknown;
    try {
      req = JSON.parse(line);
    } catch (err) {
      throw new ArbiterError('bad_request', `the line is not JSON (${(err as Error).message})`);
    }
    if (req === null || typeof req !== 'object' || Array.isArray(req))
      throw new ArbiterError('bad_request', 'a request must be a JSON object');
    const r = req as Req;
    // the id is echoed whenever it is itself sound, whatever else is wrong with the request
    if (Object.hasOwn(r, 'id') && isPlainJson(r.id) && findPrototypeKey(r.id) === null) id = r.id;
    const proto = findPrototypeKey(r);
    if (proto !== null)
      throw new ArbiterError(
        'bad_request',
        `the key "${proto}" is not allowed (__proto__, constructor and prototype are refused)`,
        { path: proto },
      );
    const inf = findNonFiniteNumber(r);
    if (inf !== null) {
      throw new ArbiterError(
        'bad_request',
        `the number at "${inf}" is too large for JSON (it reads as Infinity; send at most ±1.7976931348623157e308)`,
        { path: inf },
      );
    }
    if (!isPlainJson(r)) throw new ArbiterError('bad_request', 'the request is nested too deeply');
    const op = need<string>(r, 'op', (v) => typeof v === 'string', 'a string');
    switch (op) {
      case 'new': {
        const rulesetId = need<string>(r, 'ruleset', (v) => typeof v === 'string', `one of ${rulesetIds().join(', ')}`);
        const pkg = REGISTRY.get(rulesetId);
        if (!pkg) throw new ArbiterError('not_found', `unknown ruleset "${rulesetId}"`, { known: rulesetIds() });
        const seed = 'seed' in r ? need<number>(r, 'seed', isInt, 'an integer') : 1;
        const config =
          'config' in r
            ? need<Json>(r, 'config', (v) => v === null || (typeof v === 'object' && !Array.isArray(v)), 'an object')
            : {};
        if (seed < 0 || seed > 0xffffffff)
          throw new ArbiterError('bad_request', '"seed" must be an integer from 0 to 4294967295', { field: 'seed' });
        ds.session = new Session(pkg.ruleset, seed, config ?? {});
        return {
          id,
          ok: true,
          pending: ds.session.ruleset.pending(ds.session.state),
          seats: ds.session.ruleset.seats(ds.session.state),
        };
      }
      case 'pending': {
        const s = session(ds);
        return { id, ok: true, pending: s.ruleset.pending(s.state) };
      }
      case 'legal': {
        const s = session(ds);
        const seat = need<number>(r, 'seat', isInt, 'a seat number');
        if (seat < 0 || seat >= s.ruleset.seats(s.state))
          throw new ArbiterError('bad_request', `seat ${seat} does not exist`);
        const menu = s.ruleset.legal(s.state, seat);
        return menu.templates
          ? { id, ok: true, actions: menu.actions, templates: menu.templates }
          : { id, ok: true, actions: menu.actions };
      }
      case 'act': {
        const s = session(ds);
        const seat = need<number>(r, 'seat', isInt, 'a seat number');
        if (!('action' in r)) throw new ArbiterError('bad_request', '"action" is missing', { field: 'action' });
        const res = s.act(seat, r.action);
        if (!res.ok) throw res.error;
        return {
          id,
          ok: true,
          events: res.events,
          pending: s.ruleset.pending(s.state),
        };
      }
      case 'view': {
        const s = session(ds);
        const seat = need<number | null>(r, 'seat', isSeatOrNull, 'a seat number or null');
        if (seat !== null && (seat < 0 || seat >= s.ruleset.seats(s.state)))
          throw new ArbiterError('bad_request', `seat ${seat} does not exist`);
        return { id, ok: true, view: s.ruleset.view(s.state, seat) };
      }
      case 'state': {
        const s = session(ds);
        return { id, ok: true, state: s.state as Json };
      }
      case 'outcome': {
        const s = session(ds);
        return { id, ok: true, outcome: s.ruleset.outcome(s.state) };
      }
      case 'log': {
        const s = session(ds);
        return { id, ok: true, log: s.log() };
      }
      case 'rulesets':
        return { id, ok: true, rulesets: rulesetIds() };
      default:
        throw new ArbiterError(
          'bad_request',
          `unknown op "${op}" (ops: new, pending, legal, act, view, state, outcome, log, rulesets)`,
        );
    }
  } catch (err) {
    if (err instanceof ArbiterError) {
      // an answer never echoes a large input back: a refusal costs the client, not the driver
      const reason = err.message.length > MAX_REASON ? err.message.slice(0, MAX_REASON) + '…' : err.message;
      const error: Record<string, Json> = { code: err.code, reason };
      if (err.detail !== undefined) {
        error.detail = sizeOver(err.detail, MAX_DETAIL) ? { truncated: true, over: MAX_DETAIL } : err.detail;
      }
      return { id, ok: false, error };
    }
    return { id, ok: false, error: { code: 'bad_request', reason: `internal error: ${(err as Error).message}` } };
  }
}

/** Answer for a line over the limit; the id is recovered when it leads the line. */
function tooLargeAnswer(item: Extract<LineItem, { kind: 'too_large' }>, maxLine: number): Json {
  let id: Json = null;
  const m =
    /^\s*\{\s*"id"\s*:\s*(-?\d{1,20}(?:\.\d{1,20})?(?:[eE][+-]?\d{1,3})?|"(?:[^"\\]|\\.){0,200}"|null|true|false)\s*[,}]/.exec(
      item.head,
    );
  if (m) {
    try {
      const v = JSON.parse(m[1]);
      if (isPlainJson(v)) id = v;
    } catch {
      id = null;
    }
  }
  return {
    id,
    ok: false,
    error: {
      code: 'too_large',
      reason: `line ${item.no} is ${item.bytes}${item.terminated ? '' : '+'} bytes, over the limit of ${maxLine} (--max-line); it was skipped to its end`,
      detail: { line: item.no, bytes: item.bytes, max: maxLine },
    },
  };
}

export async function runDrive(
  input: AsyncIterable<Buffer | string> = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
  opts: { maxLine?: number } = {},
): Promise<void> {
  const maxLine = opts.maxLine ?? DEFAULT_MAX_LINE;
  const ds: DriveState = { session: null };
  for await (const item of splitLines(input, maxLine)) {
    let answer: Json;
    if (item.kind === 'too_large') answer = tooLargeAnswer(item, maxLine);
    else if (item.text.trim() === '') continue;
    else answer = handleLine(ds, item.text);
    // wait for a slow reader instead of queueing answers in memory
    if (output.write(JSON.stringify(answer) + '\n') === false) await once(output, 'drain');
  }
}

export function registerDrive(program: Command, ctx: CliContext): void {
  program
    .command('drive')
    .description('the headless JSON-lines protocol on stdin/stdout (see docs/drive.md)')
    .option(
      '--max-line <bytes>',
      'longest request line accepted; a longer one is skipped and answered too_large',
      String(DEFAULT_MAX_LINE),
    )
    .action(async (opts: { maxLine: string }) => {
      const maxLine = Number(opts.maxLine);
      if (!Number.isInteger(maxLine) || maxLine < 64 || maxLine > 512 * 1024 * 1024) {
        throw new ArbiterError(
          'bad_request',
          `--max-line must be an integer from 64 to 536870912, got "${opts.maxLine}"`,
        );
      }
      await runDrive(ctx.io.stdin as AsyncIterable<Buffer | string>, ctx.io.stdout, { maxLine });
    });
}
