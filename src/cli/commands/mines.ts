// Interim adapter until the CLI builds ruleset verbs from packages itself: turns
// `minesPackage.tools` into `arbiter mines <tool>` commands and `minesPackage.terminal` into the
// interactive player, supplying ToolIO and TerminalIO from this process. Delete it once the
// generic mechanism is on main.

import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { JsonObject, RulesetPackage, TerminalIO, ToolIO } from '../../kernel/index.ts';
import { minesPackage } from '../../rulesets/mines/index.ts';

const camel = (s: string) => s.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

const processIO: ToolIO = {
  readText: (p) => readFileSync(p, 'utf8'),
  writeText: (p, t) => writeFileSync(p, t),
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  cwd: process.cwd(),
};

function registerTools(program: Command, pkg: RulesetPackage): void {
  const group = program.command(pkg.ruleset.id).description(`${pkg.ruleset.id} tools: ${pkg.tools.map((t) => t.name).join(', ')}`);
  for (const tool of pkg.tools) {
    const cmd = group.command(tool.name).description(tool.description);
    for (const a of tool.arguments ?? []) cmd.argument(a.required ? `<${a.name}>` : `[${a.name}]`, a.description);
    for (const o of tool.options ?? []) {
      if (o.type === 'boolean') cmd.option(`--${o.name}`, o.description);
      else cmd.option(`--${o.name} <value>`, o.description, o.default === undefined ? undefined : String(o.default));
    }
    cmd.action(async (...params: unknown[]) => {
      const opts = params[params.length - 2] as Record<string, unknown>;
      const args = params.slice(0, (tool.arguments ?? []).length).map(String);
      const given: Record<string, string | number | boolean | undefined> = {};
      for (const o of tool.options ?? []) {
        let v = o.name.startsWith('no-') ? (opts[camel(o.name.slice(3))] === false ? true : undefined) : opts[camel(o.name)];
        if (o.type === 'int' && typeof v === 'string') v = Number(v);
        given[o.name] = v as string | number | boolean | undefined;
      }
      const code = await tool.run(args, given, processIO);
      if (code !== 0) process.exitCode = code;
    });
  }
}

export function register(program: Command): void {
  registerTools(program, minesPackage);
}

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
      nextKey: () => (queue.length ? Promise.resolve(queue.shift() as string) : stdin.readableEnded ? Promise.resolve('') : new Promise((r) => waiting.push(r))),
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
