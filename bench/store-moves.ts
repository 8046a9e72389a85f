// `node --import tsx bench/store-moves.ts [TREE ...] [--batch 30]`: what the embedded store (SQLite)
// costs per tic-tac-toe move, in process, with no sockets: 200 live matches, 30 moves per group commit
// (about the mean batch the server bench produces; `--batch N` for another size), a finished match
// replaced by a new one (its create and seats included in the figure). CPU (user and system) per move
// over 4,000 group commits after 500 of warm-up (120,000 moves after 15,000 at the default batch).
// With several trees (checkouts of this repository) their stores run one after the other, three
// rounds, so two versions of the store can be compared on the same machine and the same load.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SeatRow, Store } from '../src/server/store.ts';
import { tictactoeRow } from './match-row.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--batch');
const BATCH = at < 0 ? 30 : Number(args.splice(at, 2)[1]);
if (!(Number.isInteger(BATCH) && BATCH >= 1 && BATCH <= 200)) {
  console.error('bench/store-moves.ts: bad_request: --batch is a whole number of writes per commit, 1 to 200');
  process.exit(2);
}
const trees = args.length > 0 ? args : [resolve(import.meta.dirname, '..')];
const LIVE = 200;
const MOVES = 9;

const seats: SeatRow[] = [0, 1].map((seat) => ({ seat, kind: 'player', name: `p${seat}`, tokenHash: `t${seat}` }));

async function measure(tree: string): Promise<{ user: number; sys: number }> {
  const { SqliteStore } = (await import(join(tree, 'src/server/store-sqlite.ts'))) as {
    SqliteStore: new (path: string) => Store;
  };
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-store-moves-'));
  const store = new SqliteStore(join(dir, 's.sqlite'));
  let made = 0;
  const fresh = async () => {
    const id = `m${String(++made).padStart(9, '0')}`;
    await store.createMatch(tictactoeRow(id, Date.now()), seats);
    return { id, seq: 0 };
  };
  try {
    await store.init();
    const live: { id: string; seq: number }[] = [];
    for (let i = 0; i < LIVE; i++) live.push(await fresh());
    let moves = 0;
    const round = async () => {
      const writes = [];
      for (let b = 0; b < BATCH; b++) {
        // a different spread of matches in each batch, as interleaved clients give
        const m = live[(b * 7 + moves) % LIVE];
        const seq = ++m.seq;
        const last = seq === MOVES;
        writes.push(
          store.append(
            m.id,
            {
              seq,
              seat: (seq - 1) % 2,
              input: { cell: seq - 1, type: 'mark' },
              result: 'accepted',
              events: [{ type: 'marked', seat: (seq - 1) % 2, cell: seq - 1 }],
              default: null,
              idemKey: null,
              hash: 'a'.repeat(64),
              at: Date.now(),
            },
            { status: last ? 'finished' : 'running', seq, hash: 'a'.repeat(64), outcome: last ? { draw: true } : null },
          ),
        );
        moves++;
      }
      const r = await Promise.all(writes);
      if (r.some((x) => x !== 'ok')) throw new Error(`a write was refused: ${r.join(' ')}`);
      for (let k = 0; k < LIVE; k++) if (live[k].seq >= MOVES) live[k] = await fresh();
    };
    for (let i = 0; i < 500; i++) await round();
    const before = process.cpuUsage();
    const from = moves;
    for (let i = 0; i < 4000; i++) await round();
    const used = process.cpuUsage(before);
    return { user: used.user / (moves - from), sys: used.system / (moves - from) };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

for (let round = 1; round <= 3; round++)
  for (const tree of trees) {
    const r = await measure(tree);
    console.log(
      `round ${round}  ${tree}: ${(r.user + r.sys).toFixed(1)} µs of CPU per move (user ${r.user.toFixed(1)}, system ${r.sys.toFixed(1)})`,
    );
  }
