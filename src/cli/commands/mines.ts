// Interim adapter until the CLI runs `pkg.terminal` itself: `minesPackage.terminal` as the
// interactive player, with a TerminalIO over this process's stdin/stdout. (The package's tools
// are already registered by the generic registerPackageTools.) Delete it once the generic
// mechanism is on main.

import type { JsonObject, TerminalIO } from '../../kernel/index.ts';
import { minesPackage } from '../../rulesets/mines/index.ts';

/** The process terminal as a TerminalIO: raw keys from stdin, text to stdout. */
function processTerminal(): { io: TerminalIO; close(): void } {
  const stdin = process.stdin;
  const tty = stdin.isTTY === true;
  const queue: string[] = [];
  const waiting: Array<(k: string) => void> = [];
  const onData = (d: string) => {
    const w = waiting.shift();
    if (w) w(d);
    else queue.push(d);
  };
  const onEnd = () => {
    for (const w of waiting.splice(0)) w('');
  };
  if (tty) stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.on('data', onData);
  stdin.on('end', onEnd);
  stdin.resume();
  return {
    io: {
      columns: process.stdout.columns ?? 80,
      rows: process.stdout.rows ?? 24,
      write: (t) => void process.stdout.write(t),
      nextKey: () =>
        queue.length
          ? Promise.resolve(queue.shift() as string)
          : stdin.readableEnded
            ? Promise.resolve('')
            : new Promise((r) => waiting.push(r)),
    },
    close() {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      if (tty) stdin.setRawMode(false);
      stdin.pause();
    },
  };
}

export async function playMinesInteractive(options: { seed: number; config: Record<string, unknown> }): Promise<void> {
  const t = processTerminal();
  try {
    await minesPackage.terminal?.(t.io, { seed: options.seed, config: options.config as JsonObject });
  } finally {
    t.close();
  }
}
