// The hot set-up routes (create a match, join it) answered on node:http directly, without fastify's
// request and reply objects, routing, hooks and content-type machinery: under load a new match costs
// a create and two joins, one request per ~2.5 moves, and fastify's share of each was most of what a
// request costs beyond its socket.
//
// There is one implementation of each route (http.ts's `Route`s): fastify's route and this path both
// call it, with the same rate budget, the same JSON parser (fastify's own, with its prototype
// poisoning refusals), the same depth and NUL checks and the same typed refusals. This path takes
// only the plain shape of such a request (POST, `application/json`, a Content-Length within the body
// limit, no query string, the server not draining); anything else goes on to fastify, which answers
// it as before, so the unusual cases keep fastify's exact answers. Without --quiet it writes the same
// log line per request as fastify's routes (http.ts's onResponse hook), from the same request ids.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Json } from '@arbiter/engine/kernel';

/** A route's answer: status and JSON body. */
export interface Answer {
  status: number;
  body: Json | object;
  headers?: Record<string, string>;
}

/** One route's logic, shared by fastify's route and the direct path. */
export type Route = (params: Record<string, string>, body: unknown) => Promise<Answer>;

export interface DirectOptions {
  server: Server;
  bodyLimit: number;
  /** POST /api/matches */
  create: Route;
  /** POST /api/matches/:id/join */
  join: Route;
  /** Spends the request's rate budget: null when within it, else the refusal to send. */
  budget: (authorization: string | undefined, id: string | undefined, ip: string) => Answer | null;
  /** fastify's JSON body parser (prototype poisoning refused as fastify refuses it). */
  parseJson: (body: string) => unknown;
  /** The checks every parsed body passes before a route reads it (http.ts's preValidation). */
  check: (body: unknown) => void;
  /** Anything thrown, as a typed answer (logged when a 5xx, with the request's id when it has one). */
  failure: (err: unknown, reqId?: string) => Answer;
  /** Whether the server is draining (then fastify answers, with its `Connection: close`). */
  draining: () => boolean;
  /** The log line per request (fastify's request ids, written once the answer is sent), or null. */
  log: DirectLog | null;
}

export interface DirectLog {
  requestId: () => string;
  answered: (reqId: string, req: IncomingMessage, status: number, ms: number) => void;
}

const JOIN = /^\/api\/matches\/([A-Za-z0-9_-]{1,64})\/join$/;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Put the direct path in front of fastify's request handler, in its place among the server's
 * `request` listeners: the first one, given when fastify made the server (listeners added later,
 * such as the drain's count of requests in flight, still hear every request). Requests the direct
 * path does not take go to fastify unchanged.
 */
export function answerDirectly(o: DirectOptions): void {
  const [fastify, ...others] = o.server.listeners('request') as Listener[];
  o.server.removeAllListeners('request');
  o.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!take(o, req, res)) fastify(req, res);
  });
  for (const l of others) o.server.on('request', l);
}

/** Whether the request is one the direct path answers (and then it does). */
function take(o: DirectOptions, req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'POST') return false;
  const url = req.url ?? '';
  let route: Route;
  let id: string | undefined;
  if (url === '/api/matches') route = o.create;
  else {
    const m = JOIN.exec(url);
    if (!m) return false;
    route = o.join;
    id = m[1];
  }
  const h = req.headers;
  const type = h['content-type'];
  if (type !== 'application/json' && type !== 'application/json; charset=utf-8') return false;
  const length = h['content-length'];
  if (length === undefined || h['transfer-encoding'] !== undefined || !/^\d{1,9}$/.test(length)) return false;
  if (Number(length) > o.bodyLimit || o.draining()) return false;

  const log = o.log;
  const reqId = log ? log.requestId() : undefined;
  const began = log ? performance.now() : 0;
  const answer = (a: Answer) => {
    if (!send(o, res, a) || !log || reqId === undefined) return;
    log.answered(reqId, req, a.status, performance.now() - began);
  };
  // fastify spends the budget before it reads the body (its onRequest hook): so does this
  const over = o.budget(h.authorization, id, req.socket.remoteAddress ?? '');
  if (over) {
    // the body is left unread, as fastify leaves it; Node discards it
    answer(over);
    return true;
  }
  const chunks: Buffer[] = [];
  // a client that goes away mid-body: nothing to answer, and no unhandled 'error' on the request
  req.on('error', () => res.destroy());
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let body: unknown;
    try {
      body = o.parseJson(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8'));
      o.check(body);
    } catch (err) {
      answer(o.failure(err, reqId));
      return;
    }
    route(id === undefined ? {} : { id }, body).then(answer, (err: unknown) => answer(o.failure(err, reqId)));
  });
  return true;
}

/** Writes the answer; false when the client has gone (nothing is sent). */
function send(o: DirectOptions, res: ServerResponse, a: Answer): boolean {
  if (res.destroyed) return false;
  const text = JSON.stringify(a.body);
  const headers: Record<string, string | number> = {
    ...a.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  };
  // drain began while this request was in flight: the connection closes after it, as fastify's
  // onSend hook (http.ts) says for its own answers
  if (o.draining()) headers.connection = 'close';
  res.writeHead(a.status, headers);
  res.end(text);
  return true;
}
