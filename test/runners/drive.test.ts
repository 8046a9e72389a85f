import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { handleLine, type DriveState } from '../../src/cli/drive.ts';

type Resp = { id: unknown; ok: boolean; error?: { code: string; reason: string }; [k: string]: unknown };
const send = (ds: DriveState, req: unknown): Resp =>
  handleLine(ds, typeof req === 'string' ? req : JSON.stringify(req)) as Resp;

test('drive answers every op of the protocol for tictactoe', () => {
  const ds: DriveState = { session: null };
  const n = send(ds, { id: 1, op: 'new', ruleset: 'tictactoe', seed: 7, config: {} });
  assert.equal(n.ok, true);
  assert.deepEqual(n.pending, [{ seat: 0, kind: 'move' }]);
  assert.deepEqual(send(ds, { id: 2, op: 'pending' }).pending, [{ seat: 0, kind: 'move' }]);
  const legal = send(ds, { id: 3, op: 'legal', seat: 0 });
  assert.equal((legal.actions as unknown[]).length, 9);
  const a = send(ds, { id: 4, op: 'act', seat: 0, action: { type: 'mark', cell: 4 } });
  assert.equal(a.ok, true);
  assert.deepEqual(a.events, [{ type: 'marked', seat: 0, cell: 4 }]);
  assert.deepEqual(send(ds, { id: 5, op: 'view', seat: 0 }).view, { board: '....X....', turn: 1, result: -1 });
  assert.equal(send(ds, { id: 5.5, op: 'view', seat: null }).ok, true);
  assert.deepEqual((send(ds, { id: 6, op: 'state' }).state as { board: number[] }).board[4], 0);
  assert.equal(send(ds, { id: 7, op: 'outcome' }).outcome, null);
  const log = send(ds, { id: 8, op: 'log' }).log as Record<string, unknown>[];
  assert.equal(log[0].ruleset, 'tictactoe');
  assert.equal(log[1].result, 'accepted');
  assert.equal(log[log.length - 1].end, true);
  // ids are echoed, whatever their type
  assert.equal(send(ds, { id: 'abc', op: 'pending' }).id, 'abc');
});

test('drive: a rejected action answers with its typed code and changes nothing', () => {
  const ds: DriveState = { session: null };
  send(ds, { id: 1, op: 'new', ruleset: 'tictactoe' });
  send(ds, { id: 2, op: 'act', seat: 0, action: { type: 'mark', cell: 0 } });
  const before = JSON.stringify(send(ds, { id: 3, op: 'state' }).state);
  const r = send(ds, { id: 4, op: 'act', seat: 1, action: { type: 'mark', cell: 0 } });
  assert.equal(r.ok, false);
  assert.equal(r.error!.code, 'illegal');
  assert.equal(send(ds, { id: 5, op: 'act', seat: 0, action: { type: 'mark', cell: 1 } }).error!.code, 'out_of_turn');
  assert.equal(JSON.stringify(send(ds, { id: 6, op: 'state' }).state), before);
});

test('drive: garbage lines get bad_request and the driver keeps serving', () => {
  const ds: DriveState = { session: null };
  for (const line of [
    'not json',
    '[1,2]',
    '42',
    'null',
    '{"op":5}',
    '{"id":1}',
    '{"id":2,"op":"fly"}',
    '{"id":3,"op":"pending"}',
    '{"id":4,"op":"new"}',
    '{"id":5,"op":"new","ruleset":"nope"}',
    '{"id":6,"op":"new","ruleset":"tictactoe","seed":-3}',
    '{"id":7,"op":"new","ruleset":"tictactoe","config":7}',
  ]) {
    const r = send(ds, line);
    assert.equal(r.ok, false, line);
    assert.ok(['bad_request', 'not_found', 'bad_config'].includes(r.error!.code), `${line} → ${r.error!.code}`);
  }
  assert.equal(send(ds, { id: 9, op: 'new', ruleset: 'tictactoe' }).ok, true);
  for (const line of [
    '{"id":1,"op":"act","seat":0}',
    '{"id":1,"op":"act","action":{"type":"mark","cell":1}}',
    '{"id":1,"op":"legal","seat":9}',
    '{"id":1,"op":"view","seat":"x"}',
  ]) {
    assert.equal(send(ds, line).error!.code, 'bad_request', line);
  }
  fc.assert(
    fc.property(fc.string({ maxLength: 200 }), (line) => {
      const r = send(ds, line);
      return typeof r.ok === 'boolean' && (r.ok || typeof r.error?.code === 'string');
    }),
    { seed: 11, numRuns: 300 },
  );
  fc.assert(
    fc.property(
      fc.record(
        {
          id: fc.jsonValue(),
          op: fc.constantFrom('act', 'legal', 'view', 'new', 'pending'),
          seat: fc.jsonValue(),
          action: fc.jsonValue(),
          ruleset: fc.jsonValue(),
          config: fc.jsonValue(),
          seed: fc.jsonValue(),
        },
        { requiredKeys: ['op'] },
      ),
      (req) => {
        const r = send(ds, req);
        return typeof r.ok === 'boolean';
      },
    ),
    { seed: 12, numRuns: 300 },
  );
  assert.equal(send(ds, { id: 10, op: 'pending' }).ok, true);
});

test('drive plays every registered ruleset to the end using only its own answers', async () => {
  const { rulesetIds } = await import('../../packages/engine/src/registry.ts');
  for (const ruleset of rulesetIds()) {
    const ds: DriveState = { session: null };
    let pending = send(ds, { id: 0, op: 'new', ruleset, seed: 3 }).pending as { seat: number }[];
    let n = 0;
    while (pending.length > 0 && n < 5000) {
      const seat = pending[n % pending.length].seat;
      const view = send(ds, { id: n, op: 'view', seat });
      assert.equal(view.ok, true);
      const actions = send(ds, { id: n, op: 'legal', seat }).actions as unknown[];
      const r = send(ds, { id: n, op: 'act', seat, action: actions[(n * 7919) % actions.length] });
      assert.equal(r.ok, true, `${ruleset}: ${JSON.stringify(r.error)}`);
      pending = r.pending as { seat: number }[];
      n++;
    }
    const out = send(ds, { id: 'end', op: 'outcome' });
    assert.notEqual(out.outcome, null, `${ruleset} did not end in ${n} actions`);
    const log = send(ds, { id: 'log', op: 'log' }).log as { end?: boolean; outcome?: unknown }[];
    assert.deepEqual(log[log.length - 1].outcome, out.outcome);
  }
});
