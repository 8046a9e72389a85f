// One suite over both stores (SQLite and PostgreSQL): group commit stores a batch whole, a refused
// write in a batch undoes only itself, and seats are claimed and given back atomically. SQLite's
// batch takes no savepoints; a batch that meets a refused write is rolled back and run again with one
// savepoint per write. PostgreSQL sends a batch as one call of a stored function; a batch with a
// refused write is rolled back whole and each write runs again on its own.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { DomainError } from '../../src/server/errors.ts';
import { MatchService } from '../../src/server/service.ts';
import { DOMAIN_STATUS } from '../../src/server/http.ts';
import { PgStore } from '../../src/server/store-pg.ts';
import { BATCH_WINDOW, SqliteStore, type BatchWindow } from '../../src/server/store-sqlite.ts';
import type { SeatRow, Store, SubmissionRow } from '../../src/server/store.ts';
import { pgBin, startPg, tempDir, type PgCluster } from './helpers.ts';
import { tictactoeRow } from '../../bench/match-row.ts';

const dir = tempDir('arbiter-store-');
after(() => rmSync(dir, { recursive: true, force: true }));

const row = tictactoeRow;

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

const openSeats = (n: number): SeatRow[] =>
  Array.from({ length: n }, (_, seat) => ({ seat, kind: 'open' as const, name: null, tokenHash: null }));

async function withMatches(store: Store, matches: string[]): Promise<Store> {
  for (const id of matches) await store.createMatch(row(id), openSeats(2));
  return store;
}

/** A fresh, empty store of one kind, by name (a file, or a schema of the throw-away cluster). */
type Opener = (name: string) => Promise<Store>;

function storeSuite(kind: string, open: Opener): void {
  const openStore = async (name: string, matches: string[]) => withMatches(await open(name), matches);

  test(`[SRV-STORE-BATCH] ${kind}: a batch of writes from one loop turn is stored whole`, async () => {
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

  test(`[SRV-STORE-REFUSED] ${kind}: a refused write in a batch undoes only itself; the others are stored`, async () => {
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

  test(`[SRV-STORE-BIG-BATCH] ${kind}: many writes at once, one of them refused, all answered right`, async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `m${String(i).padStart(2, '0')}`);
    const store = await openStore('big', ids);
    try {
      assert.equal(await store.append('m05', sub(1), head(1)), 'ok');
      // enough writes that several queue behind the first ones and commit together
      const r = await Promise.all(ids.map((id) => store.append(id, sub(1), head(1))));
      assert.deepEqual(
        r,
        ids.map((id) => (id === 'm05' ? 'conflict' : 'ok')),
      );
      for (const id of ids) {
        assert.equal((await store.getMatch(id))?.seq, 1);
        assert.deepEqual(await store.submissions(id, 0), [sub(1)]);
      }
    } finally {
      await store.close();
    }
  });

  test(`[SRV-STORE-HEAD] ${kind}: a match's head follows its submissions, in one batch or across them, and a stale or skipping writer is refused`, async () => {
    const store = await openStore('head', ['a', 'b']);
    try {
      // two moves of one match in one turn: the second extends the first
      assert.deepEqual(await Promise.all([store.append('a', sub(1), head(1)), store.append('a', sub(2), head(2))]), [
        'ok',
        'ok',
      ]);
      const a = await store.getMatch('a');
      assert.deepEqual([a?.seq, a?.hash, a?.updatedAt, a?.status], [2, 'h2', 2, 'running']);
      // a writer that skips a seq, one that repeats the last, and one that starts over
      assert.deepEqual(
        await Promise.all([
          store.append('a', sub(4), head(4)),
          store.append('a', sub(2), head(2)),
          store.append('b', sub(2), head(2)),
        ]),
        ['conflict', 'conflict', 'conflict'],
      );
      assert.deepEqual(await store.submissions('b', 0), []);
      // the last move writes the finished head
      const last = { status: 'finished' as const, seq: 3, hash: 'h3', outcome: { winner: 0 } };
      assert.equal(await store.append('a', sub(3), last), 'ok');
      const done = await store.getMatch('a');
      assert.deepEqual([done?.seq, done?.hash, done?.status, done?.outcome], [3, 'h3', 'finished', { winner: 0 }]);
      const listed = (await store.listMatches({ limit: 10, offset: 0 })).map((r) => [r.id, r.seq, r.hash]);
      assert.deepEqual(
        listed.sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
        [
          ['a', 3, 'h3'],
          ['b', 0, 'h0'],
        ],
      );
    } finally {
      await store.close();
    }
  });

  test(`[SRV-STORE-SEATS] ${kind}: a claim answers how many seats stay open; the last one starts the match`, async () => {
    const store = await open('seats');
    try {
      await store.createMatch({ ...row('w'), status: 'waiting' }, openSeats(3));
      await store.createMatch({ ...row('v'), status: 'waiting' }, openSeats(2));
      // claims on two matches in one turn
      assert.deepEqual(
        await Promise.all([
          store.claimSeat('w', 0, 'ann', 'h-ann'),
          store.claimSeat('v', 1, 'val', 'h-val'),
          store.claimSeat('w', 0, 'bob', 'h-bob'),
        ]),
        [2, 1, null],
      );
      assert.equal((await store.getMatch('w'))?.status, 'waiting');
      assert.equal(await store.releaseSeat('w', 0, 'h-bob'), false, 'only the holder gives a seat back');
      assert.equal(await store.releaseSeat('w', 0, 'h-ann'), true);
      assert.deepEqual(await Promise.all([1, 2, 0].map((s) => store.claimSeat('w', s, `p${s}`, `h${s}`))), [2, 1, 0]);
      assert.equal((await store.getMatch('w'))?.status, 'running');
      assert.equal((await store.getMatch('v'))?.status, 'waiting');
      assert.deepEqual(
        (await store.getSeats('w')).map((s) => [s.kind, s.name, s.tokenHash]),
        [
          ['player', 'p0', 'h0'],
          ['player', 'p1', 'h1'],
          ['player', 'p2', 'h2'],
        ],
      );
    } finally {
      await store.close();
    }
  });
}

let sqliteFiles = 0;
describe('SQLite store', () => {
  storeSuite('sqlite', async (name) => {
    const store = new SqliteStore(join(dir, `${name}-${++sqliteFiles}.sqlite`));
    await store.init();
    return store;
  });

  /** The sizes of the batches the store commits, from the moment this is called. */
  function batchSizes(store: SqliteStore): number[] {
    const sizes: number[] = [];
    const inner = store as unknown as { commitBatch(jobs: unknown[]): unknown };
    const commit = inner.commitBatch.bind(store);
    inner.commitBatch = (jobs) => {
      sizes.push(jobs.length);
      return commit(jobs);
    };
    return sizes;
  }
  const turn = () => new Promise<void>((done) => setImmediate(done));
  const windowed = async (name: string, batch: Partial<BatchWindow> = {}) => {
    const store = new SqliteStore(join(dir, `${name}-${++sqliteFiles}.sqlite`), { batch });
    await store.init();
    return store;
  };

  // the time cap is lifted where a test counts loop turns: a cold test process can take longer
  // than 2 ms over a few turns, and the batch would then commit early
  test('[SRV-STORE-WINDOW] sqlite: writes that arrive on consecutive loop turns share one commit', async () => {
    const store = await windowed('window', { maxMs: Number.POSITIVE_INFINITY });
    try {
      const sizes = batchSizes(store);
      const writes: Promise<void>[] = [];
      // one write per loop turn, as the writes of many clients arrive over a busy loop's turns
      for (let i = 0; i < 10; i++) {
        writes.push(store.createMatch(row(`w${i}`), openSeats(2)));
        await turn();
      }
      await Promise.all(writes);
      assert.deepEqual(sizes, [10]);
      for (let i = 0; i < 10; i++) assert.equal((await store.getMatch(`w${i}`))?.status, 'running');
    } finally {
      await store.close();
    }
  });

  test('[SRV-STORE-WINDOW-LONE] sqlite: a lone write commits after its quiet loop turns, not later', async () => {
    const store = await windowed('lone', { maxMs: Number.POSITIVE_INFINITY });
    try {
      const sizes = batchSizes(store);
      let done = false;
      const w = store.createMatch(row('lone'), openSeats(2)).then(() => (done = true));
      let turns = 0;
      while (!done && turns < 50) {
        await turn();
        turns++;
      }
      await w;
      assert.deepEqual(sizes, [1]);
      // the turn it arrived in, then the quiet turns that brought nothing
      assert.equal(turns, BATCH_WINDOW.quietTurns + 1);
    } finally {
      await store.close();
    }
  });

  test('[SRV-STORE-WINDOW-CAP] sqlite: writes that never stop coming commit in batches capped by size, and by time', async () => {
    // a few writes every turn: the batch never goes quiet, so only a cap ends it
    const stream = async (store: SqliteStore) => {
      const writes: Promise<void>[] = [];
      for (let i = 0; i < 100; i++) {
        for (let j = 0; j < 3; j++) writes.push(store.createMatch(row(`c${i}-${j}`), openSeats(2)));
        await turn();
      }
      await Promise.all(writes);
    };
    const bySize = await windowed('cap', { maxMs: Number.POSITIVE_INFINITY });
    try {
      const sizes = batchSizes(bySize);
      await stream(bySize);
      // checked at the end of a turn: a batch reaches the cap, or passes it by less than a turn's writes
      assert.deepEqual(sizes.slice(0, -1), Array(sizes.length - 1).fill(BATCH_WINDOW.maxWrites + 2));
      assert.equal(
        sizes.reduce((a, b) => a + b, 0),
        300,
      );
    } finally {
      await bySize.close();
    }
    const byTime = await windowed('cap-time', { maxMs: 0 });
    try {
      const sizes = batchSizes(byTime);
      await stream(byTime);
      // no time to wait: each batch commits at the end of the turn it opened in, as one turn's writes
      assert.deepEqual(sizes, Array(100).fill(3));
    } finally {
      await byTime.close();
    }
  });

  test('[SRV-STORE-ONE-WRITE] sqlite: a move that keeps the status writes its submission only; the head is read from it, also after a restart', async () => {
    const file = join(dir, 'one-write.sqlite');
    const store = new SqliteStore(file);
    await store.init();
    await withMatches(store, ['a']);
    const raw = () => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare('SELECT seq, hash FROM matches WHERE id = ?').get('a');
      } finally {
        db.close();
      }
    };
    try {
      for (const n of [1, 2]) assert.equal(await store.append('a', sub(n), head(n)), 'ok');
      assert.deepEqual(raw(), { seq: 0, hash: 'h0' }, 'the match row was not rewritten');
      assert.equal((await store.getMatch('a'))?.seq, 2);
    } finally {
      await store.close();
    }
    // a new process knows no seq in memory: the store checks a submission against the file
    const again = new SqliteStore(file);
    await again.init();
    try {
      assert.equal((await again.getMatch('a'))?.hash, 'h2');
      assert.equal(await again.append('a', sub(4), head(4)), 'conflict');
      assert.equal(await again.append('a', sub(2), head(2)), 'conflict');
      assert.equal(await again.append('a', sub(3), head(3)), 'ok');
      assert.deepEqual(
        (await again.submissions('a', 0)).map((x) => x.seq),
        [1, 2, 3],
      );
    } finally {
      await again.close();
    }
  });
});

describe('PostgreSQL store', () => {
  if (!pgBin()) {
    console.log('skipped: PostgreSQL not installed');
    return;
  }
  let cluster: PgCluster;
  let schemas = 0;
  before(async () => {
    cluster = await startPg();
  });
  after(() => cluster?.stop());
  /** A store in a fresh schema of the throw-away cluster. */
  const inSchema = async (name: string): Promise<PgStore> => {
    const schema = `s_${name.replace(/\W/g, '_')}_${++schemas}`;
    const c = new pg.Client({ connectionString: cluster.url });
    await c.connect();
    await c.query(`CREATE SCHEMA ${schema}`);
    await c.end();
    const u = new URL(cluster.url);
    u.searchParams.set('options', `-c search_path=${schema}`);
    const store = new PgStore(u.toString());
    await store.init();
    return store;
  };
  storeSuite('postgres', inSchema);

  test('[SRV-STORE-PG-BAD-WRITE] a write PostgreSQL cannot store fails alone; its batch-mates are stored', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `b${i}`);
    const store = await withMatches(await inSchema('badwrite'), ids);
    try {
      await store.createMatch({ ...row('w'), status: 'waiting' }, openSeats(2));
      // PostgreSQL text holds no NUL character: this claim is refused by the database itself
      const results = await Promise.allSettled([
        ...ids.map((id) => store.append(id, sub(1), head(1))),
        store.claimSeat('w', 0, 'a\u0000b', 'h'),
      ]);
      assert.deepEqual(
        results.slice(0, ids.length).map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason))),
        ids.map(() => 'ok'),
      );
      assert.equal(results[ids.length].status, 'rejected');
      for (const id of ids) assert.equal((await store.getMatch(id))?.seq, 1);
      assert.equal((await store.getSeats('w'))[0].kind, 'open');
    } finally {
      await store.close();
    }
  });

  /**
   * Two servers on one schema, started: A hears no notices from B (its `onChange` is a no-op), so
   * its copies of B's changes are stale for sure rather than by timing; B hears as usual.
   */
  const deafAndHearing = async (name: string) => {
    const a = await inSchema(name);
    const b = new PgStore((a as unknown as { url: string }).url);
    const deaf = new Proxy(a, {
      get: (t, k) => (k === 'onChange' ? async () => {} : Reflect.get(t, k, t)),
    }) as PgStore;
    const svcA = new MatchService({ store: deaf });
    const svcB = new MatchService({ store: b });
    await svcA.start();
    await svcB.start();
    return { b, svcA, svcB };
  };

  test('[SRV-PG-STALE-SEATS] a join made from a stale copy of the seats (another server changed them) reads them again', async () => {
    // server A hears nothing from B: its copy of the seats goes stale for sure, not just by timing
    const { b, svcA, svcB } = await deafAndHearing('stale');
    try {
      const m = await svcA.create({ ruleset: 'tictactoe', seed: 1 });
      const mb = await svcB.mustGet(m.id);
      const x = await svcB.join(mb, 0, 'x');
      assert.deepEqual(
        m.seats.map((s) => s.kind),
        ['open', 'open'],
        "A's copy is stale",
      );
      // seat 0 is open in A's copy only: the claim fails, A reads the seats, and refuses
      await assert.rejects(
        svcA.join(m, 0, 'y'),
        (err: unknown) => err instanceof DomainError && DOMAIN_STATUS[err.domain] === 409,
      );
      assert.deepEqual(
        m.seats.map((s) => s.kind),
        ['player', 'open'],
        'A read the seats again',
      );
      // B gives seat 0 back; A takes the first seat open in its copy (1), is told one seat is still
      // open where its copy would have none, and reads the seats again
      await svcB.leave(mb, x.token);
      const y = await svcA.join(m, undefined, 'y');
      assert.equal(y.seat, 1);
      assert.deepEqual(
        m.seats.map((s) => s.kind),
        ['open', 'player'],
      );
      assert.equal(m.status, 'waiting');
      const z = await svcA.join(m, undefined, 'z');
      assert.equal(z.seat, 0);
      assert.equal(m.status, 'running');
      assert.equal((await b.getMatch(m.id))?.status, 'running');
    } finally {
      await svcA.close();
      await svcB.close();
    }
  });

  test('[SRV-PG-STALE-START] an action through a server that has not yet heard the match start is judged, not refused as waiting', async () => {
    // server A hears nothing from B, so its copy still says `waiting` (a notice still on its way)
    const { b, svcA, svcB } = await deafAndHearing('stale-start');
    try {
      const m = await svcA.create({ ruleset: 'tictactoe', seed: 1 });
      await svcA.join(m, 0, 'x');
      await svcB.join(await svcB.mustGet(m.id), 1, 'o');
      assert.equal(m.status, 'waiting', "A's copy is stale");
      const r = await svcA.submit(m, 0, { type: 'mark', cell: 4 }, null);
      assert.equal(r.seq, 1);
      assert.equal(m.status, 'running');
      assert.equal((await b.getMatch(m.id))?.seq, 1);
      // a match that really waits is still refused as waiting
      const w = await svcA.create({ ruleset: 'tictactoe', seed: 2 });
      await svcA.join(w, 0, 'x');
      await assert.rejects(
        svcA.submit(w, 0, { type: 'mark', cell: 4 }, null),
        (err: unknown) => err instanceof DomainError && err.domain === 'match_waiting',
      );
    } finally {
      await svcA.close();
      await svcB.close();
    }
  });

  test('[SRV-STORE-PG-RACE] two servers taking the last two seats at once: the match starts', async () => {
    for (let round = 0; round < 10; round++) {
      const a = await inSchema(`race${round}`);
      const schemaUrl = (a as unknown as { url: string }).url;
      const b = new PgStore(schemaUrl);
      await b.init();
      try {
        await a.createMatch({ ...row('r'), status: 'waiting' }, openSeats(2));
        const got = await Promise.all([a.claimSeat('r', 0, 'a', 'ha'), b.claimSeat('r', 1, 'b', 'hb')]);
        assert.deepEqual([...got].sort(), [0, 1], `round ${round}: one claim sees the other's seat taken`);
        assert.equal((await b.getMatch('r'))?.status, 'running', `round ${round}`);
      } finally {
        await a.close();
        await b.close();
      }
    }
  });
});
