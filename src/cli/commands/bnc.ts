// Transitional: the old bnc spellings (`schema bnc`, `rules bnc`, `lock bnc`, `beats LOG`), all
// delegating to bncPackage (whose tools the CLI also offers as `arbiter bnc <tool>`), until the
// generic schema/rules/lock verbs land; then this file and its line in src/cli/extensions.ts go.

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { ArbiterError, type RulesetTool, type ToolIO } from '../../kernel/index.ts';
import { bncPackage } from '../../rulesets/bnc/index.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** File and console access for a ruleset tool, rooted at `root`. */
function nodeToolIO(root: string): ToolIO {
  return {
    cwd: root,
    readText: (p) => readFileSync(resolve(root, p), 'utf8'),
    writeText: (p, text) => {
      const file = resolve(root, p);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    },
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  };
}

function tool(name: string): RulesetTool {
  const t = bncPackage.tools.find((x) => x.name === name);
  if (!t) throw new ArbiterError('not_found', `bnc has no tool "${name}"`);
  return t;
}

async function runTool(
  name: string,
  args: string[],
  options: Record<string, string | number | boolean | undefined>,
): Promise<void> {
  const code = await tool(name).run(args, options, nodeToolIO(process.cwd()));
  if (code !== 0) process.exitCode = code;
}

function headSha(root: string): string {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    throw new ArbiterError('not_found', 'git rev-parse HEAD failed: is this a git checkout with a commit?');
  }
}

function onlyBnc(id: string): void {
  if (id !== 'bnc') throw new ArbiterError('not_found', `this command knows only the bnc ruleset (got "${id}")`);
}

function taken(program: Command, name: string): boolean {
  return program.commands.some((c) => c.name() === name);
}

export function register(program: Command): void {
  if (!taken(program, 'schema')) {
    program
      .command('schema')
      .argument('<ruleset>', 'bnc')
      .option('--action <type>', 'only this action family')
      .description('print the JSON Schema of every action (old spelling of `arbiter bnc schema`)')
      .action((id: string, opts: { action?: string }) => {
        onlyBnc(id);
        return runTool('schema', [], opts);
      });
  }
  if (!taken(program, 'rules')) {
    program
      .command('rules')
      .argument('<ruleset>', 'bnc')
      .option('--write', 'write docs/rules/bnc.md instead of printing')
      .description('generate the public rules page from the engine catalog')
      .action((id: string, opts: { write?: boolean }) => {
        onlyBnc(id);
        const page = bncPackage.rulesPage();
        if (opts.write) writeFileSync(`${ROOT}docs/rules/bnc.md`, page);
        else process.stdout.write(page);
      });
  }
  if (!taken(program, 'lock')) {
    program
      .command('lock')
      .argument('<ruleset>', 'bnc')
      .description('release the ruleset: pin git HEAD in rulesets/<version>/manifest.json with the published page')
      .action((id: string) => {
        onlyBnc(id);
        const code = tool('lock').run([], { sha: headSha(ROOT) }, nodeToolIO(ROOT));
        if (code !== 0) process.exitCode = 1;
      });
  }
  if (!taken(program, 'beats')) {
    program
      .command('beats')
      .argument('<log>', 'a JSON Lines match log')
      .option('--json', 'one JSON object per beat')
      .description('list the beats of a bnc match log (old spelling of `arbiter bnc beats`)')
      .action((file: string, opts: { json?: boolean }) => runTool('beats', [file], opts));
  }
}
