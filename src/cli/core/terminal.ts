// The TerminalIO a package's interactive player (`play RULESET --interactive`) runs on: process
// stdin in raw mode, one key per `nextKey()`, text to stdout. Restores the terminal on close.

import { ArbiterError, type TerminalIO } from '@arbiter/engine/kernel';

export interface ClosableTerminalIO extends TerminalIO {
  close(): void;
}

/** Splits a chunk of terminal input into keys: escape sequences whole, other characters one by one. */
export function splitKeys(chunk: string): string[] {
  const keys: string[] = [];
  // CSI (ESC [ ... final byte) and SS3 (ESC O x) sequences are one key each
  const re = /\u001b\[[0-9;?]*[@-~]|\u001bO.|\u001b|[\s\S]/gu;
  for (const m of chunk.matchAll(re)) keys.push(m[0]);
  return keys;
}

export function terminalIO(
  stdin: NodeJS.ReadStream = process.stdin,
  stdout: NodeJS.WriteStream = process.stdout,
): ClosableTerminalIO {
  if (!stdin.isTTY) throw new ArbiterError('bad_request', '--interactive needs a terminal (stdin is not a TTY)');
  const queue: string[] = [];
  const waiting: ((key: string) => void)[] = [];
  const onData = (data: Buffer | string) => {
    for (const key of splitKeys(typeof data === 'string' ? data : data.toString('utf8'))) {
      const w = waiting.shift();
      if (w) w(key);
      else queue.push(key);
    }
  };
  stdin.setRawMode(true);
  stdin.resume();
  stdin.on('data', onData);
  return {
    get columns() {
      return stdout.columns ?? 80;
    },
    get rows() {
      return stdout.rows ?? 24;
    },
    write: (text) => void stdout.write(text),
    nextKey: () => {
      const k = queue.shift();
      return k !== undefined ? Promise.resolve(k) : new Promise<string>((resolve) => waiting.push(resolve));
    },
    close: () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
    },
  };
}
