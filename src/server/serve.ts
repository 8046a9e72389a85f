// `arbiter serve`: open the store (SQLite file by default, PostgreSQL by URL), rebuild unfinished
// matches, listen on loopback, and drain cleanly on SIGTERM/SIGINT.

import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import { ArbiterError, type RulesetPackage } from '@arbiter/engine/kernel';
import { MatchService } from './service.ts';
import { Episodes } from './episodes.ts';
import type { AgentEnv } from '../agents/resolve.ts';
import { addModelOptions, llmEnvOf } from '../cli/core/agents-cli.ts';
import type { Store } from './store.ts';

export interface ServeOptions {
  host?: string;
  port?: number;
  /** A file path (SQLite) or a postgres:// URL. */
  db?: string;
  fsync?: boolean;
  bodyLimit?: number;
  rateLimit?: number;
  allowExternalAgents?: boolean;
  /** Remote protocol agents: deadline per decision attempt when a match sets no turnDeadlineMs. */
  agentDeadlineMs?: number;
  /** Remote protocol agents: failed decisions in a row before the seat is failed. */
  maxFailures?: number;
  logger?: boolean | { level: string };
  /** One log line per request (default true); `--quiet` turns only these off. */
  requestLog?: boolean;
  /** Folder of the built web page; default web/dist of this repository. */
  webRoot?: string;
  /** The rulesets to play; default the registry's (tests add their own). */
  packages?: readonly RulesetPackage[];
  /** What agents that call out need (model endpoints, cassettes, a stderr folder). */
  agentEnv?: AgentEnv;
  /** Unfinished matches unchanged this long expire from the lobby's list (default one hour; 0: never). */
  expireAfterMs?: number;
  /** Finished matches kept in memory (default 64; see ServiceOptions.keepFinished). */
  keepFinished?: number;
  /** Line-ups the operator offers (`--lineup ID|FILE`): each starts one episode when the server starts. */
  lineups?: string[];
  /** The started episodes' pause before each agent move (default 500 ms) and seed (default random). */
  episodePaceMs?: number;
  episodeSeed?: number;
  /** Folder of the transcripts of the seats this server plays (default: beside the stderr files). */
  transcriptsDir?: string;
}

/** The store drivers load only when a server starts, so every other verb works without them. */
export async function openStore(db: string | undefined, fsync = false): Promise<Store> {
  const where = db ?? 'arbiter.sqlite';
  if (/^postgres(ql)?:\/\//i.test(where)) return new (await import('./store-pg.ts')).PgStore(where);
  if (/^[a-z]+:\/\//i.test(where))
    throw new ArbiterError('bad_request', `--db: unsupported URL (use a file path or postgres://...)`);
  const { SqliteStore } = await import('./store-sqlite.ts');
  try {
    return new SqliteStore(resolve(where), { fsync });
  } catch (err) {
    if (err instanceof ArbiterError) throw err;
    throw new ArbiterError('bad_request', `--db ${where}: cannot open it for writing (${oneLine(err)})`);
  }
}

/** An error's message on one line, for the operator's one-line refusals. */
function oneLine(err: unknown): string {
  return String((err as Error)?.message ?? err)
    .split('\n')[0]
    .slice(0, 200);
}

/** A postgres:// URL without its password, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

/** Open the store and make it answer once; a store that cannot be used is a one-line refusal. */
async function readyStore(o: ServeOptions): Promise<Store> {
  const store = await openStore(o.db, o.fsync);
  try {
    await store.init();
  } catch (err) {
    await store.close().catch(() => {});
    const where = store.kind === 'postgres' ? redact(o.db ?? '') : (o.db ?? 'arbiter.sqlite');
    throw new ArbiterError('bad_request', `--db ${where}: ${oneLine(err)}`);
  }
  return store;
}

export interface RunningServer {
  app: FastifyInstance;
  /** The episodes started from --lineup: match id and line-up id of each. */
  episodes: { match: string; lineup: string }[];
  service: MatchService;
  url: string;
  rebuilt: number;
  broken: string[];
  /** Whether the built web page is served at `/`. */
  web: boolean;
  close(): Promise<void>;
}

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  let log: ((msg: string, detail?: unknown) => void) | null = null;
  // a line-up that does not load stops the server before it listens
  const episodes = new Episodes({
    lineups: o.lineups,
    allowExternalAgents: o.allowExternalAgents,
    transcriptsDir:
      o.transcriptsDir ?? join(o.agentEnv?.stderrDir ?? join(tmpdir(), `arbiter-serve-${process.pid}`), 'transcripts'),
  });
  const service = new MatchService({
    episodes,
    store: await readyStore(o),
    allowExternalAgents: o.allowExternalAgents,
    packages: o.packages,
    agentDeadlineMs: o.agentDeadlineMs,
    agentMaxFailures: o.maxFailures,
    agentEnv: o.agentEnv,
    keepFinished: o.keepFinished,
    warn: (msg, detail) => log?.(msg, detail),
  });
  const webRoot = o.webRoot ?? fileURLToPath(new URL('../../web/dist', import.meta.url));
  // fastify and its plugins load only when a server starts, not with every CLI verb
  const { buildApp } = await import('./http.ts');
  const app = await buildApp({
    service,
    bodyLimit: o.bodyLimit,
    rateLimit: o.rateLimit,
    logger: o.logger,
    requestLog: o.requestLog,
    webRoot,
    expireAfterMs: o.expireAfterMs,
  });
  log = (msg, detail) => app.log.warn({ detail }, msg);
  let address: string;
  let started: { rebuilt: number; broken: string[] };
  try {
    started = await service.start();
    address = await app.listen({ host: o.host ?? '127.0.0.1', port: o.port ?? 8080 });
  } catch (err) {
    await app.close().catch(() => {});
    await service.close().catch(() => {});
    const code = (err as { code?: string }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
      throw new ArbiterError(
        'bad_request',
        `--host ${o.host ?? '127.0.0.1'} --port ${o.port ?? 8080}: ${oneLine(err)}`,
      );
    throw err;
  }
  const { rebuilt, broken } = started;
  const begun: RunningServer['episodes'] = [];
  try {
    for (const l of episodes.serverLineups()) {
      const m = await service.create({
        ruleset: l.ruleset,
        lineup: l.id,
        agentDelayMs: o.episodePaceMs ?? 500,
        ...(o.episodeSeed !== undefined ? { seed: o.episodeSeed } : {}),
      });
      begun.push({ match: m.id, lineup: l.id });
    }
  } catch (err) {
    await app.close().catch(() => {});
    await service.close().catch(() => {});
    throw err;
  }
  let closing: Promise<void> | null = null;
  return {
    app,
    service,
    url: address,
    rebuilt,
    broken,
    episodes: begun,
    web: existsSync(join(webRoot, 'index.html')),
    close() {
      // stop taking requests, let in-flight ones finish, close sockets, then the store
      closing ??= app.close().then(() => service.close());
      return closing;
    },
  };
}

function positive(flag: string, text: string): number {
  const n = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(n) || n < 1)
    throw new ArbiterError('bad_request', `${flag}: not a positive whole number: ${text}`);
  return n;
}

export function registerServe(program: Command): void {
  const serve = program
    .command('serve')
    .description('serve matches over HTTP and WebSocket (see docs/server.md)')
    .option('--host <host>', 'address to bind (loopback unless told otherwise)', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', '8080')
    .option('--db <path|url>', 'SQLite file, or a postgres:// URL', 'arbiter.sqlite')
    .option('--fsync', 'SQLite: fsync every commit (survives power loss, not only a killed process)')
    .option('--body-limit <bytes>', 'largest request body', String(64 * 1024))
    .option(
      '--rate-limit <n>',
      'requests per minute per token (or address); WebSocket messages get the same budget',
      '1200',
    )
    .option(
      '--allow-external-agents',
      'let match creators seat cmd:/http:/llm: agents (they run programs or call out from this machine)',
    )
    .option(
      '--agent-deadline-ms <ms>',
      'remote protocol agents: deadline per decision attempt when the match sets no turnDeadlineMs',
      '10000',
    )
    .option('--max-failures <k>', 'remote protocol agents: failed decisions in a row before the seat is failed', '3')
    .option(
      '--expire-after <minutes>',
      'unfinished matches with no move for this long leave the match list; waiting ones take no more joins (0: never)',
      '60',
    )
    .option('--web <dir>', 'folder of the built web page served at / (default: web/dist)')
    .option('--quiet', 'no log line per request (warnings and errors are still logged)')
    .option(
      '--agents-dir <dir>',
      'folder for the stderr files of cmd: agents and the transcripts (default: a temp folder)',
    )
    .option(
      '--lineup <id|file>',
      'offer this line-up (a shipped id or a YAML file) and start one episode of it now (repeatable)',
      (v: string, all: string[] = []) => [...all, v],
    )
    .option('--pace-ms <ms>', 'episodes started with --lineup: pause before each agent move', '500')
    .option('--seed <n>', 'episodes started with --lineup: the seed (default random)');
  addModelOptions(serve).action(
    async (o: {
      host: string;
      port: string;
      db: string;
      fsync?: boolean;
      bodyLimit: string;
      rateLimit: string;
      allowExternalAgents?: boolean;
      agentDeadlineMs: string;
      maxFailures: string;
      quiet?: boolean;
      web?: string;
      agentsDir?: string;
      lineup?: string[];
      paceMs: string;
      seed?: string;
    }) => {
      const pace = Number(o.paceMs);
      if (!/^\s*\d+\s*$/.test(o.paceMs) || pace > 60_000)
        throw new ArbiterError('bad_request', `--pace-ms: a whole number of milliseconds up to 60000, got ${o.paceMs}`);
      const seed = o.seed === undefined ? undefined : Number(o.seed);
      if (seed !== undefined && !(/^\s*\d+\s*$/.test(String(o.seed)) && seed <= 2 ** 32 - 1))
        throw new ArbiterError('bad_request', `--seed: a whole number in 0..4294967295, got ${o.seed}`);
      const port = Number(o.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new ArbiterError('bad_request', `--port: not a port: ${o.port}`);
      const srv = await startServer({
        host: o.host,
        port,
        db: o.db,
        fsync: o.fsync,
        bodyLimit: positive('--body-limit', o.bodyLimit),
        rateLimit: positive('--rate-limit', o.rateLimit),
        allowExternalAgents: o.allowExternalAgents,
        agentDeadlineMs: positive('--agent-deadline-ms', o.agentDeadlineMs),
        maxFailures: positive('--max-failures', o.maxFailures),
        logger: { level: 'info' },
        requestLog: !o.quiet,
        webRoot: o.web ? resolve(o.web) : undefined,
        agentEnv: {
          llm: llmEnvOf(o as Record<string, unknown>),
          stderrDir: o.agentsDir ?? join(tmpdir(), `arbiter-serve-agents-${process.pid}`),
        },
        lineups: o.lineup,
        episodePaceMs: pace,
        episodeSeed: seed,
      });
      const store = /^postgres/i.test(o.db) ? 'postgres' : resolve(o.db);
      process.stderr.write(
        `arbiter serve: listening on ${srv.url} (store: ${store}; rebuilt ${srv.rebuilt} unfinished match(es)${srv.broken.length ? `; ${srv.broken.length} do not replay: ${srv.broken.join(', ')}` : ''})\n`,
      );
      // a line tests and scripts can wait for
      process.stdout.write(`listening ${srv.url}\n`);
      for (const e of srv.episodes) process.stdout.write(`episode ${e.lineup}: ${srv.url}/match/${e.match}\n`);
      process.stdout.write(
        srv.web
          ? `lobby: open ${srv.url}/ in a browser\n`
          : `no web page built (npm run build:web); the API is at ${srv.url}/api\n`,
      );
      await new Promise<void>((done) => {
        const stop = (sig: string) => {
          process.stderr.write(`arbiter serve: ${sig}: draining\n`);
          srv.close().then(done, (err) => {
            process.stderr.write(`arbiter serve: close failed: ${String(err)}\n`);
            process.exitCode = 1;
            done();
          });
        };
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
        // started by `npm start` (scripts/start.mjs) with an IPC channel: when that parent goes
        // away, however it ends, this server drains and exits instead of keeping the port
        if (process.send) {
          process.once('disconnect', () => stop('parent gone'));
          process.channel?.unref();
        }
      });
    },
  );
}
