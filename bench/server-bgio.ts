// The peer server for bench/server.ts: boardgame.io 0.50.2's own server (koa + socket.io, its
// in-memory store) with the same tic-tac-toe game, bound to loopback. Prints "listening PORT LOBBYPORT".
//
// The Lobby API runs on a second port, as boardgame.io's `lobbyConfig.apiPort` option does it. On
// the game server's own port its routes answer 404 with the koa this project installs: the
// socket.io transport builds the HTTP server from the app before the lobby's routes are added.

import { createRequire } from 'node:module';
import { bgioGame } from './peers/boardgameio.ts';
import { freePort } from '../test/server/helpers.ts';

process.env.NODE_ENV = 'production';
const require = createRequire(import.meta.url);
type BgioServer = {
  app: { listen: (...args: unknown[]) => void };
  run: (cfg: { port: number; lobbyConfig: { apiPort: number } }) => Promise<{
    appServer: { address(): { port: number } };
  }>;
};
const { Server } = require('boardgame.io/server') as {
  Server: (opts: { games: unknown[]; origins: string[] }) => BgioServer;
};
const server = Server({ games: [bgioGame], origins: ['http://127.0.0.1'] });
// boardgame.io listens on every interface; keep it on loopback
const listen = server.app.listen;
server.app.listen = (port: unknown, cb: unknown) => listen.call(server.app, port, '127.0.0.1', cb);
// the Lobby API's own koa app (the same class as the game app's) listens on a port number only;
// keep it on loopback too
const Koa = server.app.constructor as unknown as { prototype: { listen: (...args: unknown[]) => unknown } };
const koaListen = Koa.prototype.listen;
Koa.prototype.listen = function (this: unknown, port: unknown, cb: unknown) {
  return koaListen.call(this, port, '127.0.0.1', cb);
};
// the lobby option takes a port number, not 0
const apiPort = await freePort();
const { appServer } = await server.run({ port: Number(process.argv[2] ?? 0), lobbyConfig: { apiPort } });
process.stdout.write(`listening ${appServer.address().port} ${apiPort}\n`);
