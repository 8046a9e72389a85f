// `cmd:` — a program as an agent: any executable that reads protocol messages as JSON lines on
// stdin and answers decision requests with JSON lines on stdout (docs/agents.md).
//
// Safety: the command runs without a shell when its command line is plain words (quotes allowed),
// otherwise through /bin/sh; either way in its own process group, and the whole group is killed
// on every way out (match end, error, a failed seat, a refused line-up, SIGINT/SIGTERM, exit).
// A line longer than `maxLineBytes` and more than `maxDecisionBytes` per decision are refused
// without being buffered; stderr goes to a per-seat file, never into the protocol.

import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants, mkdirSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { ArbiterError, type Json } from '@arbiter/engine/kernel';
import type { DecisionRequest, DecisionResult, MatchEnd, MatchStart } from '@arbiter/engine/agents';
import { AnswerSlot } from '@arbiter/engine/agents';
import type { Reply, StaleAnswers, Transport, TransportAgent } from '@arbiter/engine/agents';

export interface SubprocessOptions {
  /** Where the program's stderr goes (a file, created or truncated). Default: a per-process temp folder. */
  stderrPath?: string;
  /** Longest accepted line, in bytes (default 1 MiB). */
  maxLineBytes?: number;
  /** Most bytes read for one decision attempt (default 4 MiB). */
  maxDecisionBytes?: number;
  /** After end of input and SIGTERM, how long the group gets before SIGKILL (default 500 ms). */
  graceMs?: number;
  /** Working directory of the program. */
  cwd?: string;
}

// ---------------------------------------------------------------- command lines

const SHELL_SPECIAL = /[|&;<>()$`*?[\]{}~#!\n\r]/;

/**
 * Split a command line into argv when it holds nothing a shell would interpret beyond words,
 * quotes and backslashes; null when it needs a shell (pipes, variables, globs, redirections).
 */
export function splitCommandLine(line: string): string[] | null {
  const argv: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote === "'") {
      if (ch === "'") quote = null;
      else cur += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && i + 1 < line.length && '"\\'.includes(line[i + 1])) cur += line[++i];
      else if (ch === '$' || ch === '`') return null;
      else cur += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\') {
      if (i + 1 >= line.length) return null;
      cur += line[++i];
      inWord = true;
    } else if (ch === ' ' || ch === '\t') {
      if (inWord) argv.push(cur);
      cur = '';
      inWord = false;
    } else if (SHELL_SPECIAL.test(ch) || (ch === '=' && !inWord)) {
      return null;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) return null;
  if (inWord) argv.push(cur);
  // VAR=value prefixes need a shell
  if (argv.length === 0 || /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0])) return null;
  return argv;
}

/** The executable a program name resolves to, or null (a path is checked as given). */
function findProgram(name: string, cwd = process.cwd()): string | null {
  const ok = (p: string) => {
    try {
      accessSync(p, constants.X_OK);
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (name.includes('/')) {
    const p = isAbsolute(name) ? name : resolve(cwd, name);
    return ok(p) ? p : null;
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && ok(join(dir, name))) return join(dir, name);
  }
  return null;
}

// ---------------------------------------------------------------- live process groups

const liveGroups = new Set<number>();
let handlersInstalled = false;

function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group is still there (zombies included). */
function groupAlive(pgid: number): boolean {
  return killGroup(pgid, 0 as unknown as NodeJS.Signals);
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  // synchronous last resort: nothing of an agent outlives this process
  process.on('exit', () => {
    for (const g of liveGroups) killGroup(g, 'SIGKILL');
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      for (const g of liveGroups) killGroup(g, 'SIGKILL');
      liveGroups.clear();
      process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
    });
  }
}

// ---------------------------------------------------------------- the transport

export class SubprocessTransport implements Transport {
  readonly name: string;
  readonly command: string;
  private readonly argv: string[] | null;
  private readonly opts: Required<Omit<SubprocessOptions, 'stderrPath' | 'cwd'>> &
    Pick<SubprocessOptions, 'stderrPath' | 'cwd'>;
  private child: ChildProcess | null = null;
  private pgid = 0;
  private exited = false;
  private closing: Promise<void> | null = null;
  private exitedPromise: Promise<void> = Promise.resolve();
  private readonly slot = new AnswerSlot();
  /** Bytes received since the open decision was asked for. */
  private decisionBytes = 0;
  private chunks: Buffer[] = [];
  private partial = 0;
  private skipping = false;
  private seat = 0;

  constructor(command: string, opts: SubprocessOptions = {}) {
    this.command = command.trim();
    this.name = `cmd:${this.command}`;
    if (this.command === '')
      throw new ArbiterError('bad_request', 'cmd: needs a command line, e.g. cmd:python3 bot.py');
    this.opts = { maxLineBytes: 1 << 20, maxDecisionBytes: 4 << 20, graceMs: 500, ...opts };
    this.argv = splitCommandLine(this.command);
    // a missing program is a clear error now, before the match (and before other seats start)
    const first = this.argv ? this.argv[0] : (this.command.match(/^[A-Za-z0-9_./+-]+(?=\s|$)/) ?? [null])[0];
    if (first && !findProgram(first, opts.cwd)) {
      throw new ArbiterError(
        'not_found',
        `cmd: program "${first}" not found${first.includes('/') ? ' (or not executable)' : ' on PATH'}`,
      );
    }
  }

  /** The program's process group id (its pid), once started. */
  get processGroup(): number {
    return this.pgid;
  }

  start(msg: MatchStart): void {
    this.seat = msg.seat;
    const stderrPath =
      this.opts.stderrPath ?? join(tmpdir(), `arbiter-agents-${process.pid}`, `seat-${msg.seat}.stderr`);
    mkdirSync(dirname(stderrPath), { recursive: true });
    const errFd = openSync(stderrPath, 'w');
    installHandlers();
    try {
      const child = this.argv
        ? spawn(this.argv[0], this.argv.slice(1), {
            stdio: ['pipe', 'pipe', errFd],
            detached: true,
            cwd: this.opts.cwd,
          })
        : spawn('/bin/sh', ['-c', this.command], {
            stdio: ['pipe', 'pipe', errFd],
            detached: true,
            cwd: this.opts.cwd,
          });
      this.child = child;
      if (child.pid === undefined) {
        this.exited = true;
      } else {
        this.pgid = child.pid;
        liveGroups.add(this.pgid);
      }
      this.exitedPromise = new Promise<void>((res) => {
        const gone = () => {
          this.exited = true;
          this.slot.settle({ ok: false, reason: 'exited', detail: 'the program has exited' });
          res();
        };
        child.once('exit', gone);
        child.once('error', gone);
      });
      child.stdin!.on('error', () => {});
      child.stdout!.on('data', (b: Buffer) => this.onData(b));
      // the program must not keep this process alive by itself
      child.unref();
    } finally {
      closeSync(errFd);
    }
    this.send(msg);
  }

  private send(msg: unknown): void {
    if (this.exited || !this.child?.stdin || this.child.stdin.destroyed) return;
    this.child.stdin.write(JSON.stringify(msg) + '\n');
  }

  private onData(buf: Buffer): void {
    if (this.slot.waiting) {
      this.decisionBytes += buf.length;
      if (this.decisionBytes > this.opts.maxDecisionBytes) {
        this.slot.settle({
          ok: false,
          reason: 'oversize',
          detail: `more than ${this.opts.maxDecisionBytes} bytes for one decision`,
        });
      }
    }
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(10, start);
      const piece = nl < 0 ? buf.subarray(start) : buf.subarray(start, nl);
      if (!this.skipping) {
        this.partial += piece.length;
        if (this.partial > this.opts.maxLineBytes) {
          // refuse the line without keeping it; skip to its newline
          const head = Buffer.concat([...this.chunks, piece])
            .subarray(0, 200)
            .toString('utf8');
          this.chunks = [];
          this.skipping = true;
          this.slot.settle({
            ok: false,
            reason: 'oversize',
            raw: head,
            detail: `a line longer than ${this.opts.maxLineBytes} bytes`,
          });
        } else if (piece.length > 0) this.chunks.push(Buffer.from(piece));
      }
      if (nl < 0) break;
      if (this.skipping) this.skipping = false;
      else this.onLine(Buffer.concat(this.chunks).toString('utf8'));
      this.chunks = [];
      this.partial = 0;
      start = nl + 1;
    }
  }

  private onLine(line: string): void {
    if (line.trim() !== '') this.slot.receive(line);
  }

  decide(req: DecisionRequest, signal: AbortSignal): Promise<Reply> {
    if (this.exited) return Promise.resolve({ ok: false, reason: 'exited', detail: 'the program has exited' });
    this.decisionBytes = 0;
    return this.slot.wait(req.request, signal, () => this.send(req));
  }

  takeStale(): StaleAnswers {
    return this.slot.takeStale();
  }

  notify(msg: DecisionResult): void {
    this.send(msg);
  }

  end(msg: MatchEnd): void {
    this.send(msg);
  }

  close(): Promise<void> {
    if (!this.closing) this.closing = this.stop();
    return this.closing;
  }

  private async stop(): Promise<void> {
    this.slot.settle({ ok: false, reason: 'exited', detail: 'the agent was closed' });
    const child = this.child;
    if (!child) return;
    child.stdout?.removeAllListeners('data');
    child.stdout?.destroy();
    try {
      child.stdin?.end();
    } catch {
      /* already gone */
    }
    const pgid = this.pgid;
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // a well-behaved program leaves at end of input; give it a moment, then the whole group goes
    const deadline = Date.now() + Math.min(100, this.opts.graceMs);
    while (!this.exited && Date.now() < deadline) await sleep(10);
    if (pgid) {
      if (groupAlive(pgid)) killGroup(pgid, 'SIGTERM');
      const hard = Date.now() + this.opts.graceMs;
      while (groupAlive(pgid) && livingMembers(pgid) > 0 && Date.now() < hard) await sleep(10);
      if (livingMembers(pgid) > 0) killGroup(pgid, 'SIGKILL');
      liveGroups.delete(pgid);
    }
    await Promise.race([this.exitedPromise, sleep(this.opts.graceMs)]);
  }
}

/**
 * Processes of a group that are not zombies (Linux /proc); where /proc is missing, assume the
 * group is alive while kill(0) says so.
 */
export function livingMembers(pgid: number): number {
  let n = 0;
  try {
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      } catch {
        continue;
      }
      // fields after the parenthesised name: state ppid pgrp ...
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(rest[2]) === pgid && rest[0] !== 'Z') n++;
    }
    return n;
  } catch {
    return groupAlive(pgid) ? 1 : 0;
  }
}

export type SubprocessAgent = TransportAgent & { transport: SubprocessTransport };

export function subprocessAgent(command: string, opts: SubprocessOptions = {}): SubprocessAgent {
  const transport = new SubprocessTransport(command, opts);
  return {
    name: transport.name,
    transport,
    choose(): Json {
      throw new ArbiterError('bad_request', 'a cmd: agent answers through the match runner (runMatch), not choose()');
    },
    close: () => transport.close(),
  };
}
