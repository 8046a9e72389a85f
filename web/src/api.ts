// The page's only way to the server: its public HTTP API and the match WebSocket (docs/server.md).
import type { ActResult, Json } from './boards/types.ts';

export type JsonObject = { [k: string]: Json };

export type AgentInfo = { name: string; description: string; reads: string };
export type RulesetSummary = {
  id: string;
  version: string;
  title: string;
  rules: number;
  uItems: number;
  agents: AgentInfo[];
  gameType: JsonObject;
};
export type RulesetDetail = RulesetSummary & {
  configSchema: JsonObject | null;
  defaultConfig: JsonObject;
  presets: Json;
};
export type SeatRecord = { seat: number; kind: 'open' | 'player' | 'agent'; name: string | null };
export type MatchRecord = {
  id: string;
  ruleset: string;
  version: string;
  title?: string;
  status: 'waiting' | 'running' | 'finished';
  private: boolean;
  seats: SeatRecord[];
  seq: number;
  pending?: { seat: number; kind: string }[];
  outcome: Json | null;
  seed?: number;
  /** The line-up the seats came from (a live episode). */
  lineup?: { id: string; version: string };
  createdAt: number;
  updatedAt: number;
};
/** A line-up the server offers to match creators (GET /api/lineups). */
export type OfferedLineup = {
  id: string;
  ruleset: string;
  version: string;
  description: string | null;
  seats: string[];
  source: 'server' | 'shipped';
  allowed: boolean;
};
export type StateFrame = {
  type: 'state';
  match: string;
  seq: number;
  status: MatchRecord['status'];
  seat: number | null;
  view: Json;
  pending: Json[];
  yours: Json[];
  menu: { actions: Json[]; templates?: Template[] } | null;
  events: Json[];
  outcome: Json | null;
};
export type Template = { family: string; schema: JsonObject; example: Json; description?: string };
export type ActionSchemas = {
  ruleset: string;
  actions: Record<string, JsonObject>;
  sources: Record<string, 'template' | 'declared' | 'menus'>;
};

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    reason: string,
  ) {
    super(reason);
  }
}

async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) {
    const err = (data as { error?: { code?: string; reason?: string } } | null)?.error;
    throw new ApiError(res.status, err?.code ?? 'http', err?.reason ?? `${res.status} ${res.statusText}`);
  }
  return data as T;
}

export const api = {
  rulesets: () => call<RulesetSummary[]>('GET', '/rulesets'),
  ruleset: (id: string) => call<RulesetDetail>('GET', `/rulesets/${encodeURIComponent(id)}`),
  /** The ruleset's public rules page (markdown, as `arbiter rules ID` prints it). */
  rules: async (id: string): Promise<string> => {
    const res = await fetch(`/api/rulesets/${encodeURIComponent(id)}/rules`);
    if (!res.ok) throw new ApiError(res.status, 'http', `the rules could not be loaded (${res.status})`);
    return res.text();
  },
  actionSchemas: (id: string) => call<ActionSchemas>('GET', `/rulesets/${encodeURIComponent(id)}/actions`),
  matches: (q: { status?: string; ruleset?: string; limit?: number } = {}) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== undefined) p.set(k, String(v));
    const qs = p.toString();
    return call<MatchRecord[]>('GET', `/matches${qs ? `?${qs}` : ''}`);
  },
  match: (id: string) => call<MatchRecord>('GET', `/matches/${encodeURIComponent(id)}`),
  create: (body: {
    ruleset: string;
    config?: JsonObject;
    seed?: number;
    seats?: { agent?: string }[];
    agentDelayMs?: number;
    lineup?: string;
  }) => call<MatchRecord>('POST', '/matches', body),
  lineups: (ruleset: string) => call<OfferedLineup[]>('GET', `/lineups?ruleset=${encodeURIComponent(ruleset)}`),
  /** The seats of a match with a transcript (readable once the match is over). */
  transcripts: (id: string) => call<{ seats: number[] }>('GET', `/matches/${encodeURIComponent(id)}/transcripts`),
  join: (id: string, name: string, seat?: number) =>
    call<{ match: string; seat: number; token: string }>('POST', `/matches/${encodeURIComponent(id)}/join`, {
      name,
      ...(seat === undefined ? {} : { seat }),
    }),
  leave: (id: string, token: string) => call<Json>('POST', `/matches/${encodeURIComponent(id)}/leave`, {}, token),
  /** The match's log as JSON Lines; with a seat's token, a running match's events as that seat sees them. */
  log: async (id: string, token?: string | null): Promise<string> => {
    const res = await fetch(
      `/api/matches/${encodeURIComponent(id)}/log`,
      token ? { headers: { authorization: `Bearer ${token}` } } : {},
    );
    if (!res.ok) throw new ApiError(res.status, 'http', `the log could not be loaded (${res.status})`);
    return res.text();
  },
};

// ---- seat tokens: kept in this browser so a reload (or the lobby) finds your seats again -------------

const KEY = 'arbiter.tokens';
type Held = Record<string, { seat: number; token: string }>;

function held(): Held {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' ? (v as Held) : {};
  } catch {
    return {};
  }
}

export function rememberToken(match: string, seat: number, token: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...held(), [match]: { seat, token } }));
  } catch {
    // private mode: the fragment link still works
  }
}

export function heldToken(match: string): { seat: number; token: string } | null {
  return held()[match] ?? null;
}

export function forgetToken(match: string): void {
  const h = held();
  delete h[match];
  try {
    localStorage.setItem(KEY, JSON.stringify(h));
  } catch {
    // nothing kept, nothing to forget
  }
}

// ---- the match socket ---------------------------------------------------------------------------------

export type SocketStatus = 'connecting' | 'open' | 'closed';

/** One WebSocket to a match: state frames to `onState`, `act` frames answered by their `ack`/`error`. */
export class MatchSocket {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, (r: ActResult) => void>();
  private stopped = false;
  private retry = 0;

  constructor(
    private readonly match: string,
    private readonly token: string | null,
    private readonly onState: (f: StateFrame) => void,
    private readonly onStatus: (s: SocketStatus, why?: string) => void,
  ) {
    this.open();
  }

  private open(): void {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    const ws = new WebSocket(`${proto}//${location.host}/api/matches/${encodeURIComponent(this.match)}/ws${q}`);
    this.ws = ws;
    this.onStatus('connecting');
    ws.onopen = () => {
      this.retry = 0;
      this.onStatus('open');
    };
    ws.onmessage = (ev) => {
      let f: JsonObject;
      try {
        f = JSON.parse(String(ev.data)) as JsonObject;
      } catch {
        return;
      }
      if (f.type === 'state') this.onState(f as unknown as StateFrame);
      else if ((f.type === 'ack' || f.type === 'error') && typeof f.id === 'number') {
        const done = this.waiting.get(f.id);
        this.waiting.delete(f.id);
        if (!done) return;
        if (f.type === 'ack') done({ ok: true, events: (f.events as Json[]) ?? [] });
        else done({ ok: false, code: String(f.code), reason: String(f.reason) });
      } else if (f.type === 'error') this.onStatus('closed', String(f.reason ?? f.code));
    };
    ws.onclose = (ev) => {
      for (const done of this.waiting.values()) done({ ok: false, code: 'closed', reason: 'the connection closed' });
      this.waiting.clear();
      // 44xx: the server refused us (bad token, no such match); anything else: try again
      if (this.stopped || (ev.code >= 4400 && ev.code < 4500)) {
        this.onStatus('closed', ev.code >= 4400 ? `refused (${ev.reason || ev.code})` : undefined);
        return;
      }
      this.onStatus('connecting', 'reconnecting');
      const wait = Math.min(5000, 250 * 2 ** this.retry++);
      setTimeout(() => !this.stopped && this.open(), wait);
    };
  }

  act(action: Json): Promise<ActResult> {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN)
      return Promise.resolve({ ok: false, code: 'closed', reason: 'not connected' });
    const id = this.nextId++;
    return new Promise((done) => {
      this.waiting.set(id, done);
      ws.send(JSON.stringify({ type: 'act', id, action }));
    });
  }

  close(): void {
    this.stopped = true;
    this.ws?.close(1000);
  }
}
