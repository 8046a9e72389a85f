// `arbiter drive`: the headless JSON-lines protocol of DESIGN.md. One request per line in, one
// response per line out, in order. Bad lines get a bad_request answer; the driver keeps serving.

import { createInterface } from 'node:readline';
import { ArbiterError, isPlainJson, type Json } from '../kernel/index.ts';
import { Session } from '../runners/session.ts';
import { REGISTRY, rulesetIds } from '../registry.ts';

const MAX_LINE = 1_000_000;

export interface DriveState {
  session: Session | null;
}

type Req = Record<string, Json>;

function need<T extends Json>(req: Req, field: string, check: (v: Json) => boolean, what: string): T {
  if (!(field in req) || !check(req[field])) throw new ArbiterError('bad_request', `"${field}" must be ${what}`, { field });
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
    if (line.length > MAX_LINE) throw new ArbiterError('bad_request', `line longer than ${MAX_LINE} characters`);
    let req: unknown;
    try {
      req = JSON.parse(line);
    } catch {
      throw new ArbiterError('bad_request', 'the line is not JSON');
    }
    if (req === null || typeof req !== 'object' || Array.isArray(req) || !isPlainJson(req)) {
      throw new ArbiterError('bad_request', 'a request must be a JSON object');
    }
    const r = req as Req;
    if ('id' in r) id = r.id;
    const op = need<string>(r, 'op', (v) => typeof v === 'string', 'a string');
    switch (op) {
      case 'new': {
        const rulesetId = need<string>(r, 'ruleset', (v) => typeof v === 'string', `one of ${rulesetIds().join(', ')}`);
        const pkg = REGISTRY.get(rulesetId);
        if (!pkg) throw new ArbiterError('not_found', `unknown ruleset "${rulesetId}"`, { known: rulesetIds() });
        const seed = 'seed' in r ? need<number>(r, 'seed', isInt, 'an integer') : 1;
        const config = 'config' in r ? need<Json>(r, 'config', (v) => v === null || (typeof v === 'object' && !Array.isArray(v)), 'an object') : {};
        ds.session = new Session(pkg.ruleset, seed, config ?? {});
        return { id, ok: true, pending: ds.session.ruleset.pending(ds.session.state) as unknown as Json, seats: ds.session.ruleset.seats(ds.session.state) };
      }
      case 'pending': {
        const s = session(ds);
        return { id, ok: true, pending: s.ruleset.pending(s.state) as unknown as Json };
      }
      case 'legal': {
        const s = session(ds);
        const seat = need<number>(r, 'seat', isInt, 'a seat number');
        if (seat < 0 || seat >= s.ruleset.seats(s.state)) throw new ArbiterError('bad_request', `seat ${seat} does not exist`);
        const menu = s.ruleset.legal(s.state, seat);
        return menu.templates
          ? { id, ok: true, actions: menu.actions as Json, templates: menu.templates as unknown as Json }
          : { id, ok: true, actions: menu.actions as Json };
      }
      case 'act': {
        const s = session(ds);
        const seat = need<number>(r, 'seat', isInt, 'a seat number');
        if (!('action' in r)) throw new ArbiterError('bad_request', '"action" is missing', { field: 'action' });
        const res = s.act(seat, r.action);
        if (!res.ok) throw res.error;
        return { id, ok: true, events: res.events as unknown as Json, pending: s.ruleset.pending(s.state) as unknown as Json };
      }
      case 'view': {
        const s = session(ds);
        const seat = need<number | null>(r, 'seat', isSeatOrNull, 'a seat number or null');
        if (seat !== null && (seat < 0 || seat >= s.ruleset.seats(s.state))) throw new ArbiterError('bad_request', `seat ${seat} does not exist`);
        return { id, ok: true, view: s.ruleset.view(s.state, seat) };
      }
      case 'state': {
        const s = session(ds);
        return { id, ok: true, state: s.state as Json };
      }
      case 'outcome': {
        const s = session(ds);
        return { id, ok: true, outcome: s.ruleset.outcome(s.state) as unknown as Json };
      }
      case 'log': {
        const s = session(ds);
        return { id, ok: true, log: s.log() };
      }
      case 'rulesets':
        return { id, ok: true, rulesets: rulesetIds() };
      default:
        throw new ArbiterError('bad_request', `unknown op "${op}" (ops: new, pending, legal, act, view, state, outcome, log, rulesets)`);
    }
  } catch (err) {
    if (err instanceof ArbiterError) {
      const error: Record<string, Json> = { code: err.code, reason: err.message };
      if (err.detail !== undefined) error.detail = err.detail;
      return { id, ok: false, error };
    }
    return { id, ok: false, error: { code: 'bad_request', reason: `internal error: ${(err as Error).message}` } };
  }
}

export async function runDrive(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<void> {
  const ds: DriveState = { session: null };
  const rl = createInterface({ input, crlfDelay: Infinity });
  for await (const line of rl) {
    if (line.trim() === '') continue;
    output.write(JSON.stringify(handleLine(ds, line)) + '\n');
  }
}
