// The load client of bench/server.ts, in its own process so the clients' CPU is not the reporter's
// (the machine's cores are still shared by server and clients: a server CPU-second figure comes from
// /proc, not from wall time). It reads one job per stdin line and answers with JSON lines on stdout:
// `{"event":"start"}` when the measured window opens, `{"event":"stop"}` when it closes (closed loop:
// after the set time; open loop: once every scheduled action is answered) and `{"event":"end", ...}`
// with its figures.
//
// Two kinds of load, both playing random tic-tac-toe matches (a finished match is replaced by a new
// one; creating and joining it is not counted as an action):
// - closed loop (`paceMs: 0`): each of N matches always has one action outstanding; gives the most
//   actions per second a server answers, and a latency that is mostly queueing (Little's law);
// - open loop (`paceMs: P`): each of N matches acts once every P ms on a fixed schedule, whatever
//   the answers do. Latency runs from the scheduled moment to the answer, so time spent waiting for
//   a late answer (or for the opponent to see the last move) before the next action counts against
//   the server instead of being hidden (no coordinated omission).
// Every client waits, before a seat moves, until that seat has seen the previous move (a state frame
// for arbiter's WebSocket, a synced state for boardgame.io's client), as a person's screen would.

import http from 'node:http';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { SeededRandom } from '@arbiter/engine/kernel';
import { bgioGame } from './peers/boardgameio.ts';

export type LoadJob = {
  kind: 'arbiter-http' | 'arbiter-ws' | 'bgio';
  /** The game the arbiter kinds play (boardgame.io plays tic-tac-toe only). Default tictactoe. */
  game?: 'tictactoe' | 'ground';
  /** http://127.0.0.1:PORT */
  base: string;
  /** boardgame.io's Lobby API, http://127.0.0.1:PORT (its own port) */
  lobby?: string;
  matches: number;
  seconds: number;
  /** 0: closed loop; otherwise one action per match every paceMs (open loop). */
  paceMs: number;
  /**
   * boardgame.io's client transport: socket.io straight over WebSocket (the default here, its
   * fastest), or socket.io's own default, long-polling first and upgraded later.
   */
  bgioTransport?: 'websocket' | 'polling-first';
  /**
   * How a boardgame.io match is set up: through its Lobby API, which seats each player with
   * credentials (the same work an arbiter match does: create, two joins, two sockets), or by
   * connecting both clients straight to a fresh match ID, with no seats checked.
   */
  bgioSetup?: 'lobby' | 'direct';
  /**
   * Whether a player's WebSocket outlives its match: `per-match` opens a socket per seat for every
   * match (and closes it after); `kept` opens one per seat once and moves it to each next match
   * (boardgame.io's client: updateMatchID and updateCredentials; arbiter: a `switch` frame).
   */
  sockets?: 'per-match' | 'kept';
  /**
   * Whether the HTTP requests (creates, joins, boardgame.io's lobby) reuse kept-alive connections
   * (the default) or open a fresh connection each, as a client without a connection pool does.
   */
  httpConnections?: 'kept' | 'fresh';
  /** Seconds of closed-loop play (up to 50 matches) before the measured window; default 3. */
  warmupS?: number;
  /** Added to each match slot's index and seed, so that several load processes play different matches. */
  offset?: number;
  /**
   * With several load processes: after the warm-up, say `ready` and wait for a `go` line, so that
   * every process opens its measured window at the same moment.
   */
  sync?: boolean;
};

export type LoadResult = {
  event: 'end';
  actions: number;
  /** Scheduled (open loop) actions never answered within the grace period. */
  unanswered: number;
  wallS: number;
  lat: number[];
  clientCpuS: number;
  errors: string[];
};

/** One match slot: a player that can get a match ready for the next move and make it. */
interface Player {
  /** A match is open, it is someone's turn, and the seat to move has seen the last move. */
  ready(): Promise<void>;
  /** One action; resolves when the mover has the answer. */
  move(): Promise<void>;
  close(): void;
}

// Requests go through node:http on kept-alive connections rather than fetch(): undici's fetch cost
// the load process about a third of its CPU (web streams per request), and this process, one core
// at most, was what capped the arbiter rows' actions per wall second.
const keptAlive = new http.Agent({ keepAlive: true, maxSockets: 1024 });
// one connection per request: the server sees each request's connect, request and close
const freshEach = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
let agent = keptAlive;

function request(method: string, url: string, body?: unknown, token?: string): Promise<any> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string | number> = {};
  if (text !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(text);
  }
  if (token) headers.authorization = `Bearer ${token}`;
  return new Promise((ok, fail) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => {
        try {
          const j = JSON.parse(Buffer.concat(parts).toString('utf8'));
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) fail(new Error(`${url}: ${status} ${JSON.stringify(j)}`));
          else ok(j);
        } catch (err) {
          fail(err);
        }
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(text);
  });
}

const post = (base: string, path: string, body: unknown, token?: string) => request('POST', base + path, body, token);

/**
 * One open WebSocket per seat of an arbiter match: `state` frames go to `onState`, and an `ack` or
 * `error` answers the waiter registered under its id.
 */
async function openSeatSockets(
  base: string,
  match: string,
  tokens: string[],
  waiters: Map<number, (f: any) => void>,
  onState: (seat: number, frame: any) => void,
): Promise<WebSocket[]> {
  const wsBase = base.replace('http', 'ws');
  const sockets = tokens.map((t, seat) => {
    const w = new WebSocket(`${wsBase}/api/matches/${match}/ws?token=${t}`);
    w.on('message', (d) => {
      const f = JSON.parse(String(d));
      if (f.type === 'state') onState(seat, f);
      else if ((f.type === 'ack' || f.type === 'error') && waiters.has(f.id)) {
        waiters.get(f.id)!(f);
        waiters.delete(f.id);
      } else if (f.type === 'error') {
        // a refused switch (or any refusal nobody waits for) would leave the slot waiting for ever
        console.error(`load client: unexpected error frame ${JSON.stringify(f)}`);
        process.exit(1);
      }
    });
    return w;
  });
  await Promise.all(sockets.map((w) => new Promise((ok, fail) => (w.once('open', ok), w.once('error', fail)))));
  return sockets;
}

/** Moves kept seat sockets to a new match: each sends a `switch` with its seat's new token. */
function switchSeatSockets(sockets: WebSocket[], match: string, tokens: string[]): void {
  sockets.forEach((w, seat) => w.send(JSON.stringify({ type: 'switch', match, token: tokens[seat] })));
}

class ArbiterPlayer implements Player {
  private id = '';
  private tokens: string[] = [];
  private free: number[] = [];
  private turn = 0;
  private over = true;
  private sockets: WebSocket[] = [];
  /** Highest seq each seat's socket has seen in a state frame. */
  private seen: number[] = [];
  private seq = 0;
  private waiters = new Map<number, (f: any) => void>();
  private seenWaiter: (() => void) | null = null;

  constructor(
    private readonly base: string,
    private readonly ws: boolean,
    private readonly rnd: SeededRandom,
    private readonly keep: boolean,
  ) {}

  private async fresh(): Promise<void> {
    if (!this.keep) this.close();
    const m = await post(this.base, '/api/matches', { ruleset: 'tictactoe', seed: this.rnd.int(1e9) });
    this.id = m.id;
    this.tokens = [];
    for (const name of ['x', 'o'])
      this.tokens.push((await post(this.base, `/api/matches/${m.id}/join`, { name })).token);
    this.free = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    this.turn = 0;
    this.seq = 0;
    this.over = false;
    if (!this.ws) return;
    this.seen = [-1, -1];
    if (this.sockets.length > 0) switchSeatSockets(this.sockets, m.id, this.tokens);
    else
      this.sockets = await openSeatSockets(this.base, m.id, this.tokens, this.waiters, (seat, f) => {
        // a kept socket may still deliver its last match's frames
        if (f.match !== this.id) return;
        this.seen[seat] = Math.max(this.seen[seat], f.seq);
        this.seenWaiter?.();
      });
  }

  async ready(): Promise<void> {
    if (this.over) await this.fresh();
    if (!this.ws) return;
    const seat = this.turn % 2;
    while (this.seen[seat] < this.seq) await new Promise<void>((ok) => (this.seenWaiter = ok));
    this.seenWaiter = null;
  }

  async move(): Promise<void> {
    const cell = this.free.splice(this.rnd.int(this.free.length), 1)[0];
    const seat = this.turn % 2;
    const action = { type: 'mark', cell };
    let outcome: unknown;
    if (!this.ws) {
      const r = await post(this.base, `/api/matches/${this.id}/actions`, { action }, this.tokens[seat]);
      outcome = r.outcome;
      this.seq = r.seq;
    } else {
      const id = this.turn + 1;
      const f = await new Promise<any>((ok) => {
        this.waiters.set(id, ok);
        this.sockets[seat].send(JSON.stringify({ type: 'act', id, action }));
      });
      if (f.type !== 'ack') throw new Error(JSON.stringify(f));
      outcome = f.outcome;
      this.seq = f.seq;
    }
    this.turn++;
    this.over = outcome !== null || this.free.length === 0;
  }

  close(): void {
    for (const w of this.sockets) w.close();
    this.sockets = [];
  }
}

type BgioClient = {
  start(): void;
  stop(): void;
  subscribe(fn: (state: any) => void): () => void;
  moves: { mark(cell: number): void };
  updateMatchID(id: string): void;
  updateCredentials(credentials: string | undefined): void;
};

function bgioModules() {
  process.env.NODE_ENV = 'production';
  const require = createRequire(import.meta.url);
  const { Client } = require('boardgame.io/client') as { Client: (o: unknown) => BgioClient };
  const { SocketIO } = require('boardgame.io/multiplayer') as { SocketIO: (o: unknown) => unknown };
  return { Client, SocketIO };
}

/** boardgame.io's official client with its socket.io transport, two per match (one per seat). */
/**
 * A four-seat GROUND match played from the seats' own menus: during Select every seat is pending at
 * once, so the next mover is any pending seat that has seen the last change. Over WebSocket the menus
 * come in each seat's state frames; over HTTP a client asks `/pending`, then the mover's `/menu`
 * (in ready(), not timed: only the submission is the action).
 */
class GroundPlayer implements Player {
  private id = '';
  private tokens: string[] = [];
  private over = true;
  private seq = 0;
  private sockets: WebSocket[] = [];
  /** Each seat's latest state frame (WebSocket). */
  private frames: any[] = [];
  private changed: (() => void) | null = null;
  private waiters = new Map<number, (f: any) => void>();
  private next: { seat: number; action: unknown } | null = null;
  private acts = 0;

  constructor(
    private readonly base: string,
    private readonly ws: boolean,
    private readonly rnd: SeededRandom,
    private readonly keep: boolean,
  ) {}

  private async fresh(): Promise<void> {
    if (!this.keep) this.close();
    const m = await post(this.base, '/api/matches', {
      ruleset: 'ground',
      config: { players: 4 },
      seed: this.rnd.int(1e9),
    });
    this.id = m.id;
    this.tokens = [];
    for (const name of ['a', 'b', 'c', 'd'])
      this.tokens.push((await post(this.base, `/api/matches/${m.id}/join`, { name })).token);
    this.seq = 0;
    this.over = false;
    this.frames = [null, null, null, null];
    if (!this.ws) return;
    if (this.sockets.length > 0) switchSeatSockets(this.sockets, m.id, this.tokens);
    else
      this.sockets = await openSeatSockets(this.base, m.id, this.tokens, this.waiters, (seat, f) => {
        if (f.match !== this.id) return;
        if (!this.frames[seat] || f.seq >= this.frames[seat].seq) this.frames[seat] = f;
        this.changed?.();
      });
  }

  private get(path: string, seat: number): Promise<any> {
    return request('GET', `${this.base}/api/matches/${this.id}${path}`, undefined, this.tokens[seat]);
  }

  async ready(): Promise<void> {
    if (this.over) await this.fresh();
    if (!this.ws) {
      const { pending } = await this.get('/pending', 0);
      const seat = pending[this.rnd.int(pending.length)].seat as number;
      const { menu } = await this.get('/menu', seat);
      this.next = { seat, action: menu.actions[this.rnd.int(menu.actions.length)] };
      return;
    }
    for (;;) {
      const movers = this.frames
        .map((f, seat) => ({ f, seat }))
        .filter(({ f }) => f && f.seq >= this.seq && f.yours.length > 0 && f.menu?.actions.length > 0);
      if (movers.length > 0) {
        const { f, seat } = movers[this.rnd.int(movers.length)];
        this.next = { seat, action: f.menu.actions[this.rnd.int(f.menu.actions.length)] };
        return;
      }
      await new Promise<void>((ok) => (this.changed = ok));
      this.changed = null;
    }
  }

  async move(): Promise<void> {
    const { seat, action } = this.next!;
    this.next = null;
    let outcome: unknown;
    if (!this.ws) {
      const r = await post(this.base, `/api/matches/${this.id}/actions`, { action }, this.tokens[seat]);
      outcome = r.outcome;
      this.seq = r.seq;
    } else {
      const id = ++this.acts;
      const f = await new Promise<any>((ok) => {
        this.waiters.set(id, ok);
        this.sockets[seat].send(JSON.stringify({ type: 'act', id, action }));
      });
      if (f.type !== 'ack') throw new Error(JSON.stringify(f));
      outcome = f.outcome;
      this.seq = f.seq;
    }
    this.over = outcome !== null;
  }

  close(): void {
    for (const w of this.sockets) w.close();
    this.sockets = [];
  }
}

class BgioPlayer implements Player {
  private clients: BgioClient[] = [];
  private states: any[] = [null, null];
  private waiters: (((st: any) => void) | null)[] = [null, null];
  private free: number[] = [];
  private stateId = 0;
  private over = true;
  private n = 0;

  constructor(
    private readonly base: string,
    private readonly slot: number,
    private readonly rnd: SeededRandom,
    private readonly transport: 'websocket' | 'polling-first',
    private readonly setup: 'lobby' | 'direct',
    private readonly lobby: string,
    private readonly keep: boolean,
  ) {}

  private synced(i: number, pred: (st: any) => boolean): Promise<any> {
    return new Promise<any>((ok) => {
      if (this.states[i] && pred(this.states[i])) return ok(this.states[i]);
      this.waiters[i] = (st) => {
        if (pred(st)) {
          this.waiters[i] = null;
          ok(st);
        }
      };
    });
  }

  private async fresh(): Promise<void> {
    if (!this.keep) this.close();
    const { Client, SocketIO } = bgioModules();
    let matchID: string;
    let credentials: (string | undefined)[] = [undefined, undefined];
    if (this.setup === 'lobby') {
      // as a seated client does it: the Lobby API creates the match and hands each seat its
      // credentials, which the server then checks on every move
      matchID = (await post(this.lobby, '/games/tictactoe/create', { numPlayers: 2 })).matchID;
      credentials = [];
      for (const playerID of ['0', '1'])
        credentials.push(
          (await post(this.lobby, `/games/tictactoe/${matchID}/join`, { playerID, playerName: `p${playerID}` }))
            .playerCredentials,
        );
    } else {
      // unique on this server across jobs (a reused ID would join a match already played)
      matchID = `j${jobs}-m${this.slot}-${this.n++}`;
    }
    this.states = [null, null];
    this.waiters = [null, null];
    if (this.clients.length > 0) {
      // the kept clients move to the new match: its first synced state is state 0
      this.clients.forEach((c, i) => {
        c.updateMatchID(matchID);
        c.updateCredentials(credentials[i]);
      });
      await Promise.all([0, 1].map((i) => this.synced(i, (st) => st.isConnected !== false && st._stateID === 0)));
    } else {
      this.clients = ['0', '1'].map((playerID, i) =>
        Client({
          game: bgioGame,
          numPlayers: 2,
          matchID,
          playerID,
          credentials: credentials[i],
          debug: false,
          multiplayer: SocketIO({
            server: this.base,
            ...(this.transport === 'websocket' ? { socketOpts: { transports: ['websocket'] } } : {}),
          }),
        }),
      );
      this.clients.forEach((c, i) =>
        c.subscribe((st) => {
          if (!st) return;
          this.states[i] = st;
          this.waiters[i]?.(st);
        }),
      );
      for (const c of this.clients) c.start();
      await Promise.all([
        this.synced(0, (st) => st.isConnected !== false && st._stateID >= 0),
        this.synced(1, (st) => st.isConnected !== false && st._stateID >= 0),
      ]);
    }
    this.free = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    this.stateId = 0;
    this.over = false;
  }

  async ready(): Promise<void> {
    if (this.over) await this.fresh();
    // both seats have seen the last move: the one to move (its client refuses a move on a stale
    // state), and seat 0, whose state says whose turn it is
    await this.synced(0, (st) => st._stateID >= this.stateId);
    await this.synced(1, (st) => st._stateID >= this.stateId);
  }

  async move(): Promise<void> {
    const p = Number(this.states[0].ctx.currentPlayer);
    const cell = this.free.splice(this.rnd.int(this.free.length), 1)[0];
    const before = this.states[p]._stateID;
    // done when the turn has passed (boardgame.io sends the move, then the turn's end)
    const done = (x: any) => x._stateID > before && (x.ctx.gameover !== undefined || x.ctx.currentPlayer !== String(p));
    const next = this.synced(p, done);
    this.clients[p].moves.mark(cell);
    const st = await next;
    this.stateId = st._stateID;
    this.over = st.ctx.gameover !== undefined || this.free.length === 0;
  }

  close(): void {
    for (const c of this.clients) c.stop();
    this.clients = [];
  }
}

function player(job: LoadJob, i: number, seed: number): Player {
  const rnd = new SeededRandom(seed);
  if (job.kind === 'bgio')
    return new BgioPlayer(
      job.base,
      i,
      rnd,
      job.bgioTransport ?? 'websocket',
      job.bgioSetup ?? 'lobby',
      job.lobby ?? job.base,
      job.sockets === 'kept',
    );
  const keep = job.sockets === 'kept';
  if (job.game === 'ground') return new GroundPlayer(job.base, job.kind === 'arbiter-ws', rnd, keep);
  return new ArbiterPlayer(job.base, job.kind === 'arbiter-ws', rnd, keep);
}

const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - performance.now())));
const emit = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');

async function closedLoop(players: Player[], seconds: number, record: boolean, r: LoadResult): Promise<void> {
  const end = performance.now() + seconds * 1000;
  // the window closes here: the reporter reads the server's CPU time now, not when the last slot returns
  if (record) setTimeout(() => emit({ event: 'stop' }), seconds * 1000);
  // a slot stuck on a lost answer must not hang the run: after a grace period, report what was answered
  let grace: NodeJS.Timeout | undefined;
  const stuck = new Promise<void>((ok) => (grace = setTimeout(ok, seconds * 1000 + 20_000)));
  const all = Promise.all(
    players.map(async (p) => {
      try {
        while (performance.now() < end) {
          await p.ready();
          const t = performance.now();
          await p.move();
          const done = performance.now();
          // an answer after the window closed is not counted (the window's CPU reading is taken at its end)
          if (record && done < end) {
            r.actions++;
            r.lat.push(done - t);
          }
        }
      } catch (err) {
        if (r.errors.length < 5) r.errors.push(String(err).slice(0, 200));
      }
    }),
  );
  await Promise.race([all, stuck]);
  clearTimeout(grace);
}

async function openLoop(players: Player[], job: LoadJob, r: LoadResult): Promise<void> {
  const t0 = performance.now() + 200;
  const end = t0 + job.seconds * 1000;
  let outstanding = 0;
  await Promise.race([
    Promise.all(
      players.map(async (p, i) => {
        try {
          // spread the matches' schedules evenly over one pace interval
          let prep: Promise<void> = Promise.resolve();
          for (let at = t0 + (i * job.paceMs) / players.length; at < end; at += job.paceMs) {
            await sleepUntil(at);
            outstanding++;
            await prep;
            await p.move();
            r.lat.push(performance.now() - at);
            r.actions++;
            outstanding--;
            // get the next move ready at once (a new match, the opponent seeing this move): any of it
            // still unfinished at the next scheduled moment counts in that action's latency
            prep = p.ready();
            prep.catch(() => {});
          }
        } catch (err) {
          if (r.errors.length < 5) r.errors.push(String(err).slice(0, 200));
        }
      }),
    ),
    // late answers get a grace period; what is still missing then is reported as unanswered
    new Promise((ok) => setTimeout(ok, job.seconds * 1000 + 10_000)),
  ]);
  emit({ event: 'stop' });
  r.unanswered = outstanding;
}

let jobs = 0;

async function runJob(job: LoadJob): Promise<LoadResult> {
  jobs++;
  const r: LoadResult = { event: 'end', actions: 0, unanswered: 0, wallS: 0, lat: [], clientCpuS: 0, errors: [] };
  // a warm-up, not counted: a server's first seconds go largely to compiling its hot code (V8's
  // compiler threads count as its CPU), and a short warm-up measured that instead of the steady state
  const off = job.offset ?? 0;
  const warm = Array.from({ length: Math.min(job.matches, 50) }, (_, i) =>
    player(job, 1_000_000 + off + i, 1000 + off + i),
  );
  await closedLoop(warm, job.warmupS ?? 3, false, r);
  for (const p of warm) p.close();
  r.errors = [];
  const players = Array.from({ length: job.matches }, (_, i) => player(job, off + i, off + i + 1));
  if (job.paceMs > 0) {
    // every match open before the schedule starts
    for (let i = 0; i < players.length; i += 25) await Promise.all(players.slice(i, i + 25).map((p) => p.ready()));
  }
  if (job.sync) {
    emit({ event: 'ready' });
    await lines.next();
  }
  const c0 = process.cpuUsage();
  emit({ event: 'start' });
  if (job.paceMs > 0) await openLoop(players, job, r);
  else await closedLoop(players, job.seconds, true, r);
  r.wallS = job.seconds;
  const c = process.cpuUsage(c0);
  r.clientCpuS = (c.user + c.system) / 1e6;
  for (const p of players) p.close();
  return r;
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
for (let l = await lines.next(); !l.done; l = await lines.next()) {
  if (!l.value.trim()) continue;
  const job = JSON.parse(l.value) as LoadJob;
  agent = job.httpConnections === 'fresh' ? freshEach : keptAlive;
  emit(await runJob(job));
}
process.exit(0);
