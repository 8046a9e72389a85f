// The `arbiter` command line as a function: `run(argv, io)` parses the arguments, runs one verb with
// the given streams, working directory and environment, and resolves to the exit code. Only the
// module of the verb asked for is loaded (`arbiter --version` loads none), so a command starts
// without compiling or evaluating what it does not use. User mistakes print a one-line typed
// error (no stack trace) and exit 2.

import { Command, CommanderError } from 'commander';
import { ArbiterError } from '@arbiter/engine/kernel';
import { pc, useColorsFor } from './colors.ts';
import { type CliContext, type CliIO, cliContext } from './io.ts';

type Registrar = (program: Command, ctx: CliContext) => void;

/** Each verb's registrar, loaded on demand; verbs registered by one module share its loader. */
const VERBS: Record<string, () => Promise<Registrar>> = {
  showcase: async () => (await import('./core/play.ts')).registerShowcase,
  play: async () => (await import('./core/play.ts')).registerPlay,
  sim: async () => (await import('./core/sim.ts')).registerSim,
  worker: async () => (await import('./core/worker.ts')).registerWorker,
  tournament: async () => (await import('./core/tournament.ts')).registerTournament,
  sweep: async () => (await import('./core/sweep.ts')).registerSweep,
  scenario: async () => (await import('./core/checks.ts')).registerChecks,
  coverage: async () => (await import('./core/checks.ts')).registerChecks,
  register: async () => (await import('./core/checks.ts')).registerChecks,
  replay: async () => (await import('./core/replay.ts')).registerReplay,
  bench: async () => (await import('./core/bench.ts')).registerBench,
  new: async () => (await import('./core/new.ts')).registerNew,
  // the server keeps writing to this process's streams (it is a long-running process of its own)
  serve: async () => (await import('../server/serve.ts')).registerServe,
  drive: async () => (await import('./drive.ts')).registerDrive,
  schema: async () => (await import('./core/packages.ts')).registerPackageVerbs,
  rules: async () => (await import('./core/packages.ts')).registerPackageVerbs,
  lock: async () => (await import('./core/packages.ts')).registerPackageVerbs,
  rulesets: async () => (await import('./core/rulesets.ts')).registerRulesets,
  explore: async () => (await import('./core/explore.ts')).registerExplore,
  transcript: async () => (await import('./core/agents-cli.ts')).registerAgentVerbs,
};

/** Old spellings kept for one release (rewritten by packages.ts, with a note). */
const MOVED = new Set(['ground-edition', 'beats']);

/** The registrars a command line needs: its verb's, or every one (help, a ruleset's tools, a typo). */
async function registrarsFor(verb: string | undefined): Promise<Registrar[]> {
  if (verb === undefined || verb.startsWith('-')) {
    // `--version` needs no verb; `--help` and a bare `arbiter` list them all
    if (verb === '-V' || verb === '--version') return [];
  } else if (verb in VERBS) return [await VERBS[verb]()];
  const { registerRulesetTools } = await import('./core/packages.ts');
  const { PACKAGES } = await import('@arbiter/engine');
  // `arbiter <ruleset> <tool>`: only that ruleset's tools
  const own = PACKAGES.filter((p) => p.ruleset.id === verb && p.tools.length > 0);
  if (own.length > 0) return [(program, ctx) => registerRulesetTools(program, ctx, own)];
  const all = await Promise.all(Object.values(VERBS).map((load) => load()));
  return [...new Set(all), (program, ctx) => registerRulesetTools(program, ctx)];
}

/** Runs one command line (without `node` and the script) and resolves to its exit code. */
export async function run(argv: readonly string[], io: CliIO): Promise<number> {
  useColorsFor(io);
  const ctx = cliContext(io);
  let args = [...argv];
  try {
    if (args[0] !== undefined && MOVED.has(args[0])) {
      const { rewriteDeprecated } = await import('./core/packages.ts');
      args = rewriteDeprecated(args, ctx.err);
    }
    // `schema agent-protocol` is a special name beside the ruleset schemas
    if (args[0] === 'schema' && args[1] === 'agent-protocol') {
      ctx.out((await import('./core/agents-cli.ts')).agentProtocolSchemaText());
      return 0;
    }
    const program = new Command();
    // set before any subcommand exists: subcommands copy these settings when they are made
    program
      .name('arbiter')
      .description('A deterministic rules engine for turn-based games: rules in, replayable simulations out.')
      .version('0.1.0')
      .showHelpAfterError('(run with --help for usage)')
      .configureOutput({ writeOut: ctx.out, writeErr: ctx.err })
      .exitOverride();
    for (const register of await registrarsFor(args[0])) register(program, ctx);
    await program.parseAsync(args, { from: 'user' });
    return ctx.code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof ArbiterError) {
      ctx.err(`arbiter: ${pc.red(err.code)}: ${err.message}\n`);
      return 2;
    }
    ctx.err(`arbiter: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    return 70;
  }
}
