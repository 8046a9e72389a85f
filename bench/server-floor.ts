// The floor for bench/server.ts's tic-tac-toe work (`--targets floor`): a bare node:http + `ws`
// server that speaks just enough of arbiter's protocol for bench/server-load.ts's arbiter player
// (create, join, a seat socket with act and switch frames, ack and state frames of the same shape
// and about the same size), with the board in memory: no framework, no engine, no store, no checks.
// What it costs per move is what the sockets and JSON cost in Node.js on this machine; arbiter's
// figure against it says how much of a durable action is ours. Prints "listening http://127.0.0.1:PORT".
// Not a server to use: it trusts every frame.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
// the eight lines only (a constant): the floor runs no engine code per move
import { LINES } from '@arbiter/engine/rulesets/tictactoe';

type Match = { id: string; board: (0 | 1 | null)[]; seq: number; tokens: string[]; socks: (WebSocket | null)[] };
const matches = new Map<string, Match>();
const byToken = new Map<string, { m: Match; seat: number }>();

function outcome(b: Match['board']): unknown {
  for (const [a, c, d] of LINES) if (b[a] !== null && b[a] === b[c] && b[a] === b[d]) return { winner: b[a] };
  return b.every((x) => x !== null) ? { draw: true } : null;
}

/** A state frame as arbiter's carries it (view, pending, the seat's menu), for one seat. */
function state(m: Match, seat: number, events: unknown[]): string {
  const over = outcome(m.board);
  const toMove = m.seq % 2;
  const mine = over === null && toMove === seat;
  return JSON.stringify({
    type: 'state',
    match: m.id,
    seq: m.seq,
    status: over === null ? 'running' : 'finished',
    seat,
    view: { board: m.board, toMove },
    pending: over === null ? [{ seat: toMove, kind: 'move' }] : [],
    yours: mine ? [{ seat, kind: 'move' }] : [],
    menu: mine ? { actions: m.board.flatMap((x, cell) => (x === null ? [{ type: 'mark', cell }] : [])) } : null,
    events,
    outcome: over,
  });
}

function body(req: IncomingMessage): Promise<unknown> {
  return new Promise((ok) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => ok(parts.length ? JSON.parse(Buffer.concat(parts).toString('utf8')) : {}));
  });
}

function answer(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

const server = createServer(async (req, res) => {
  const url = req.url ?? '';
  await body(req);
  if (req.method === 'POST' && url === '/api/matches') {
    const id = randomBytes(12).toString('base64url');
    matches.set(id, { id, board: Array(9).fill(null), seq: 0, tokens: [], socks: [null, null] });
    return answer(res, 201, { id, ruleset: 'tictactoe', status: 'waiting', seq: 0 });
  }
  const join = /^\/api\/matches\/([^/]+)\/join$/.exec(url);
  const m = join && matches.get(join[1]);
  if (req.method === 'POST' && m && m.tokens.length < 2) {
    const token = randomBytes(24).toString('base64url');
    byToken.set(token, { m, seat: m.tokens.length });
    m.tokens.push(token);
    return answer(res, 201, { match: m.id, seat: m.tokens.length - 1, token });
  }
  answer(res, 404, { ok: false });
});

const wss = new WebSocketServer({ server });
wss.on('connection', (socket, req) => {
  let bound = byToken.get(new URL(req.url ?? '', 'http://x').searchParams.get('token') ?? '');
  const bind = (b: typeof bound, id?: unknown) => {
    if (!b) return;
    b.m.socks[b.seat] = socket;
    const f = JSON.parse(state(b.m, b.seat, []));
    if (id !== undefined) f.id = id;
    socket.send(JSON.stringify(f));
  };
  bind(bound);
  socket.on('message', (data: Buffer) => {
    const f = JSON.parse(data.toString('utf8'));
    if (f.type === 'switch') {
      bound = byToken.get(f.token);
      return bind(bound, f.id);
    }
    if (!bound) return;
    const { m, seat } = bound;
    const cell = f.action.cell as number;
    m.board[cell] = seat as 0 | 1;
    m.seq++;
    const events = [{ type: 'marked', seat, cell }];
    const over = outcome(m.board);
    // the ack and the actor's state frame leave in one write, as arbiter sends them
    const raw = (socket as unknown as { _socket: Socket })._socket;
    raw.cork();
    for (let i = 0; i < m.socks.length; i++) m.socks[i]?.send(state(m, i, events));
    socket.send(JSON.stringify({ type: 'ack', seq: m.seq, events, outcome: over, replayed: false, id: f.id }));
    raw.uncork();
    if (over !== null) {
      matches.delete(m.id);
      for (const t of m.tokens) byToken.delete(t);
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  const a = server.address() as { port: number };
  process.stdout.write(`listening http://127.0.0.1:${a.port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
