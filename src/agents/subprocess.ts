// An agent that is another program: any executable (a script, an LLM wrapper) that reads JSON
// lines on stdin and writes JSON lines on stdout can take a seat in any ruleset.
//
// Protocol (one line each way per decision, in order):
//   engine → program  {"type":"choose","request":N,"ruleset":ID,"seat":S,"kind":K,"view":{..},"menu":{"actions":[..],"templates":[..]}}
//   program → engine  {"action":{..}}   (or the bare action object)
//   engine → program  {"type":"fallback","request":N,"reason":".."}   (notice only; no answer expected)
// The documented rule for failures: when the program does not answer within the timeout, answers
// something that is not JSON, answers an action the ruleset refuses, or has exited, the agent
// plays the FIRST menu action instead (`wait` in bnc), records the failure in `failures`, and
// sends the fallback notice. A late answer is discarded, so answers never shift to a later turn.

import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ArbiterError, validateAction, type Agent, type AgentContext, type AgentFactory, type Json } from '../kernel/index.ts';

export interface SubprocessOptions {
  /** Milliseconds to wait for each answer (default: ARBITER_CMD_TIMEOUT_MS or 10000). */
  timeoutMs?: number;
  /** Pass the program's stderr through to ours (default false: ignored). */
  stderr?: boolean;
}

export interface Failure { request: number; seat: number; reason: string }

export interface SubprocessAgent extends Agent {
  readonly failures: Failure[];
  /** Stop the program. Safe to call twice. */
  close(): void;
}

export function subprocessAgent(command: string, options: SubprocessOptions = {}): SubprocessAgent {
  const timeoutMs = options.timeoutMs ?? (Number(process.env.ARBITER_CMD_TIMEOUT_MS) || 10000);
  const child: ChildProcess = spawn(command, { shell: true, stdio: ['pipe', 'pipe', options.stderr ? 'inherit' : 'ignore'] });
  let exited = false;
  let request = 0;
  /** Answers still owed to requests that already timed out; their lines are dropped. */
  let stale = 0;
  let waiter: ((line: string | null) => void) | null = null;
  const failures: Failure[] = [];

  child.on('exit', () => {
    exited = true;
    waiter?.(null);
  });
  child.on('error', () => {
    exited = true;
    waiter?.(null);
  });
  child.stdin!.on('error', () => { exited = true; });
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    if (stale > 0) { stale--; return; }
    if (waiter) waiter(line);
  });
  // the program must not keep the host alive once the match is over; a pending answer's timer does
  child.unref();
  (child.stdout as unknown as { unref?: () => void }).unref?.();
  (child.stdin as unknown as { unref?: () => void }).unref?.();

  function send(obj: Json): void {
    if (!exited) child.stdin!.write(JSON.stringify(obj) + '\n');
  }

  function readLine(): Promise<string | null> {
    return new Promise((resolve) => {
      if (exited) return resolve(null);
      const timer = setTimeout(() => {
        waiter = null;
        stale++;
        resolve('\u0000timeout');
      }, timeoutMs);
      waiter = (line) => {
        clearTimeout(timer);
        waiter = null;
        resolve(line);
      };
    });
  }

  const agent: SubprocessAgent = {
    name: `cmd:${command}`,
    failures,
    async choose(ctx: AgentContext): Promise<Json> {
      const id = ++request;
      const fallback = (reason: string): Json => {
        failures.push({ request: id, seat: ctx.seat, reason });
        send({ type: 'fallback', request: id, reason });
        return ctx.menu.actions[0] as Json;
      };
      if (exited) return fallback('the program has exited');
      send({ type: 'choose', request: id, ruleset: ctx.ruleset.id, seat: ctx.seat, kind: ctx.kind, view: ctx.view, menu: ctx.menu as unknown as Json });
      const line = await readLine();
      if (line === null) return fallback('the program has exited');
      if (line === '\u0000timeout') return fallback(`no answer within ${timeoutMs} ms`);
      let answer: unknown;
      try {
        answer = JSON.parse(line);
      } catch {
        return fallback('the answer is not JSON');
      }
      if (answer !== null && typeof answer === 'object' && !Array.isArray(answer) && 'action' in answer) answer = (answer as { action: unknown }).action;
      let verdict;
      try {
        verdict = validateAction(ctx.ruleset, ctx.state, ctx.seat, answer);
      } catch (err) {
        return fallback(`the answer could not be checked: ${(err as Error).message}`);
      }
      if (!verdict.ok) return fallback(`refused (${verdict.error.code}): ${verdict.error.reason}`);
      return answer as Json;
    },
    close() {
      if (!exited) child.kill();
      exited = true;
      lines.close();
    },
  };
  return agent;
}

/** Agent spec `cmd:<command line>`: the match runner registers this under the prefix "cmd". */
export const subprocessAgentFactory: AgentFactory = ({ args }) => {
  if (!args || args.trim() === '') throw new ArbiterError('bad_request', 'cmd: needs a command line, e.g. cmd:python3 bot.py');
  return subprocessAgent(args);
};
