// The peer server for bench/server.ts: boardgame.io 0.50.2's own server (koa + socket.io, its
// in-memory store) with the same tic-tac-toe game, bound to loopback. Prints "listening PORT".

import { createRequire } from 'node:module';
import { bgioGame } from './peers/boardgameio.ts';

process.env.NODE_ENV = 'production';
const require = createRequire(import.meta.url);
type BgioServer = {
  app: { listen: (...args: unknown[]) => void };
  run: (cfg: { port: number }) => Promise<{ appServer: { address(): { port: number } } }>;
};
const { Server } = require('boardgame.io/server') as {
  Server: (opts: { games: unknown[]; origins: string[] }) => BgioServer;
};
const server = Server({ games: [bgioGame], origins: ['http://127.0.0.1'] });
// boardgame.io listens on every interface; keep it on loopback
const listen = server.app.listen;
server.app.listen = (port: unknown, cb: unknown) => listen.call(server.app, port, '127.0.0.1', cb);
const { appServer } = await server.run({ port: Number(process.argv[2] ?? 0) });
process.stdout.write(`listening ${appServer.address().port}\n`);
