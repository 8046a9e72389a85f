// Real server processes for the server tests: `arbiter serve` started as a child on 127.0.0.1 with a
// free port, and a throw-away PostgreSQL cluster when the binaries are installed.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { after, before } from 'node:test';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';

const ROOT = resolve(import.meta.dirname, '../..');

export interface ServerProc {
  url: string;
  api: string;
  proc: ChildProcess;
  output: () => string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
  kill9(): Promise<void>;
}

/**
 * Waits until a child's stdout matches `pattern` (its stderr is kept too, for the error message);
 * fails with everything it printed if it exits first or the time runs out.
 */
export async function awaitOutput(
  proc: ChildProcess,
  pattern: RegExp,
  timeoutMs: number,
): Promise<{ match: RegExpExecArray; output: () => string; exited: Promise<number | null> }> {
  let out = '';
  const exited = new Promise<number | null>((done) => proc.on('exit', (code) => done(code)));
  const match = await new Promise<RegExpExecArray>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start: ${out}`)), timeoutMs);
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m);
      }
    });
    proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`server exited ${code}: ${out}`));
    });
  });
  return { match, output: () => out, exited };
}

/** `arbiter serve` on a free port with `--quiet` (no per-request lines) unless `requestLog` says otherwise. */
export async function startServer(
  db: string,
  extra: string[] = [],
  { requestLog = false }: { requestLog?: boolean } = {},
): Promise<ServerProc> {
  const proc = spawn(
    process.execPath,
    [join(ROOT, 'bin/arbiter.js'), 'serve', '--port', '0', '--db', db, ...(requestLog ? [] : ['--quiet']), ...extra],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const started = await awaitOutput(proc, /listening (http:\/\/\S+)/, 30_000);
  const url = started.match[1];
  const { exited } = started;
  const out = started.output;
  return {
    url,
    api: url + '/api',
    proc,
    output: out,
    async stop() {
      proc.kill('SIGTERM');
      return exited;
    },
    async kill9() {
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

export type Answer = { status: number; body: any };

export async function call(
  api: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const h: Record<string, string> = { ...headers };
  if (body !== undefined) h['content-type'] = 'application/json';
  if (token) h.authorization = `Bearer ${token}`;
  const r = await fetch(api + path, {
    method,
    headers: h,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: r.status, body: parsed };
}

/** A WebSocket that keeps every frame it receives. */
export class Watcher {
  readonly frames: any[] = [];
  readonly raw: string[] = [];
  readonly ws: WebSocket;
  readonly open: Promise<void>;
  private waiters: { pred: (f: any) => boolean; done: (f: any) => void }[] = [];
  closed: { code: number } | null = null;

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.open = new Promise((ok, fail) => {
      this.ws.once('open', () => ok());
      this.ws.once('error', fail);
    });
    this.ws.on('message', (data) => {
      const text = data.toString();
      this.raw.push(text);
      const f = JSON.parse(text);
      this.frames.push(f);
      this.waiters = this.waiters.filter((w) => {
        if (w.pred(f)) {
          w.done(f);
          return false;
        }
        return true;
      });
    });
    this.ws.on('close', (code) => (this.closed = { code }));
  }

  wait(pred: (f: any) => boolean, ms = 10_000): Promise<any> {
    const have = this.frames.find(pred);
    if (have) return Promise.resolve(have);
    return new Promise((ok, fail) => {
      const t = setTimeout(
        () => fail(new Error('no such frame within ' + ms + ' ms; last: ' + this.raw.slice(-2).join(' | '))),
        ms,
      );
      this.waiters.push({ pred, done: (f) => (clearTimeout(t), ok(f)) });
    });
  }

  close(): void {
    this.ws.close();
  }
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * One server for the tests of a suite (a describe, or the whole file when called at its top): started
 * in `before` on a database in a fresh folder, stopped and the folder removed in `after`. The object
 * returned is that server once `before` has run.
 */
export function serverForSuite(prefix: string, extra: string[] = []): ServerProc {
  const srv = {} as ServerProc;
  let dir = '';
  before(async () => {
    dir = tempDir(prefix);
    Object.assign(srv, await startServer(join(dir, 'db.sqlite'), extra));
  });
  after(async () => {
    if (srv.stop) await srv.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return srv;
}

/** A loopback port nobody listens on now, for a server that must be told its port. */
export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => ok(port));
    });
  });
}

export interface PgCluster {
  url: string;
  stop(): void;
  /** Stop at once (no clean shutdown, as in a crash) and start again on the same port. */
  restart(): void;
}

/** The PostgreSQL server binaries' folder, or null when PostgreSQL is not installed. */
export function pgBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  for (const v of readdirSync(base).sort().reverse()) {
    const bin = join(base, v, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

/** A throw-away cluster on a loopback port in a temp folder (run as the postgres user when root). */
export async function startPg(): Promise<PgCluster> {
  const bin = pgBin();
  if (!bin) throw new Error('PostgreSQL not installed');
  const dir = tempDir('arbiter-pg-');
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const pgUser = asRoot ? Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim()) : null;
  if (asRoot && pgUser !== null) chownSync(dir, pgUser, pgUser);
  const run = (args: string[]) => {
    const cmd = asRoot ? ['runuser', '-u', 'postgres', '--', ...args] : args;
    const r = spawnSync(cmd[0], cmd.slice(1), { encoding: 'utf8', cwd: dir });
    if (r.status !== 0) throw new Error(`${args[0]} failed: ${r.stderr || r.stdout}`);
  };
  run([join(bin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'arbiter', '--no-sync']);
  const port = await freePort();
  writeFileSync(join(dir, 'note'), 'throw-away cluster for arbiter tests\n');
  run([
    join(bin, 'pg_ctl'),
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on`,
    'start',
  ]);
  return {
    url: `postgres://arbiter@127.0.0.1:${port}/postgres`,
    restart() {
      // -l again: without it the restarted server writes to pg_ctl's output, which never closes
      run([join(bin, 'pg_ctl'), '-D', data, '-l', join(dir, 'log'), '-m', 'immediate', '-w', 'restart']);
    },
    stop() {
      try {
        run([join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * `arbiter serve ARGS` expected to refuse to start: its exit code and output. A server that starts
 * anyway (prints `listening`) is stopped and reported with `listened: true`.
 */
export async function serveRefusal(args: string[]): Promise<{ code: number | null; out: string; listened: boolean }> {
  const proc = spawn(process.execPath, [join(ROOT, 'bin/arbiter.js'), 'serve', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let listened = false;
  const grab = (b: Buffer) => {
    out += b.toString();
    if (!listened && /listening http/.test(out)) {
      listened = true;
      proc.kill('SIGKILL');
    }
  };
  proc.stdout!.on('data', grab);
  proc.stderr!.on('data', grab);
  const code = await new Promise<number | null>((done) => proc.on('exit', (c) => done(c)));
  return { code, out, listened };
}
