// The HTTP and WebSocket edge: fastify routes over the match service. Bodies are parsed by the zod
// schemas of schemas.ts; every refusal is `{ok:false, error:{code, reason, detail}}` with the drive
// protocol's codes and a 4xx status; no stack trace ever leaves the server.

import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Socket } from 'node:net';
import websocket from '@fastify/websocket';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import {
  ArbiterError,
  assertNoPrototypeKeys,
  isPlainJson,
  type ErrorCode,
  type Json,
  type JsonObject,
  type RulesetPackage,
  type Seat,
} from '@arbiter/engine/kernel';
import { actionSchemasInTurns, type ActionSchemas } from '../runners/schema.ts';
import { BUILTIN_AGENTS } from '@arbiter/engine/agents';
import type { MatchService } from './service.ts';
import { sha256 } from './auth.ts';
import { DomainError, type DomainCode } from './errors.ts';
import type { LiveMatch } from './live.ts';
import { REMOTE_CLOSE, type RemoteTransport } from './remote.ts';
import {
  AccessQuery,
  ListQuery,
  openApi,
  parseActBody,
  parseClientFrame,
  parseCreateBody,
  parseJoinBody,
} from './schemas.ts';
import { refuseNul } from './nul.ts';
import { fullLog, partialLog } from './log.ts';
import { MALFORMED_AUTH, parseAuthorization, refuseDeep } from './edge.ts';
import { delayedSender, delayedSnapshot } from './watch.ts';
import { DEFAULT_EXPIRE_AFTER_MS, expired, refuseExpiredJoin } from './expiry.ts';
import { episodeRoutes } from './episode-routes.ts';
import { Budgets } from './budget.ts';
import { answerDirectly, type Answer, type Route } from './direct.ts';

export interface AppOptions {
  service: MatchService;
  /** Largest request body (and WebSocket message) in bytes. */
  bodyLimit?: number;
  /** Requests per minute per token (or per address without one). */
  rateLimit?: number;
  /** pino logging: false for none. */
  logger?: boolean | { level: string };
  /** One log line per request (default true); warnings and errors are logged either way. */
  requestLog?: boolean;
  /** Folder of the built web page (issue 14) served at `/`; nothing is served when it has no index.html. */
  webRoot?: string;
  /** Unfinished matches unchanged this long have expired (src/server/expiry.ts); 0: never. */
  expireAfterMs?: number;
}

/** The code of a refusal for going over a rate budget (its own, so clients can back off on it). */
const THROTTLED = 'too_many_requests';

/** The status of each protocol error code thrown without a domain code (rules, schemas, the kernel). */
const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  bad_config: 400,
  not_found: 404,
  illegal: 422,
  out_of_turn: 409,
  game_over: 409,
  corrupt_log: 500,
  too_large: 413,
};

/**
 * The status of each domain refusal: the one place the server's domain meets HTTP. A seat token
 * that is missing or wrong is 401; a seat, match or key that changed under the caller is 409; a
 * match that cannot take changes now (broken history, draining server) is 503.
 */
export const DOMAIN_STATUS: Record<DomainCode, number> = {
  token_required: 401,
  token_unknown: 401,
  malformed_auth: 401,
  spectate_password: 401,
  spectate_closed: 401,
  spectator_acts: 401,
  no_open_seat: 409,
  seat_not_open: 409,
  seat_taken: 409,
  seat_connected: 409,
  match_over: 409,
  match_expired: 409,
  match_waiting: 409,
  match_moved_on: 409,
  idempotency_conflict: 409,
  match_broken: 503,
  shutting_down: 503,
  too_deep: 400,
  transcript_withheld: 403,
};

type Fail = { status: number; body: { ok: false; error: { code: string; reason: string; detail?: Json } } };

/** Turn anything thrown into a typed answer; unknown errors become a bare 500. */
function failure(err: unknown): Fail {
  if (err instanceof ArbiterError) {
    const status = err instanceof DomainError ? DOMAIN_STATUS[err.domain] : (STATUS[err.code] ?? 400);
    const error: Fail['body']['error'] = { code: err.code, reason: err.message };
    if (err.detail !== undefined) error.detail = err.detail;
    return { status, body: { ok: false, error } };
  }
  if (err instanceof z.ZodError) {
    const detail = err.issues.slice(0, 10).map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
    return {
      status: 400,
      body: {
        ok: false,
        error: { code: 'bad_request', reason: 'the request does not have the expected shape', detail },
      },
    };
  }
  const e = err as { statusCode?: number; code?: string; message?: string };
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    // fastify's own refusals: unparsable JSON, body too large, wrong content type, rate limit ...
    const reason =
      e.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'the request body is too large'
        : e.statusCode === 429
          ? 'too many requests; slow down'
          : e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'send the body as application/json'
            : 'the request body is not valid JSON (or holds a forbidden key)';
    const code = e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'too_large' : 'bad_request';
    return {
      status: e.statusCode,
      body: { ok: false, error: { code, reason, detail: { kind: String(e.code ?? 'http') } } },
    };
  }
  return { status: 500, body: { ok: false, error: { code: 'internal', reason: 'internal error' } } };
}

/** The request's bearer token; a malformed Authorization header is a 401, never "no token". */
function bearer(req: FastifyRequest): string | undefined {
  const t = parseAuthorization(req.headers.authorization);
  if (t === null) throw new DomainError('malformed_auth', MALFORMED_AUTH);
  return t;
}

/** sha256 of a request's token, computed once: the rate limiter's key and the seat lookup share it. */
const digests = new WeakMap<FastifyRequest, { token: string; hash: string }>();
function tokenHash(req: FastifyRequest, token: string | undefined): string | undefined {
  if (!token) return undefined;
  const d = digests.get(req);
  if (d && d.token === token) return d.hash;
  const hash = sha256(token);
  digests.set(req, { token, hash });
  return hash;
}

/** The bearer token of a request and its hash. */
function caller(req: FastifyRequest): [token: string | undefined, hash: string | undefined] {
  const t = bearer(req);
  return [t, tokenHash(req, t)];
}

const ipKey = (ip: string) => 'a:' + ip;
const addressKey = (req: FastifyRequest) => ipKey(req.ip);
const seatKey = (hash: string) => 't:' + hash.slice(0, 32);

/**
 * Whose budget a request counts against: the seat token it carries when that token holds a seat in
 * the match the path names, else its address. A token nobody was given (a fresh random one per
 * request) is only an address, so it buys no budget of its own.
 */
function budgetKey(
  svc: MatchService,
  token: string | null | undefined,
  id: unknown,
  ip: string,
  hashOf: (token: string) => string,
): string {
  if (!token || typeof id !== 'string') return ipKey(ip);
  const hash = hashOf(token);
  return svc.holdsSeat(id, hash) ? seatKey(hash) : ipKey(ip);
}

function limitKey(svc: MatchService, req: FastifyRequest): string {
  const q = (req.query as { token?: unknown }) ?? {};
  const t = parseAuthorization(req.headers.authorization) ?? (typeof q.token === 'string' ? q.token : undefined);
  return budgetKey(svc, t, (req.params as { id?: unknown } | undefined)?.id, req.ip, (tk) => tokenHash(req, tk)!);
}

function spectatePassword(req: FastifyRequest, q: { password?: string }): string | undefined {
  const h = req.headers['x-spectate-password'];
  return typeof h === 'string' ? h : q.password;
}

function rulesetSummary(p: RulesetPackage): JsonObject {
  const rs = p.ruleset;
  return {
    id: rs.id,
    version: rs.version,
    title: rs.title,
    rules: rs.catalog.rules.length,
    uItems: rs.catalog.uItems.length,
    gameType: p.gameType as unknown as Json,
    agents: [
      { name: 'random', description: 'uniform over the menu', reads: 'view' },
      { name: 'first', description: 'always the first menu element', reads: 'view' },
      ...Object.entries(p.agents)
        .filter(([n]) => !(n in BUILTIN_AGENTS))
        .map(([name, a]) => ({ name, description: a.description, reads: a.reads })),
    ],
  };
}

/**
 * The log line of an answered request, for fastify's routes and the direct path alike: `req` goes
 * through the logger's serializer (method, path without its query, address), so no token or
 * password is written.
 */
function logAnswered(
  log: FastifyBaseLogger,
  req: { method?: string; url?: string; ip?: string },
  status: number,
  ms: number,
  reqId?: string,
): void {
  const line = { req, res: { statusCode: status }, responseTime: ms };
  log.info(reqId === undefined ? line : { reqId, ...line }, 'request completed');
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const svc = opts.service;
  // one sequence of request ids for fastify's requests and the direct path's
  let requestCount = 0;
  const nextRequestId = () => `req-${(++requestCount).toString(36)}`;
  const bodyLimit = opts.bodyLimit ?? 64 * 1024;
  const app = Fastify({
    bodyLimit,
    // JSON.parse with __proto__ / constructor keys refused (fastify's secure-json-parse)
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    forceCloseConnections: 'idle',
    // fastify's own request logging writes two lines per request; the one line per answered request
    // is ours (the onResponse hook below, and the direct path's)
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: nextRequestId,
    // --quiet: no line per request; warnings and 500s are still logged, and with no pino child
    // logger per request they go out without a request id
    ...(opts.requestLog === false ? { childLoggerFactory: (logger) => logger } : {}),
    logger:
      opts.logger === false
        ? false
        : {
            level: opts.logger === true || opts.logger === undefined ? 'info' : opts.logger.level,
            // tokens and passwords travel in query strings (WebSocket) and headers: log neither
            serializers: {
              req: (req: { method: string; url: string; ip?: string }) => ({
                method: req.method,
                url: req.url.split('?')[0],
                remote: req.ip,
              }),
            },
          },
  });

  // requests spend the budget of limitKey's key (src/server/budget.ts): every request, the
  // WebSocket upgrade included, before anything reads it
  const requests = new Budgets(opts.rateLimit ?? 1200);
  const throttled = (): Answer => ({
    status: 429,
    headers: { 'retry-after': String(requests.retryAfter()) },
    body: {
      ok: false,
      error: {
        code: THROTTLED,
        reason: `too many requests (limit ${requests.max} per minute); retry in ${requests.retryAfter()} s`,
      },
    },
  });
  // the line per request, once it is answered (logAnswered)
  const requestLog = opts.requestLog !== false && opts.logger !== false;
  if (requestLog)
    app.addHook('onResponse', (req, reply, done) => {
      // the request's child logger carries its id
      logAnswered(req.log, req, reply.statusCode, reply.elapsedTime);
      done();
    });
  app.addHook('onRequest', (req, reply, done) => {
    if (requests.spend(limitKey(svc, req))) return done();
    const a = throttled();
    void reply.status(a.status).headers(a.headers!).send(a.body);
  });
  await app.register(websocket, {
    options: { maxPayload: bodyLimit },
    // on drain every match socket hears why it closes: 1001 (going away), as documented
    preClose(done) {
      for (const c of app.websocketServer.clients) c.close(1001, 'server shutting down');
      app.websocketServer.close(() => done());
    },
  });
  const isDraining = drainConnections(app);
  // WebSocket messages (an `act` is a submission like a POST) get the same budget per minute as
  // requests, counted per connection's token (or address) apart from the requests; every count
  // starts again each minute
  const messages = new Budgets(opts.rateLimit ?? 1200);
  const messageBudget = messages.max;
  const spendMessage = (key: string): boolean => messages.spend(key);
  // every parsed body, before any route reads it
  const checkBody = (body: unknown) => {
    if (body !== undefined) {
      refuseDeep(body);
      refuseNul(body);
    }
  };
  app.addHook('preValidation', (req, _reply, done) => {
    try {
      checkBody(req.body);
      done();
    } catch (err) {
      done(err as Error);
    }
  });

  app.setErrorHandler((err, req, reply) => {
    const f = failure(err);
    if (f.status >= 500) req.log.error({ err }, 'request failed');
    return reply.status(f.status).send(f.body);
  });
  const web = opts.webRoot && existsSync(join(opts.webRoot, 'index.html')) ? opts.webRoot : null;
  if (web) {
    // the single-page app: its files, and index.html for its own routes (deep links)
    await app.register(fastifyStatic, {
      root: web,
      prefix: '/',
      index: ['index.html'],
      wildcard: true,
      dotfiles: 'deny',
    });
  } else {
    app.get('/', async (_req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><title>Arbiter</title><h1>Arbiter match server</h1><p>The web page is not built (no web/dist/index.html). The API is described at <a href="/api/openapi.json">/api/openapi.json</a>; see docs/server.md.</p>\n',
        ),
    );
  }
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    if (web && req.method === 'GET' && !path.startsWith('/api/') && !path.includes('.'))
      return reply.sendFile('index.html');
    return reply
      .status(404)
      .send({ ok: false, error: { code: 'not_found', reason: `no route ${req.method} ${path}` } });
  });

  const match = async (req: FastifyRequest): Promise<LiveMatch> => svc.mustGet((req.params as { id: string }).id);

  // answered only after a query reached the store (PostgreSQL: and while this server hears the others)
  app.get('/api/health', async (_req, reply) => {
    const h = await svc.store.health();
    const body: JsonObject = { ok: h.ok, store: svc.store.kind, storeOk: h.ok, matches: svc.liveCount() };
    if (h.listening !== undefined) body.listening = h.listening;
    if (h.problem !== undefined) body.problem = h.problem;
    return reply.status(h.ok ? 200 : 503).send(body);
  });
  app.get('/api/openapi.json', async () => openApi());

  app.get('/api/rulesets', async () => svc.packages.map((p) => rulesetSummary(p)));
  app.get('/api/rulesets/:id', async (req) => {
    const p = svc.pkg((req.params as { id: string }).id);
    const rs = p.ruleset;
    return {
      ...rulesetSummary(p),
      catalog: rs.catalog,
      configSchema: rs.configSchema ?? null,
      defaultConfig: rs.defaultConfig,
      presets: p.presets,
    };
  });

  // the public rules page (markdown), as `arbiter rules ID` prints it; the web page renders it
  app.get('/api/rulesets/:id/rules', async (req, reply) =>
    reply.type('text/markdown; charset=utf-8').send(svc.pkg((req.params as { id: string }).id).rulesPage()),
  );

  // the JSON Schema of every action family (what `arbiter schema RULESET` prints), for generated forms:
  // the ruleset's declared schemas (a ruleset without them has them derived from a few random games,
  // once, kept); the web page reads the live menu's templates first and asks here only without them
  const schemas = new Map<string, Promise<ActionSchemas>>();
  app.get('/api/rulesets/:id/actions', async (req) => {
    const p = svc.pkg((req.params as { id: string }).id);
    let s = schemas.get(p.ruleset.id);
    if (!s) {
      s = actionSchemasInTurns(p.ruleset);
      schemas.set(p.ruleset.id, s);
      const id = p.ruleset.id;
      s.catch(() => schemas.delete(id));
    }
    return s;
  });

  const expireAfterMs = opts.expireAfterMs ?? DEFAULT_EXPIRE_AFTER_MS;
  // the two set-up routes, each one implementation: fastify's route and the direct path
  // (src/server/direct.ts) both call it
  const createRoute: Route = async (_params, raw) => {
    const body = parseCreateBody(raw);
    const m = await svc.create({ ...body, config: body.config as JsonObject | undefined });
    return { status: 201, body: svc.publicRecord(m) };
  };
  const joinRoute: Route = async (params, raw) => {
    const m = await svc.mustGet(params.id);
    const body = parseJoinBody(raw);
    // the fields the expiry reads, not the whole public record (every join of a match)
    refuseExpiredJoin({ status: m.status, updatedAt: m.row.updatedAt }, Date.now(), expireAfterMs);
    const r = await svc.join(m, body.seat, body.name);
    return { status: 201, body: { match: m.id, seat: r.seat, token: r.token } };
  };
  const answer = (route: Route) => async (req: FastifyRequest, reply: FastifyReply) => {
    const a = await route(req.params as Record<string, string>, req.body);
    return reply.status(a.status).send(a.body);
  };
  app.post('/api/matches', answer(createRoute));

  app.get('/api/matches', async (req) => {
    const { expired: include, ...q } = ListQuery.parse(req.query ?? {});
    const now = Date.now();
    const list = await svc.list(q);
    return include === 'include' ? list : list.filter((r) => !expired(r, now, expireAfterMs));
  });

  app.get('/api/matches/:id', async (req) => svc.publicRecord(await match(req)));

  // live episodes: the line-ups offered, and each seat's transcript (src/server/episodes.ts)
  episodeRoutes(app, svc, (req, m) => {
    const [token, hash] = caller(req);
    return svc.audience(m, token, spectatePassword(req, req.query as { password?: string }), hash);
  });

  app.post('/api/matches/:id/join', answer(joinRoute));

  // the plain create and join requests skip fastify (with the same log line per request)
  {
    const parser = app.getDefaultJsonParser('error', 'error');
    answerDirectly({
      server: app.server,
      bodyLimit,
      create: createRoute,
      join: joinRoute,
      budget: (authorization, id, ip) => {
        const t = parseAuthorization(authorization);
        // a malformed header counts as its address here; the route itself does not read it
        return requests.spend(budgetKey(svc, t, id, ip, sha256)) ? null : throttled();
      },
      parseJson: (text) => {
        let value: unknown;
        let fail: unknown = null;
        parser(undefined as never, text, (err: unknown, v: unknown) => {
          fail = err;
          value = v;
        });
        if (fail) throw fail;
        return value;
      },
      check: checkBody,
      failure: (err, reqId) => {
        const f = failure(err);
        if (f.status >= 500) app.log.error(requestLog ? { reqId, err } : { err }, 'request failed');
        return f;
      },
      draining: isDraining,
      log: requestLog
        ? {
            requestId: nextRequestId,
            answered: (reqId, req, status, ms) =>
              logAnswered(
                app.log,
                { method: req.method, url: req.url, ip: req.socket.remoteAddress },
                status,
                ms,
                reqId,
              ),
          }
        : null,
    });
  }

  app.get('/api/matches/:id/view', async (req) => {
    const m = await match(req);
    const q = AccessQuery.parse(req.query ?? {});
    const [token, hash] = caller(req);
    const who = await svc.audience(m, token, spectatePassword(req, q), hash);
    return 'delay' in who && who.delay ? delayedSnapshot(svc.store, m, who.delay) : svc.snapshot(m, who.seat);
  });

  app.get('/api/matches/:id/pending', async (req) => {
    const m = await match(req);
    const q = AccessQuery.parse(req.query ?? {});
    const [token, hash] = caller(req);
    const who = await svc.audience(m, token, spectatePassword(req, q), hash);
    const snap =
      'delay' in who && who.delay ? await delayedSnapshot(svc.store, m, who.delay) : svc.snapshot(m, who.seat);
    return { pending: snap.pending, yours: snap.yours };
  });

  app.get('/api/matches/:id/menu', async (req) => {
    const m = await match(req);
    const { seat } = await svc.seatOf(m, ...caller(req));
    return { seat, menu: svc.snapshot(m, seat).menu ?? { actions: [] } };
  });

  app.post('/api/matches/:id/actions', async (req) => {
    const m = await match(req);
    const { seat } = await svc.seatOf(m, ...caller(req));
    const body = parseActBody(req.body);
    const header = req.headers['idempotency-key'];
    // refused like the same key in the body: a key silently dropped would judge a retry again
    if (typeof header === 'string' && header.length > 128)
      throw new ArbiterError('bad_request', 'the Idempotency-Key header is longer than 128 characters', {
        limit: 128,
      });
    const key = body.idempotencyKey ?? (typeof header === 'string' && header.length > 0 ? header : null);
    const r = await svc.submit(m, seat, body.action, key);
    return { ok: true, seq: r.seq, events: r.events, outcome: r.outcome ?? null, replayed: r.replayed };
  });

  app.post('/api/matches/:id/leave', async (req) => {
    const m = await match(req);
    return svc.leave(m, bearer(req));
  });

  app.get('/api/matches/:id/log', async (req, reply) => {
    const m = await match(req);
    const q = AccessQuery.parse(req.query ?? {});
    const [token, hash] = caller(req);
    const who = await svc.audience(m, token, spectatePassword(req, q), hash);
    let subs = await svc.submissions(m);
    if ('delay' in who && who.delay && m.status !== 'finished') {
      // as far as the delay lets this spectator see
      const seen = (await delayedSnapshot(svc.store, m, who.delay)).seq as number;
      subs = subs.filter((x) => x.seq <= seen);
    }
    const lines = m.status === 'finished' ? fullLog(m, subs) : partialLog(m, subs, who.seat);
    return reply.type('application/x-ndjson').send(lines.join('\n') + '\n');
  });

  app.get('/api/matches/:id/ws', { websocket: true }, (socket: WebSocket, req: FastifyRequest) => {
    // an upgrade has no onResponse: its line says the socket opened (a refusal that follows is a
    // frame and a close code, not a status)
    if (requestLog) req.log.info({ req, res: { statusCode: 101 } }, 'websocket opened');
    if ((req.query as { protocol?: unknown })?.protocol !== undefined) {
      agentSocket(svc, socket, req, match, spendMessage, messageBudget);
      return;
    }
    const fail = (err: unknown, id?: Json) => {
      const f = failure(err);
      const frame: JsonObject = { type: 'error', code: f.body.error.code, reason: f.body.error.reason };
      if (f.body.error.detail !== undefined) frame.detail = f.body.error.detail;
      if (id !== undefined) frame.id = id;
      return frame;
    };
    const send = (frame: JsonObject) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
    };
    // What the socket follows: a match, and a seat or none (a spectator). A `switch` frame replaces
    // it; messages wait for the binding made before them, so an action sent after a switch is judged
    // in the new match.
    // Messages spend the budget of the seat the socket follows (its token's), or the address's for a
    // spectator; a switch moves the socket to the new seat's budget once it is answered.
    let budgetKey = addressKey(req);
    type Binding = { m: LiveMatch; seat: Seat | null; unsubscribe: () => void; key: string };
    const bind = async (
      m: LiveMatch,
      token: string | undefined,
      password: string | undefined,
      hash?: string,
      answers?: Json,
    ): Promise<Binding> => {
      const who = await svc.audience(m, token, password, hash);
      let unsubscribe: () => void;
      let first: JsonObject;
      if ('delay' in who && who.delay) {
        // a delayed spectator: frames of the match as it was, each change looked at through the delay
        first = { type: 'state', ...(await delayedSnapshot(svc.store, m, who.delay)) };
        const late = delayedSender(svc.store, m, who.delay, send, first.seq as number);
        const off = svc.subscribe(m, { seat: null, send: late.send });
        unsubscribe = () => {
          off();
          late.stop();
        };
      } else {
        unsubscribe = svc.subscribe(m, { seat: who.seat, send });
        first = { type: 'state', ...svc.snapshot(m, who.seat) };
      }
      // the state frame that answers a switch carries the switch's id
      if (answers !== undefined) first.id = answers;
      send(first);
      const key = who.seat !== null && token ? seatKey(hash ?? sha256(token)) : addressKey(req);
      budgetKey = key;
      return { m, seat: who.seat, unsubscribe, key };
    };
    let binding: Promise<Binding> = (async () => {
      const m = await match(req);
      const q = AccessQuery.parse(req.query ?? {});
      const token = q.token ?? bearer(req);
      return bind(m, token, spectatePassword(req, q), tokenHash(req, token));
    })();
    binding.catch((err) => {
      const f = failure(err);
      send(fail(err));
      socket.close(f.status === 401 ? 4401 : f.status === 404 ? 4404 : 4400, f.body.error.code);
    });
    socket.on('close', () => void binding.then((b) => b.unsubscribe()).catch(() => {}));
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      void (async () => {
        let msg: unknown;
        let text = '';
        try {
          text = isBinary ? '' : data.toString('utf8');
          msg = isBinary ? undefined : JSON.parse(text);
        } catch {
          msg = undefined;
        }
        // parsed JSON text, so any id it holds is JSON
        const id =
          msg !== null && typeof msg === 'object' && !Array.isArray(msg)
            ? ((msg as { id?: Json }).id ?? undefined)
            : undefined;
        if (!spendMessage(budgetKey)) {
          const over: JsonObject = {
            type: 'error',
            code: THROTTLED,
            reason: `too many messages (limit ${messageBudget} per minute); wait for the next minute`,
          };
          if (id !== undefined) over.id = id;
          send(over);
          return;
        }
        try {
          refuseDeep(msg);
          // refused as in a body (zod would drop the key and accept the rest)
          if (/__proto__|constructor|prototype/.test(text)) assertNoPrototypeKeys(msg, 'the message');
        } catch (err) {
          send(fail(err, id));
          return;
        }
        if (msg === undefined || !isPlainJson(msg)) {
          send({ type: 'error', code: 'bad_request', reason: 'a message must be one JSON object' });
          return;
        }
        const parsed = parseClientFrame(msg);
        if (!parsed.success) {
          send(fail(parsed.error, id));
          return;
        }
        // JSON text can hold U+0000 only as the escape \u0000: most frames need no walk
        if (text.includes('u0000'))
          try {
            refuseNul(msg);
          } catch (err) {
            send(fail(err, id));
            return;
          }
        const f = parsed.data;
        if (f.type === 'ping') {
          send(f.id === undefined ? { type: 'pong' } : { type: 'pong', id: f.id });
          return;
        }
        if (f.type === 'switch') {
          const before = binding;
          binding = (async () => {
            // a socket whose first binding failed is closing: nothing to switch from, and this
            // binding fails the same way
            const old = await before;
            try {
              const next = await bind(
                await svc.mustGet(f.match),
                f.token,
                f.password,
                undefined,
                f.id as Json | undefined,
              );
              old.unsubscribe();
              return next;
            } catch (err) {
              // refused: the socket keeps following what it followed
              send(fail(err, f.id as Json | undefined));
              return old;
            }
          })();
          // the only failure is the first binding's, already answered and closing the socket; the
          // actions that await this binding catch it themselves (left unhandled, it ended the process)
          binding.catch(() => {});
          return;
        }
        // the state frame this change pushes to the actor's own socket and the ack leave in one
        // write (one syscall instead of two); frames queued meanwhile wait at most for this answer
        const raw = req.raw.socket;
        raw.cork();
        try {
          const { m, seat } = await binding;
          if (seat === null)
            throw new DomainError('spectator_acts', 'spectators cannot act; connect with a seat token');
          const r = await svc.submit(m, seat, f.action, f.idempotencyKey ?? null);
          const ack: JsonObject = {
            type: 'ack',
            seq: r.seq,
            events: r.events,
            outcome: r.outcome ?? null,
            replayed: r.replayed,
          };
          if (f.id !== undefined) ack.id = f.id;
          send(ack);
        } catch (err) {
          send(fail(err, f.id as Json | undefined));
        } finally {
          raw.uncork();
        }
      })();
    });
  });

  return app;
}

/**
 * Drain without waiting out keep-alive: once closing starts, connections with no request in flight
 * are closed at once and again every 100 ms (one that finishes its request later, or was accepted
 * just before), answers carry `Connection: close`, and whatever is still open after 10 s is cut.
 */
function drainConnections(app: FastifyInstance): () => boolean {
  let draining = false;
  // requests in flight per connection (Node's own idle list misses a connection that has not sent
  // a request yet); upgraded connections belong to the WebSocket server, which closes them itself
  const busy = new Map<Socket, number>();
  const server = app.server;
  server.on('connection', (s: Socket) => {
    busy.set(s, 0);
    s.once('close', () => busy.delete(s));
  });
  server.on('upgrade', (req: { socket: Socket }) => busy.delete(req.socket));
  server.on('request', (req: { socket: Socket }, res: { once(e: 'close', f: () => void): void }) => {
    const s = req.socket;
    if (!busy.has(s)) return;
    busy.set(s, (busy.get(s) ?? 0) + 1);
    res.once('close', () => {
      if (busy.has(s)) busy.set(s, Math.max(0, (busy.get(s) ?? 1) - 1));
    });
  });
  const closeIdle = () => {
    for (const [s, n] of busy) if (n === 0) s.destroy();
  };
  // a callback hook, not an async one: no promise per answer
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('preClose', (done) => {
    draining = true;
    closeIdle();
    const every = setInterval(closeIdle, 100);
    const cut = setTimeout(() => server.closeAllConnections(), 10_000);
    every.unref();
    cut.unref();
    server.once('close', () => {
      clearInterval(every);
      clearTimeout(cut);
    });
    done();
  });
  return () => draining;
}

/** The WebSocket frame for a refusal, with the close code it is followed by. */
function refusal(err: unknown): { frame: JsonObject; close: number } {
  const f = failure(err);
  const frame: JsonObject = { type: 'error', code: f.body.error.code, reason: f.body.error.reason };
  if (f.body.error.detail !== undefined) frame.detail = f.body.error.detail;
  const close = f.status === 401 ? 4401 : f.status === 404 ? 4404 : f.status === 409 ? REMOTE_CLOSE.taken : 4400;
  return { frame, close };
}

/**
 * `?token=T&protocol=arbiter-agent/1`: the seat's holder plays it as an agent. The socket then carries
 * only the agent protocol's messages (no `state` frames): match_start, decision_request,
 * decision_result, match_end from the server; decision (and ping) from the agent.
 */
function agentSocket(
  svc: MatchService,
  socket: WebSocket,
  req: FastifyRequest,
  match: (req: FastifyRequest) => Promise<LiveMatch>,
  spend: (key: string) => boolean,
  budget: number,
): void {
  // the address's budget until the token is found to hold the seat, then the seat's
  let key = addressKey(req);
  const early: string[] = [];
  let transport: RemoteTransport | null = null;
  let closed = false;
  const onText = (text: string) => {
    // a ping is answered here; everything else goes to the transport, which the policy judges
    if (text.length < 64 && /^\s*\{\s*"type"\s*:\s*"ping"\s*\}\s*$/.test(text)) {
      if (socket.readyState === socket.OPEN) socket.send('{"type":"pong"}');
      return;
    }
    if (transport) transport.onMessage(text);
    else early.push(text);
  };
  // the same budget per minute as a match socket's messages: over it, a message is not read (the
  // agent hears why; an answer it carried is lost and the request runs into its deadline)
  socket.on('message', (data: Buffer) => {
    if (spend(key)) onText(data.toString('utf8'));
    else if (socket.readyState === socket.OPEN)
      socket.send(
        JSON.stringify({
          type: 'error',
          code: THROTTLED,
          reason: `too many messages (limit ${budget} per minute); this one was not read`,
        }),
      );
  });
  socket.on('error', (err: Error & { code?: string }) => {
    if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') transport?.onOversize();
  });
  socket.on('close', () => {
    closed = true;
  });
  void (async () => {
    const m = await match(req);
    const q = AccessQuery.parse(req.query ?? {});
    const token = q.token ?? bearer(req);
    if (!token) throw new DomainError('token_required', 'the agent protocol needs a seat token (?token=...)');
    const { seat, tokenHash: hash } = await svc.seatOf(m, token);
    key = seatKey(hash);
    if (closed) return;
    const t = svc.attachRemote(m, seat, {
      send: (text) => {
        if (socket.readyState === socket.OPEN) socket.send(text);
      },
      close: (code, reason) => socket.close(code, reason),
    });
    transport = t;
    socket.on('close', () => svc.detachRemote(m, seat, t));
    for (const text of early.splice(0)) t.onMessage(text);
  })().catch((err: unknown) => {
    const r = refusal(err);
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(r.frame));
    socket.close(r.close, String(r.frame.code));
  });
}
