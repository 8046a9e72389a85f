// The verbs every ruleset package gets from its data: `arbiter <ruleset> <tool> ...` built from the
// package's `tools`, and the generic `schema`, `rules` and `lock` (`rulesets` is core/rulesets.ts). A
// package tool named like a generic verb (bnc's `schema`, `lock`) is that ruleset's own answer to it.

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import type { CliContext } from '../io.ts';
import { ArbiterError, type RulesetPackage, type RulesetTool, type ToolIO } from '@arbiter/engine/kernel';
import { getPackage, PACKAGES, rulesetIds } from '@arbiter/engine';
import { MAX_JSON_FILE, readTextFile } from './config.ts';
import { ROOT } from '../paths.ts';

/**
 * The CLI's ToolIO: paths relative to the run's working directory, parent folders created on
 * write, text to its stdout/stderr. A file to read is size-limited (an edition file, say): a huge
 * one is refused with too_large before it is read.
 */
function nodeToolIO(ctx: CliContext): ToolIO {
  const cwd = ctx.io.cwd;
  return {
    cwd,
    readText: (path) => readTextFile(resolve(cwd, path), MAX_JSON_FILE, 'file'),
    writeText: (path, text) => {
      const file = resolve(cwd, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    },
    out: ctx.out,
    err: ctx.err,
  };
}

type ToolValues = Record<string, string | number | boolean | undefined>;

function parseInt10(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n)) throw new ArbiterError('bad_request', `--${name} must be an integer, got "${v}"`);
    return n;
  };
}

/**
 * Adds one tool as a subcommand of `group`. Option values reach the tool under the names it
 * declared: commander stores `--no-guess` as `guess: false` (its negation rule), so a boolean
 * option named `no-x` is read back as `{'no-x': true}` when given.
 */
export function addTool(
  group: Command,
  tool: RulesetTool,
  io: () => ToolIO,
  exit: (code: number) => void = () => {},
): Command {
  const cmd = group.command(tool.name).description(tool.description);
  for (const a of tool.arguments ?? []) cmd.argument(a.required ? `<${a.name}>` : `[${a.name}]`, a.description);
  const read: [string, Option][] = [];
  for (const o of tool.options ?? []) {
    const opt = new Option(
      o.type === 'boolean' ? `--${o.name}` : `--${o.name} <${o.type === 'int' ? 'n' : 'value'}>`,
      o.description,
    );
    if (o.type === 'int') opt.argParser(parseInt10(o.name));
    if (o.default !== undefined && !opt.negate) opt.default(o.default);
    cmd.addOption(opt);
    read.push([o.name, opt]);
  }
  cmd.action(async (...raw: unknown[]) => {
    const args = raw.slice(0, (tool.arguments ?? []).length).filter((v): v is string => typeof v === 'string');
    const options: ToolValues = {};
    for (const [name, opt] of read) {
      const v: unknown = cmd.getOptionValue(opt.attributeName());
      if (opt.negate) options[name] = v === false ? true : undefined;
      else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') options[name] = v;
    }
    const code = await tool.run(args, options, io());
    if (code !== 0) exit(code);
  });
  return cmd;
}

/** `arbiter <ruleset> <tool>` for every package with tools (joining a group already made). */
export function registerRulesetTools(
  program: Command,
  ctx: CliContext,
  packages: readonly RulesetPackage[] = PACKAGES,
): void {
  for (const pkg of packages) {
    if (pkg.tools.length === 0) continue;
    const id = pkg.ruleset.id;
    const group =
      program.commands.find((c) => c.name() === id) ??
      program.command(id).description(`${pkg.ruleset.title}: the ruleset's own tools`);
    for (const tool of pkg.tools)
      if (!group.commands.some((c) => c.name() === tool.name)) addTool(group, tool, () => nodeToolIO(ctx), ctx.exit);
  }
}

function toolOf(pkg: RulesetPackage, name: string): RulesetTool | undefined {
  return pkg.tools.find((t) => t.name === name);
}

function headSha(cwd: string): string {
  let sha: string;
  try {
    sha = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    throw new ArbiterError('not_found', 'git rev-parse HEAD failed: lock runs in a git checkout with a commit');
  }
  if (!/^[0-9a-f]{40}$/.test(sha)) throw new ArbiterError('bad_config', `unexpected commit id "${sha}"`);
  return sha;
}

/** Where `rules --write` puts a ruleset's page, and where the committed copies live. */
export function rulesPagePath(id: string, root = ROOT): string {
  return resolve(root, 'docs', 'rules', `${id}.md`);
}

function ids(): string {
  return rulesetIds().join(', ');
}

export function registerPackageVerbs(program: Command, ctx: CliContext): void {
  program
    .command('schema')
    .description('print the JSON Schema of the config and of every action family, as the ruleset declares them')
    .argument('<ruleset>', `one of: ${ids()}`)
    .option('--action <type>', 'only this action family')
    .action(async (id: string, opts: { action?: string }) => {
      const pkg = getPackage(id);
      const own = toolOf(pkg, 'schema');
      if (own) {
        const code = await own.run([], { action: opts.action }, nodeToolIO(ctx));
        if (code !== 0) ctx.exit(code);
        return;
      }
      // derived from seeded games: loaded only for this verb
      const { actionSchemas } = await import('../../runners/schema.ts');
      const all = actionSchemas(pkg.ruleset);
      if (opts.action) {
        const one = all.actions[opts.action];
        if (!one)
          throw new ArbiterError(
            'not_found',
            `no action family "${opts.action}" in ${id} (known: ${Object.keys(all.actions).join(', ')})`,
          );
        ctx.out(JSON.stringify(one, null, 2) + '\n');
      } else ctx.out(JSON.stringify(all, null, 2) + '\n');
    });

  program
    .command('rules')
    .description('print the public rules page generated from the catalog (committed under docs/rules/)')
    .argument('<ruleset>', `one of: ${ids()}`)
    .option('--write', 'write docs/rules/<ruleset>.md instead of printing')
    .action((id: string, opts: { write?: boolean }) => {
      const page = getPackage(id).rulesPage();
      if (opts.write) {
        const file = rulesPagePath(id, ctx.io.cwd);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, page);
        ctx.err(`wrote ${file}\n`);
      } else ctx.out(page);
    });

  program
    .command('lock')
    .description("pin the engine commit (git HEAD) in the ruleset's release manifest (rulesets that publish releases)")
    .argument('<ruleset>', `one of: ${ids()}`)
    .option('--check', 'verify the committed release (manifest and page) against this engine instead of writing it')
    .action(async (id: string, opts: { check?: boolean }) => {
      const pkg = getPackage(id);
      const own = toolOf(pkg, 'lock');
      if (!own) {
        const have = PACKAGES.filter((p) => toolOf(p, 'lock')).map((p) => p.ruleset.id);
        throw new ArbiterError(
          'not_found',
          `${id} has no release manifest, so there is nothing to lock (rulesets that publish releases: ${have.join(', ') || 'none'})`,
        );
      }
      const code = await own.run([], opts.check ? { check: true } : { sha: headSha(ctx.io.cwd) }, nodeToolIO(ctx));
      if (code !== 0) ctx.exit(code);
    });
}

/**
 * Old spellings kept for one release: rewritten to the new ones with a note on stderr, when the
 * new spelling exists (its package declares the tool). Returns the argv to parse.
 */
export function rewriteDeprecated(argv: string[], note: (text: string) => void): string[] {
  const [verb, ...rest] = argv;
  if (verb === undefined || PACKAGES.some((p) => p.ruleset.id === verb)) return argv;
  // the old spellings were `ID-TOOL` and a bare tool name that one ruleset alone declares; both are
  // found from the packages, so no ruleset id is written here
  const owners = PACKAGES.filter((p) => toolOf(p, verb) !== undefined);
  const dashed = PACKAGES.find(
    (p) => verb.startsWith(`${p.ruleset.id}-`) && toolOf(p, verb.slice(p.ruleset.id.length + 1)),
  );
  const to: [string, string] | null = dashed
    ? [dashed.ruleset.id, verb.slice(dashed.ruleset.id.length + 1)]
    : owners.length === 1
      ? [owners[0].ruleset.id, verb]
      : null;
  if (!to) return argv;
  note(
    `arbiter: note: "arbiter ${verb}" is now "arbiter ${to.join(' ')}"; the old spelling goes in the next release\n`,
  );
  return [...to, ...rest];
}
