// A small client typed by the types openapi-typescript generates from /api/openapi.json
// (fixtures/openapi/api.d.ts). It compiles with the rest of the project, so a change of the server's
// document that breaks what a generated client relies on breaks the type check; the OpenAPI test
// also plays a match through it against a real server.

import type { paths } from './fixtures/openapi/api.d.ts';

type Json<P extends keyof paths, M extends 'get' | 'post', S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer T } } };
}
  ? T
  : never;
type Body<P extends keyof paths> = paths[P]['post'] extends {
  requestBody: { content: { 'application/json': infer T } };
}
  ? T
  : never;

export type Health = Json<'/api/health', 'get', 200>;
export type MatchRecord = Json<'/api/matches', 'post', 201>;
export type Joined = Json<'/api/matches/{id}/join', 'post', 201>;
export type Accepted = Json<'/api/matches/{id}/actions', 'post', 200>;
export type Snapshot = Json<'/api/matches/{id}/view', 'get', 200>;
export type Refusal = Json<'/api/matches/{id}/actions', 'post', 422>;

export class TypedClient {
  constructor(private readonly api: string) {}

  private async send<T>(method: string, path: string, body?: unknown, token?: string): Promise<T | Refusal> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const r = await fetch(this.api + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await r.json()) as T | Refusal;
  }

  health(): Promise<Health | Refusal> {
    return this.send<Health>('GET', '/health');
  }

  create(body: Body<'/api/matches'>): Promise<MatchRecord | Refusal> {
    return this.send<MatchRecord>('POST', '/matches', body);
  }

  join(id: string, body: Body<'/api/matches/{id}/join'>): Promise<Joined | Refusal> {
    return this.send<Joined>('POST', `/matches/${id}/join`, body);
  }

  view(id: string, token: string): Promise<Snapshot | Refusal> {
    return this.send<Snapshot>('GET', `/matches/${id}/view`, undefined, token);
  }

  act(id: string, token: string, body: Body<'/api/matches/{id}/actions'>): Promise<Accepted | Refusal> {
    return this.send<Accepted>('POST', `/matches/${id}/actions`, body, token);
  }
}

export function refused(x: object): x is Refusal {
  return (x as { ok?: unknown }).ok === false;
}
