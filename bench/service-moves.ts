// `node --import tsx bench/service-moves.ts [--matches 10000]`: what a tic-tac-toe move costs the
// server in process, with no sockets: the match service (engine, checks, hash chain, audience cuts)
// over the SQLite store, with the work a seat socket adds above it, namely each seat's state frame
// and the mover's ack serialized to JSON. 50 matches are played at a time; a match's create and its
// two joins are part of the figure, as they are in the server bench. CPU (user and system) per move
// over --matches matches after 3,000 of warm-up, three rounds. Set beside bench/server-work.mjs's
// figure for the same move over sockets, it says how much of a move is the service and how much the
// transport and the glue between them; bench/store-moves.ts gives the store's own share.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng, nextInt, type JsonObject, type RngState } from '@arbiter/engine/kernel';
import { MatchService } from '../src/server/service.ts';
import { SqliteStore } from '../src/server/store-sqlite.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--matches');
const MATCHES = at < 0 ? 10_000 : Number(args.splice(at, 2)[1]);
if (args.length > 0 || !(Number.isInteger(MATCHES) && MATCHES >= 50)) {
  console.error('usage: node --import tsx bench/service-moves.ts [--matches N]   (N a whole number, at least 50)');
  process.exit(2);
}
const AT_ONCE = 50;
const WARM = 3_000;

type Menu = { actions: JsonObject[] };

/** One match from create to its end; returns its moves. */
async function playOne(svc: MatchService, rng: RngState): Promise<number> {
  const m = await svc.create({ ruleset: 'tictactoe', seed: nextInt(rng, 'seed', 1e9) });
  const joined = [await svc.join(m, undefined, 'a'), await svc.join(m, undefined, 'b')];
  // the frame whose menu the next mover acts from, as a seat socket's client would
  let next: JsonObject | null = null;
  const take = (f: JsonObject) => {
    JSON.stringify(f);
    if (f.menu) next = f;
  };
  const offs = joined.map((j) => svc.subscribe(m, { seat: j.seat, send: take }));
  for (const j of joined) take({ type: 'state', ...svc.snapshot(m, j.seat) });
  let moves = 0;
  while (next !== null) {
    const f: JsonObject = next;
    next = null;
    const actions = (f.menu as unknown as Menu).actions;
    const r = await svc.submit(m, Number(f.seat), actions[nextInt(rng, 'move', actions.length)], null);
    JSON.stringify({ type: 'ack', seq: r.seq, events: r.events, outcome: r.outcome ?? null, replayed: r.replayed });
    moves++;
  }
  for (const off of offs) off();
  return moves;
}

/** `n` matches, AT_ONCE at a time; returns the moves played. */
async function play(svc: MatchService, n: number, seed: number): Promise<number> {
  let left = n;
  let moves = 0;
  await Promise.all(
    Array.from({ length: AT_ONCE }, async (_, k) => {
      const rng = createRng(seed * 1000 + k);
      while (left-- > 0) {
        // not `moves += await …`: that reads `moves` before the await and loses the other matches' moves
        const played = await playOne(svc, rng);
        moves += played;
      }
    }),
  );
  return moves;
}

for (let round = 1; round <= 3; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-service-moves-'));
  const svc = new MatchService({ store: new SqliteStore(join(dir, 's.sqlite')) });
  try {
    await svc.start();
    await play(svc, WARM, round);
    const before = process.cpuUsage();
    const moves = await play(svc, MATCHES, round + 100);
    const used = process.cpuUsage(before);
    console.log(
      `round ${round}: ${((used.user + used.system) / moves).toFixed(1)} µs of CPU per move (user ${(used.user / moves).toFixed(1)}, system ${(used.system / moves).toFixed(1)}), ${moves} moves in ${MATCHES} matches`,
    );
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
