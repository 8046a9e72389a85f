// The SQLite store's group commit: writes asked for in one event-loop turn share one transaction.
// The common batch takes no savepoints; a batch that meets a refused write is rolled back and run
// again with one savepoint per write, so only the refused write is undone.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteStore } from '../../src/server/store-sqlite.ts';
import type { MatchRow, SubmissionRow } from '../../src/server/store.ts';
import { tempDir } from './helpers.ts';

const dir = tempDir('arbiter-store-');
after(() => rmSync(dir, { recursive: true, force: true }));

function row(id: string): MatchRow {
  return {
    id,
    ruleset: 'tictactoe',
    version: '1',
    seed: 1,
    config: {},
    header: { ruleset: 'tictactoe' },
    status: 'running',
    spectateHash: null,
    deadlineMs: null,
    seats: 2,
    seq: 0,
    hash: 'h0',
    outcome: null,
    createdAt: 1,
    updatedAt: 1,
  };
}

function sub(seq: number, idemKey: string | null = null): SubmissionRow {
  return {
    seq,
    seat: (seq - 1) % 2,
    input: { cell: seq, type: 'mark' },
    result: 'accepted',
    events: [{ type: 'marked', cell: seq }],
    default: null,
    idemKey,
    hash: `h${seq}`,
    at: seq,
  };
}

const head = (seq: number) => ({ status: 'running' as const, seq, hash: `h${seq}`, outcome: null });

async function openStore(name: string, matches: string[]): Promise<SqliteStore> {
  const store = new SqliteStore(join(dir, name));
  await store.init();
  for (const id of matches)
    await store.createMatch(row(id), [
      { seat: 0, kind: 'open', name: null, tokenHash: null },
      { seat: 1, kind: 'open', name: null, tokenHash: null },
    ]);
  return store;
}

test('[SRV-STORE-BATCH] a batch of writes from one loop turn is stored whole', async () => {
  const store = await openStore('whole.sqlite', ['a', 'b', 'c']);
  try {
    const r = await Promise.all(['a', 'b', 'c'].map((id) => store.append(id, sub(1), head(1))));
    assert.deepEqual(r, ['ok', 'ok', 'ok']);
    for (const id of ['a', 'b', 'c']) {
      assert.equal((await store.getMatch(id))?.seq, 1);
      assert.deepEqual(await store.submissions(id, 0), [sub(1)]);
    }
  } finally {
    await store.close();
  }
});

test('[SRV-STORE-REFUSED] a refused write in a batch undoes only itself; the others are stored', async () => {
  const store = await openStore('refused.sqlite', ['a', 'b', 'c']);
  try {
    assert.equal(await store.append('b', sub(1, 'k1'), head(1)), 'ok');
    // in one turn: a's first write, a second writer of b's seq 1, a reused key on b, c's first write
    const r = await Promise.all([
      store.append('a', sub(1), head(1)),
      store.append('b', sub(1), head(1)),
      store.append('b', sub(2, 'k1'), head(2)),
      store.append('c', sub(1), head(1)),
    ]);
    assert.deepEqual(r, ['ok', 'conflict', 'duplicate_key', 'ok']);
    assert.equal((await store.getMatch('a'))?.seq, 1);
    assert.equal((await store.getMatch('b'))?.seq, 1);
    assert.equal((await store.getMatch('c'))?.seq, 1);
    assert.deepEqual(await store.submissions('a', 0), [sub(1)]);
    assert.deepEqual(await store.submissions('b', 0), [sub(1, 'k1')]);
    assert.deepEqual(await store.submissions('c', 0), [sub(1)]);
    // a head that moved on (seq 2 written while the caller thought seq 0): refused, nothing written
    assert.equal(await store.append('c', sub(3), head(3)), 'conflict');
    assert.deepEqual(await store.submissions('c', 0), [sub(1)]);
    // and the store keeps taking batches afterwards
    const again = await Promise.all([store.append('a', sub(2), head(2)), store.append('c', sub(2), head(2))]);
    assert.deepEqual(again, ['ok', 'ok']);
    assert.equal((await store.getMatch('a'))?.seq, 2);
    assert.equal((await store.getMatch('c'))?.seq, 2);
  } finally {
    await store.close();
  }
});
