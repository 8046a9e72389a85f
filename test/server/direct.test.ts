// Issue 27 item 8: under --quiet the plain create and join requests are answered on node:http
// directly (src/server/direct.ts), and everything else by fastify, both through one implementation of
// each route. A request whose Content-Type is written `application/json;charset=utf-8` (no space) is
// one the direct path leaves to fastify, so each request below is sent both ways and must get the
// same answer: status, content type and body (ids and tokens aside), refusals included.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, tempDir, type ServerProc, serverForSuite } from './helpers.ts';

const DIRECT = 'application/json';
const FASTIFY = 'application/json;charset=utf-8';

async function post(srv: ServerProc, path: string, body: string, type: string, token?: string) {
  const headers: Record<string, string> = { 'content-type': type };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const r = await fetch(srv.api + path, { method: 'POST', headers, body });
  const text = await r.text();
  return { status: r.status, type: r.headers.get('content-type'), body: JSON.parse(text) };
}

/** An answer with what differs from one match or seat to the next taken out. */
function shape(a: { status: number; type: string | null; body: Record<string, unknown> }) {
  const { id, match, token, createdAt, updatedAt, ...rest } = a.body;
  return {
    status: a.status,
    type: a.type,
    body: rest,
    has: [id, match, token, createdAt, updatedAt].map((v) => v !== undefined),
  };
}

const CREATE_BODIES = [
  '{"ruleset":"tictactoe"}',
  '{"ruleset":"tictactoe","seed":7,"seats":[{},{"agent":"random"}]}',
  '{"ruleset":"tictactoe","seed":-1}',
  '{"ruleset":"nope"}',
  '{"ruleset":"tictactoe","__proto__":{"x":1}}',
  '{"ruleset":"tictactoe","constructor":{"prototype":{"x":1}}}',
  '',
  '{"ruleset":',
  '{"ruleset":"tic\\u0000tactoe"}',
  '['.repeat(80) + ']'.repeat(80),
  '"just a string"',
];

describe('the direct path for create and join', () => {
  const srv = serverForSuite('arbiter-direct-', ['--rate-limit', '100000']);

  test('[SRV-DIRECT] create answers the same on the direct path as through fastify, refusals included', async () => {
    for (const body of CREATE_BODIES) {
      const a = shape(await post(srv, '/matches', body, DIRECT));
      const b = shape(await post(srv, '/matches', body, FASTIFY));
      assert.deepEqual(a, b, `POST /matches ${body.slice(0, 60)}`);
    }
  });

  test('[SRV-DIRECT-JOIN] join answers the same on the direct path as through fastify, refusals included', async () => {
    const two = async () => [
      (await post(srv, '/matches', '{"ruleset":"tictactoe"}', DIRECT)).body.id as string,
      (await post(srv, '/matches', '{"ruleset":"tictactoe"}', DIRECT)).body.id as string,
    ];
    const [a, b] = await two();
    const steps = [
      '{"name":"x","seat":5}',
      '{}',
      '{"name":"x"}',
      '{"name":"y","seat":0}',
      '{"name":"o"}',
      '{"name":"z"}',
    ];
    for (const body of steps) {
      const x = shape(await post(srv, `/matches/${a}/join`, body, DIRECT));
      const y = shape(await post(srv, `/matches/${b}/join`, body, FASTIFY));
      assert.deepEqual(x, y, `POST /matches/:id/join ${body}`);
    }
    const x = shape(await post(srv, '/matches/0000000000000000/join', '{"name":"x"}', DIRECT));
    assert.equal(x.status, 404);
    assert.deepEqual(x, shape(await post(srv, '/matches/0000000000000000/join', '{"name":"x"}', FASTIFY)));
    // the seat really is taken: the match shows both seats held and running
    const m = await (await fetch(`${srv.api}/matches/${a}`)).json();
    assert.equal(m.status, 'running');
  });
});

describe('the direct path and the rate budget', () => {
  test('[SRV-DIRECT-BUDGET] direct and fastify requests spend one budget per address', async () => {
    const dir = tempDir('arbiter-direct-budget-');
    const srv = await startServer(join(dir, 'db.sqlite'), ['--rate-limit', '6']);
    try {
      const seen: number[] = [];
      for (let i = 0; i < 4; i++) {
        seen.push((await post(srv, '/matches', '{"ruleset":"tictactoe"}', i % 2 ? FASTIFY : DIRECT)).status);
      }
      seen.push((await fetch(`${srv.api}/rulesets`)).status);
      seen.push((await post(srv, '/matches', '{"ruleset":"tictactoe"}', DIRECT)).status);
      const over = await post(srv, '/matches', '{"ruleset":"tictactoe"}', DIRECT);
      const over2 = await post(srv, '/matches', '{"ruleset":"tictactoe"}', FASTIFY);
      assert.deepEqual(seen, [201, 201, 201, 201, 200, 201]);
      assert.equal(over.status, 429);
      assert.equal(over.body.error.code, 'too_many_requests');
      // the same refusal, but for the seconds to the next minute it names
      const unclocked = (a: typeof over) => JSON.stringify(shape(a)).replace(/retry in \d+ s/, 'retry in N s');
      assert.equal(unclocked(over), unclocked(over2));
    } finally {
      await srv.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
