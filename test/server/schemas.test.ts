// The hand-checked fast paths for action frames and action bodies accept exactly what the zod
// schemas accept, and give back the same value; what they do not take, zod answers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom } from '../../packages/engine/src/kernel/index.ts';
import {
  ActBody,
  ClientFrame,
  CreateBody,
  JoinBody,
  parseActBody,
  parseClientFrame,
  parseCreateBody,
  parseJoinBody,
} from '../../src/server/schemas.ts';

const long = 'k'.repeat(129);
const FRAMES: string[] = [
  '{"type":"act","id":1,"action":{"type":"mark","cell":4}}',
  '{"type":"act","action":{"type":"mark","cell":4}}',
  '{"type":"act","action":null}',
  '{"type":"act","action":[1,"x",{"a":[true,null]}],"id":{"n":[1,2]}}',
  '{"type":"act","action":{"type":"mark"},"idempotencyKey":"k-1"}',
  '{"type":"act","action":{"type":"mark"},"idempotencyKey":""}',
  `{"type":"act","action":{"type":"mark"},"idempotencyKey":"${long}"}`,
  `{"type":"act","action":{"type":"mark"},"idempotencyKey":"${long.slice(1)}"}`,
  '{"type":"act","action":{"type":"mark"},"idempotencyKey":7}',
  '{"type":"act","action":{"type":"mark"},"extra":1}',
  '{"type":"act","id":2}',
  '{"type":"ping"}',
  '{"type":"ping","id":3}',
  '{"type":"ping","action":{}}',
  '{"type":"nope","action":{}}',
  '{"action":{}}',
  '{"type":"act","action":{"__proto__":{"x":1},"type":"mark"}}',
  '{"type":"act","action":{"constructor":{"x":1},"type":"mark"}}',
  '{"type":"act","action":{"prototype":1}}',
  '{"type":"act","id":{"__proto__":1},"action":1}',
  '{"__proto__":{"type":"act"},"type":"act","action":1}',
  '[1,2]',
  '"act"',
  'null',
];

const BODIES: string[] = [
  '{"action":{"type":"mark","cell":4}}',
  '{"action":{"cell":4,"type":"mark"},"idempotencyKey":"abc"}',
  '{"action":null}',
  '{"action":[{"a":1},2]}',
  '{"action":1,"idempotencyKey":""}',
  `{"action":1,"idempotencyKey":"${long}"}`,
  '{"action":1,"idempotencyKey":null}',
  '{"action":1,"other":2}',
  '{"idempotencyKey":"k"}',
  '{}',
  '{"action":{"__proto__":{"a":1}}}',
  '{"action":{"constructor":{"prototype":{}}}}',
  '[]',
  '1',
  'null',
];

/** Random JSON values, some with the keys the fast paths must treat with care. */
function randomJson(rnd: SeededRandom, depth: number): unknown {
  const k = rnd.int(depth > 2 ? 4 : 7);
  if (k === 0) return rnd.int(100) - 50;
  if (k === 1) return ['x', '', 'type', '__proto__'][rnd.int(4)];
  if (k === 2) return rnd.int(2) === 0;
  if (k === 3) return null;
  if (k === 4) return Array.from({ length: rnd.int(3) }, () => randomJson(rnd, depth + 1));
  const keys = ['type', 'cell', 'action', 'id', 'idempotencyKey', '__proto__', 'constructor', 'a'];
  const parts: string[] = [];
  for (let i = rnd.int(4); i > 0; i--)
    parts.push(`${JSON.stringify(keys[rnd.int(keys.length)])}:${JSON.stringify(randomJson(rnd, depth + 1))}`);
  return JSON.parse(`{${parts.join(',')}}`);
}

function same(fast: { success: boolean; data?: unknown }, slow: { success: boolean; data?: unknown }, what: string) {
  assert.equal(fast.success, slow.success, `accepted the same: ${what}`);
  if (slow.success) assert.deepStrictEqual(fast.data, slow.data, `same value: ${what}`);
}

const attempt = (fn: () => unknown): { success: boolean; data?: unknown } => {
  try {
    return { success: true, data: fn() };
  } catch {
    return { success: false };
  }
};

test('[SRV-FAST-FRAME] an act frame is accepted by the fast path exactly when the zod schema accepts it', () => {
  for (const text of FRAMES) same(parseClientFrame(JSON.parse(text)), ClientFrame.safeParse(JSON.parse(text)), text);
  const rnd = new SeededRandom(7);
  for (let i = 0; i < 3000; i++) {
    const v = { type: rnd.int(5) === 0 ? 'ping' : 'act', ...(randomJson(rnd, 0) as object) };
    const text = JSON.stringify(v);
    same(parseClientFrame(JSON.parse(text)), ClientFrame.safeParse(JSON.parse(text)), text);
  }
});

test('[SRV-FAST-BODY] an action body is accepted by the fast path exactly when the zod schema accepts it', () => {
  for (const text of BODIES)
    same(
      attempt(() => parseActBody(JSON.parse(text))),
      attempt(() => ActBody.parse(JSON.parse(text))),
      text,
    );
  const rnd = new SeededRandom(8);
  for (let i = 0; i < 3000; i++) {
    const text = JSON.stringify(randomJson(rnd, 0));
    same(
      attempt(() => parseActBody(JSON.parse(text))),
      attempt(() => ActBody.parse(JSON.parse(text))),
      text,
    );
  }
});

// Values at and around every bound the join, create and switch schemas set, and of the wrong kinds.
const EDGE_VALUES: unknown[] = [
  '',
  'x',
  'é'.repeat(64),
  'n'.repeat(65),
  't'.repeat(256),
  't'.repeat(257),
  'p'.repeat(1024),
  'p'.repeat(1025),
  -1,
  0,
  -0,
  1,
  1.5,
  63,
  64,
  2 ** 32 - 1,
  2 ** 32,
  null,
  true,
  [],
  { a: 1 },
  { __proto__: 1 },
];

/** Random objects over `keys` (and a stray one), each value one of EDGE_VALUES, as JSON text. */
function edgeObject(rnd: SeededRandom, keys: string[], fixed: Record<string, unknown> = {}): string {
  const all = [...keys, 'extra', '__proto__'];
  const parts = Object.entries(fixed).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  for (let i = rnd.int(4); i > 0; i--) {
    const k = all[rnd.int(all.length)];
    const v = EDGE_VALUES[rnd.int(EDGE_VALUES.length)];
    // { __proto__: 1 } as a literal sets no key; JSON text with the key has it as an own key
    const text =
      typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0
        ? '{"__proto__":1}'
        : JSON.stringify(v);
    parts.push(`${JSON.stringify(k)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

test('[SRV-FAST-JOIN] a join body is accepted by the fast path exactly when the zod schema accepts it', () => {
  const rnd = new SeededRandom(9);
  const fixed = ['{"name":"x"}', '{"name":"x","seat":0}', '{"name":"x","seat":63}', '{"name":"x","seat":64}', '{}'];
  for (let i = 0; i < 4000; i++) {
    const text = i < fixed.length ? fixed[i] : edgeObject(rnd, ['name', 'seat']);
    same(
      attempt(() => parseJoinBody(JSON.parse(text))),
      attempt(() => JoinBody.parse(JSON.parse(text))),
      text,
    );
  }
});

test('[SRV-FAST-CREATE] a create body is accepted by the fast path exactly when the zod schema accepts it', () => {
  const rnd = new SeededRandom(10);
  const fixed = [
    '{"ruleset":"tictactoe"}',
    '{"ruleset":"tictactoe","seed":4294967295}',
    '{"ruleset":"tictactoe","seed":4294967296}',
  ];
  for (let i = 0; i < 4000; i++) {
    const text =
      i < fixed.length
        ? fixed[i]
        : edgeObject(rnd, ['ruleset', 'seed', 'config', 'seats'], rnd.int(2) ? { ruleset: 'tictactoe' } : {});
    same(
      attempt(() => parseCreateBody(JSON.parse(text))),
      attempt(() => CreateBody.parse(JSON.parse(text))),
      text,
    );
  }
});

test('[SRV-FAST-SWITCH] a switch frame is accepted by the fast path exactly when the zod schema accepts it', () => {
  const rnd = new SeededRandom(11);
  for (let i = 0; i < 4000; i++) {
    const text = edgeObject(rnd, ['match', 'token', 'password', 'id'], {
      type: 'switch',
      ...(rnd.int(2) ? { match: 'm1' } : {}),
    });
    same(parseClientFrame(JSON.parse(text)), ClientFrame.safeParse(JSON.parse(text)), text);
  }
});
