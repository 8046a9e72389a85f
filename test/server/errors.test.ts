// Issue 23 item 3: the match service is split into auth, live matches and store access, and none of
// them speaks HTTP. They throw DomainErrors named by a domain code; http.ts alone maps each code to
// a status, in one table. These tests hold both halves: every code has a status (and the status is
// what the refusal means), and no domain module reaches fastify, a socket library or the wire.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DOMAIN_CODES, DOMAIN_ERRORS, DomainError } from '../../src/server/errors.ts';
import { buildApp, DOMAIN_STATUS } from '../../src/server/http.ts';
import { MatchService } from '../../src/server/service.ts';
import { SqliteStore } from '../../src/server/store-sqlite.ts';
import { tempDir } from './helpers.ts';

const SERVER = resolve(import.meta.dirname, '../../src/server');

/** The modules of the server's domain: what a match is, who may touch it, and how it is stored. */
const DOMAIN = [
  'errors',
  'auth',
  'live',
  'records',
  'service',
  'watch',
  'expiry',
  'log',
  'nul',
  'remote',
  'store',
  'episodes',
];

/** What a domain module may not reach, directly or through another server module. */
const HTTP = [/^fastify$/, /^@fastify\//, /^ws$/, /^node:https?$/, /^node:net$/, /^zod$/];
const EDGE = ['http.ts', 'edge.ts', 'schemas.ts', 'serve.ts', 'episode-routes.ts'];

function importsOf(file: string): string[] {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  return [
    ...code.matchAll(/(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1] ?? m[2]);
}

test('[SRV-SPLIT-STATUS] every domain error code has one HTTP status, in the one table of http.ts', () => {
  assert.deepEqual(Object.keys(DOMAIN_STATUS).sort(), [...DOMAIN_CODES].sort(), 'the table names exactly the codes');
  for (const code of DOMAIN_CODES) {
    const status = DOMAIN_STATUS[code];
    assert.ok(Number.isInteger(status) && status >= 400 && status < 600, `${code}: ${status}`);
    const err = new DomainError(code, 'x');
    assert.equal(err.code, DOMAIN_ERRORS[code], `${code} goes on the wire as its protocol code`);
  }
  // what the statuses mean: who you are (401), what changed under you (409), the server's state (503)
  for (const c of ['token_required', 'token_unknown', 'malformed_auth', 'spectate_password'] as const)
    assert.equal(DOMAIN_STATUS[c], 401, c);
  for (const c of ['seat_taken', 'match_over', 'match_waiting', 'idempotency_conflict'] as const)
    assert.equal(DOMAIN_STATUS[c], 409, c);
  for (const c of ['match_broken', 'shutting_down'] as const) assert.equal(DOMAIN_STATUS[c], 503, c);
});

test('[SRV-SPLIT-LAYERS] no domain module imports fastify, a socket library or the HTTP edge, even indirectly', () => {
  for (const name of DOMAIN) {
    const seen = new Set<string>();
    const walk = (file: string, path: string[]) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of importsOf(file)) {
        const via = [...path, spec].join(' -> ');
        assert.ok(!HTTP.some((re) => re.test(spec)), `${name}.ts reaches ${via}`);
        if (!spec.startsWith('./')) continue;
        const target = join(dirname(file), spec);
        assert.ok(!EDGE.includes(spec.slice(2)), `${name}.ts reaches the HTTP edge: ${via}`);
        if (existsSync(target) && dirname(target) === SERVER) walk(target, [...path, spec]);
      }
    };
    walk(join(SERVER, `${name}.ts`), [`${name}.ts`]);
    assert.ok(seen.size > 0);
  }
  // nor does any of them pick a status: HttpError is gone and no domain source names one
  for (const name of DOMAIN) {
    const text = readFileSync(join(SERVER, `${name}.ts`), 'utf8');
    assert.doesNotMatch(text, /HttpError|statusCode|\breply\b/, `${name}.ts`);
  }
});

test('[SRV-SPLIT-STATUS] a refusal thrown by the service reaches the client with the status of its domain code', async () => {
  const dir = tempDir('arbiter-errors-');
  const store = new SqliteStore(join(dir, 'e.sqlite'));
  const service = new MatchService({ store });
  await service.start();
  const app = await buildApp({ service, logger: false });
  try {
    const created = await app.inject({ method: 'POST', url: '/api/matches', payload: { ruleset: 'tictactoe' } });
    const id = (created.json() as { id: string }).id;
    // no token: token_required; a made-up token: token_unknown; the match waits: match_waiting
    const cases: [string, string | undefined, number, string][] = [
      ['/actions', undefined, DOMAIN_STATUS.token_required, DOMAIN_ERRORS.token_required],
      ['/actions', 'Bearer nobody', DOMAIN_STATUS.token_unknown, DOMAIN_ERRORS.token_unknown],
    ];
    for (const [path, auth, status, code] of cases) {
      const r = await app.inject({
        method: 'POST',
        url: `/api/matches/${id}${path}`,
        payload: { action: { cell: 0 } },
        headers: auth ? { authorization: auth } : {},
      });
      assert.equal(r.statusCode, status, r.body);
      assert.equal((r.json() as { error: { code: string } }).error.code, code);
    }
    const joined = (
      await app.inject({ method: 'POST', url: `/api/matches/${id}/join`, payload: { name: 'x' } })
    ).json() as {
      token: string;
    };
    const r = await app.inject({
      method: 'POST',
      url: `/api/matches/${id}/actions`,
      payload: { action: { cell: 0 } },
      headers: { authorization: `Bearer ${joined.token}` },
    });
    assert.equal(r.statusCode, DOMAIN_STATUS.match_waiting, r.body);
    assert.equal((r.json() as { error: { code: string } }).error.code, DOMAIN_ERRORS.match_waiting);
  } finally {
    await app.close();
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
