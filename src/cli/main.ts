// The `arbiter` command line: generic verbs here and in core/, each ruleset's tools from its package
// (`arbiter <ruleset> <tool>`), older ruleset verbs from extensions.ts until they move.
// User mistakes print a one-line typed error (no stack trace) and exit 2.

import { Command, CommanderError } from 'commander';
import pc from 'picocolors';
import { registerPackageVerbs, registerRulesetTools, rewriteDeprecated } from './core/packages.ts';
import { ArbiterError } from '../kernel/index.ts';
import { registerBench } from './core/bench.ts';
import { registerNew } from './core/new.ts';
import { registerChecks } from './core/checks.ts';
import { registerPlay, registerShowcase } from './core/play.ts';
import { registerReplay } from './core/replay.ts';
import { registerSim } from './core/sim.ts';
import { registerWorker } from './core/worker.ts';
import { registerTournament } from './core/tournament.ts';
import { registerSweep } from './core/sweep.ts';
import { agentProtocolSchemaText, registerAgentVerbs } from './core/agents-cli.ts';
import { registerServe } from '../server/serve.ts';
import { DEFAULT_MAX_LINE, runDrive } from './drive.ts';
import { commandModules } from './extensions.ts';

// a reader that stops early (`| head`) is not an error
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const program = new Command();
program
  .name('arbiter')
  .description('A deterministic rules engine for turn-based games: rules in, replayable simulations out.')
  .version('0.1.0')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

registerShowcase(program);
registerPlay(program);
registerSim(program);
registerWorker(program);
registerTournament(program);
registerSweep(program);
registerChecks(program);
registerReplay(program);
registerBench(program);
registerNew(program);
registerServe(program);

program
  .command('drive')
  .description('the headless JSON-lines protocol on stdin/stdout (see docs/drive.md)')
  .option(
    '--max-line <bytes>',
    'longest request line accepted; a longer one is skipped and answered too_large',
    String(DEFAULT_MAX_LINE),
  )
  .action(async (opts: { maxLine: string }) => {
    const maxLine = Number(opts.maxLine);
    if (!Number.isInteger(maxLine) || maxLine < 64 || maxLine > 512 * 1024 * 1024) {
      throw new ArbiterError(
        'bad_request',
        `--max-line must be an integer from 64 to 536870912, got "${opts.maxLine}"`,
      );
    }
    await runDrive(process.stdin, process.stdout, { maxLine });
  });

registerPackageVerbs(program);
for (const register of commandModules) register(program);
registerAgentVerbs(program);
registerRulesetTools(program);

try {
  // `schema agent-protocol` is a special name beside the ruleset schemas (whoever registers `schema`)
  if (process.argv[2] === 'schema' && process.argv[3] === 'agent-protocol')
    process.stdout.write(agentProtocolSchemaText());
  else await program.parseAsync(rewriteDeprecated(process.argv));
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? 0 : 2;
  } else if (err instanceof ArbiterError) {
    process.stderr.write(`arbiter: ${pc.red(err.code)}: ${err.message}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`arbiter: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = 70;
  }
}
