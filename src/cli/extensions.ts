// Ruleset-specific CLI commands and interactive players plug in here, one import each, so the
// core CLI (src/cli/main.ts) stays generic. A command module exports `register(program)`.

import type { Command } from 'commander';
import { register as registerBnc } from './commands/bnc.ts';
import { register as registerExplore } from './commands/explore.ts';
import { playMinesInteractive } from './commands/mines.ts';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ToolIO } from '../kernel/index.ts';
import { PACKAGES } from '../registry.ts';
import { MAX_JSON_FILE, readTextFile } from './core/config.ts';

export type CommandRegistrar = (program: Command) => void;

/** A terminal UI for a person to play one ruleset: `arbiter play RULESET --interactive`. */
export type InteractivePlayer = (options: { seed: number; config: Record<string, unknown> }) => Promise<void>;

export const commandModules: CommandRegistrar[] = [
  // e.g. (await import('./commands/explore.ts')).register — add static imports above and list them here
  registerBnc,
  registerExplore,
  registerPackageTools,
];

export const interactivePlayers: Record<string, InteractivePlayer> = {
  mines: playMinesInteractive,
};

/** The CLI's ToolIO: files relative to the working directory, text to stdout/stderr. */
function cliToolIO(): ToolIO {
  const cwd = process.cwd();
  return {
    cwd,
    // size-limited (an edition file, say): a huge file is refused with too_large before it is read
    readText: (path) => readTextFile(resolve(cwd, path), MAX_JSON_FILE, 'file'),
    writeText: (path, text) => writeFileSync(resolve(cwd, path), text),
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
  };
}

/**
 * `arbiter <ruleset> <tool> ...` for each package that declares tools as data (ground today).
 * Packages whose verbs still live in commands/*.ts keep them there until they move.
 */
function registerPackageTools(program: Command): void {
  for (const pkg of PACKAGES) {
    if (pkg.tools.length === 0) continue;
    const group = program.command(pkg.ruleset.id).description(`${pkg.ruleset.title}: ruleset tools`);
    for (const tool of pkg.tools) {
      const cmd = group.command(tool.name).description(tool.description);
      for (const a of tool.arguments ?? []) cmd.argument(a.required ? `<${a.name}>` : `[${a.name}]`, a.description);
      for (const o of tool.options ?? []) {
        const flag = o.type === 'boolean' ? `--${o.name}` : `--${o.name} <value>`;
        if (o.type === 'int') cmd.option(flag, o.description, (v: string) => Number.parseInt(v, 10), o.default);
        else cmd.option(flag, o.description, typeof o.default === 'number' ? String(o.default) : o.default);
      }
      cmd.action(async (...raw: unknown[]) => {
        const positional = raw
          .slice(0, (tool.arguments ?? []).length)
          .filter((v): v is string => typeof v === 'string');
        const options = cmd.opts<Record<string, string | number | boolean | undefined>>();
        process.exitCode = await tool.run(positional, options, cliToolIO());
      });
    }
  }
}
