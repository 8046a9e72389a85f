// The verbs every package gets from its data: per-ruleset --help, schema, rules, lock, rulesets,
// `arbiter <ruleset> <tool>` built from ToolOption/ToolArgument, and the old spellings' rewrite.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import type { RulesetPackage, RulesetTool, ToolIO } from '../../packages/engine/src/kernel/index.ts';
import { addTool, registerRulesetTools, rewriteDeprecated } from '../../src/cli/core/packages.ts';
import { splitKeys } from '../../src/cli/core/terminal.ts';
import { actionSchemas } from '../../src/runners/schema.ts';
import { PACKAGES } from '../../packages/engine/src/registry.ts';
import { cliContext } from '../../src/cli/io.ts';
import { cli } from '../support/cli.ts';

test("play RULESET --help lists only that ruleset's config flags", async () => {
  const ground = (await cli(['play', 'ground', '--help'])).out;
  const ttt = (await cli(['play', 'tictactoe', '--help'])).out;
  assert.match(ground, /--players/);
  assert.doesNotMatch(ground, /--width/);
  assert.doesNotMatch(ttt, /--players|--width|--preset/);
  assert.match((await cli(['sim', 'mines', '--help'])).out, /--width/);
});

test('a flag of another ruleset is refused; an unknown ruleset is a typed error', async () => {
  const r = await cli(['play', 'tictactoe', '--players', '3']);
  assert.equal(r.code, 2);
  assert.match(r.err, /unknown option '--players'/);
  const u = await cli(['sim', 'nope']);
  assert.equal(u.code, 2);
  assert.match(u.err, /^arbiter: not_found: unknown ruleset "nope"/);
});

test('rulesets prints the game type and each agent with what it reads', async () => {
  const rows = JSON.parse((await cli(['rulesets', '--json'])).out) as {
    id: string;
    gameType: { seats: { min: number } };
    agents: { name: string; reads: string }[];
  }[];
  assert.deepEqual(
    rows.map((r) => r.id),
    PACKAGES.map((p) => p.ruleset.id),
  );
  for (const r of rows) {
    assert.ok(r.gameType.seats.min >= 1);
    assert.ok(r.agents.some((a) => a.name === 'random' && a.reads === 'view'));
  }
  assert.match((await cli(['rulesets'])).out, /agents: random \(view\), first \(view\)/);
});

test('lock refuses, with a reason, a ruleset that has no release manifest', async () => {
  const r = await cli(['lock', 'tictactoe']);
  assert.equal(r.code, 2);
  assert.match(r.err, /tictactoe has no release manifest/);
});

test('schema publishes the declared config and every declared action family; without declarations it derives them from menus', async () => {
  for (const pkg of PACKAGES) {
    const s = actionSchemas(pkg.ruleset);
    assert.deepEqual(Object.keys(s.actions).sort(), Object.keys(pkg.ruleset.schemas!.actions).sort(), pkg.ruleset.id);
    assert.deepEqual(s.config, pkg.ruleset.configSchema ?? null);
  }
  const out = JSON.parse((await cli(['schema', 'duel'])).out) as { actions: Record<string, unknown> };
  // the paid-ability decision's families, which the menu-derived schema of earlier rounds missed
  assert.ok(out.actions.score && out.actions.pass);
  const { schemas: _declared, ...bare } = PACKAGES[0].ruleset;
  const derived = actionSchemas(bare, 2, 300);
  assert.match(derived.derived_from, /random games/);
  assert.ok(Object.values(derived.sources).every((k) => k === 'menus'));
});

function captureIO(): ToolIO & { text: string } {
  const io = {
    text: '',
    cwd: '.',
    readText: () => '',
    writeText: () => undefined,
    out: (t: string) => void (io.text += t),
    err: (t: string) => void (io.text += t),
  };
  return io;
}

test('tools become subcommands: arguments, int options and a --no-x boolean reach the tool under their declared names', async () => {
  let seen: { args: string[]; options: Record<string, unknown> } | null = null;
  const tool: RulesetTool = {
    name: 'gen',
    description: 'test tool',
    arguments: [{ name: 'file', description: 'a file', required: true }],
    options: [
      { name: 'width', description: 'w', type: 'int', default: 5 },
      { name: 'no-guess', description: 'only no-guess boards', type: 'boolean' },
      { name: 'json', description: 'json', type: 'boolean' },
    ],
    run(args, options, io) {
      seen = { args, options };
      io.out('ran');
      return 0;
    },
  };
  const io = captureIO();
  const run = async (argv: string[]) => {
    const program = new Command().exitOverride();
    const group = program.command('x');
    addTool(group, tool, () => io);
    await program.parseAsync(['node', 'arbiter', 'x', 'gen', ...argv]);
    return seen!;
  };
  assert.deepEqual(await run(['f.json', '--width', '9', '--no-guess']), {
    args: ['f.json'],
    options: { width: 9, 'no-guess': true },
  });
  assert.deepEqual(await run(['f.json', '--json']), {
    args: ['f.json'],
    options: { width: 5, 'no-guess': undefined, json: true },
  });
  assert.equal(io.text, 'ranran');
});

test('registerRulesetTools joins a group an older module already made', () => {
  const program = new Command();
  program.command('demo').command('old');
  const tool: RulesetTool = { name: 'new', description: 'd', run: () => 0 };
  const pkg = { ...PACKAGES[0], ruleset: { ...PACKAGES[0].ruleset, id: 'demo' }, tools: [tool] } as RulesetPackage;
  registerRulesetTools(
    program,
    cliContext({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: '.', env: {} }),
    [pkg],
  );
  assert.deepEqual(
    program.commands.find((c) => c.name() === 'demo')!.commands.map((c) => c.name()),
    ['old', 'new'],
  );
});

test('old spellings are rewritten with a note only when the new tool exists', () => {
  const notes: string[] = [];
  const argv = ['ground-edition', 'x.json'];
  const out = rewriteDeprecated(argv, (t) => notes.push(t));
  const groundHasEdition = PACKAGES.some((p) => p.ruleset.id === 'ground' && p.tools.some((t) => t.name === 'edition'));
  if (groundHasEdition) {
    assert.deepEqual(out, ['ground', 'edition', 'x.json']);
    assert.match(notes[0], /is now "arbiter ground edition"/);
  } else assert.deepEqual(out, argv);
  assert.deepEqual(
    rewriteDeprecated(['play', 'tictactoe'], (t) => notes.push(t)),
    ['play', 'tictactoe'],
  );
});

test('terminal input splits into keys, escape sequences whole', () => {
  assert.deepEqual(splitKeys('q\u001b[A\r\u001b[1;5Cx'), ['q', '\u001b[A', '\r', '\u001b[1;5C', 'x']);
});

test('[CLI-TOOLS] every shipped ruleset tool is served by addTool: an int option names the text given, each tool has --help', async () => {
  // the second registrar (src/cli/extensions.ts) parsed ints itself and let NaN reach the tool
  const r = await cli(['mines', 'generate', '--width', 'x', '--height', '9', '--mines', '10']);
  assert.equal(r.code, 2);
  assert.match(r.err, /^arbiter: bad_request: --width must be an integer, got "x"/);
  for (const pkg of PACKAGES)
    for (const tool of pkg.tools) {
      const help = await cli([pkg.ruleset.id, tool.name, '--help']);
      assert.equal(help.code, 0, `${pkg.ruleset.id} ${tool.name}: ${help.err}`);
      assert.match(help.out, new RegExp(`Usage: arbiter ${pkg.ruleset.id} ${tool.name}`));
    }
});
