// `arbiter play` and the showcase: one match with agents, a readable log, the JSONL log on request.

import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { pc } from '../colors.ts';
import type { Command } from 'commander';
import type { CliContext } from '../io.ts';
import {
  ArbiterError,
  canonicalJson,
  type GameEvent,
  type Agent,
  type RulesetPackage,
  type Json,
} from '../../kernel/index.ts';
import { PACKAGES, rulesetIds } from '../../registry.ts';
import { addAgentOptions, agentSession } from './agents-cli.ts';
import { runMatch } from '../../runners/match.ts';
import { logLines, type LogEntry } from '../../engine/log.ts';
import { addConfigOptions, buildConfig, parseSeed } from './config.ts';
import { terminalIO } from './terminal.ts';
import { describeEvent, entryLines, outcomeLine } from './print.ts';

async function playOne<S, A extends Json>(
  entry: RulesetPackage<S, A>,
  opts: Record<string, unknown>,
  out: (line: string) => void,
): Promise<void> {
  const rs = entry.ruleset;
  const rulesetId = rs.id;
  const seed = parseSeed(opts.seed as string | undefined);
  const config = buildConfig(entry, opts);
  if (opts.interactive) {
    if (entry.terminal) {
      const io = terminalIO();
      try {
        await entry.terminal(io, { seed, config });
      } finally {
        io.close();
      }
      return;
    }
    throw new ArbiterError(
      'not_found',
      `${rulesetId} has no interactive player (have: ${
        PACKAGES.filter((p) => p.terminal)
          .map((p) => p.ruleset.id)
          .join(', ') || 'none'
      })`,
    );
  }
  const given = opts.agents as string | string[] | undefined;
  const spec = given === undefined || (Array.isArray(given) && given.length === 0) ? 'random' : given;
  const json = Boolean(opts.json);
  let agents: Agent[] = [];
  const session = agentSession(opts, typeof opts.log === 'string' ? opts.log : undefined);
  // agents are seated once setup has said how many seats there are (setup runs only once)
  const seating = (seats: number): Agent[] => {
    agents = session.seat(entry, spec, seats);
    if (!json)
      out(
        pc.bold(
          `${rs.title} (${rs.version}) — seed ${seed}, ${seats} seat${seats > 1 ? 's' : ''}: ${agents.map((a, i) => `${i}=${a.name}`).join(' ')}`,
        ),
      );
    return agents;
  };
  const max = opts.maxSteps ? Number(opts.maxSteps) : undefined;
  // open --log before the match: an unwritable path is an error now, not after the whole match;
  // lines are written as they happen, so a match that stops early leaves a log `replay --partial` reads
  let logFd: number | null = null;
  if (typeof opts.log === 'string') {
    try {
      logFd = openSync(opts.log, 'w');
    } catch (err) {
      throw new ArbiterError(
        'bad_request',
        `cannot write --log ${opts.log}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  }
  const writeLog = (line: string) => {
    if (logFd !== null) writeSync(logFd, line + '\n');
  };
  const print =
    json || opts.quiet ? null : (e: LogEntry) => entryLines(rs, e, agents[e.seat].name).forEach((l) => out(l));
  // rulesets that draw their position (mines' board) do so after setup, where they choose, and at the end
  const picture = (state: S, moment: 'setup' | 'step' | 'end', events: readonly GameEvent[]) => {
    if (!rs.describeView) return;
    for (const l of rs.describeView(rs.view(state, null), moment, events)) out(`        ${l}`);
  };
  let result;
  try {
    result = await runMatch(rs, seating, {
      seed,
      config,
      maxSubmissions: max,
      onHeader: (h) => writeLog(canonicalJson(h)),
      onSetup:
        json || opts.quiet
          ? undefined
          : (events, state) => {
              if (events.length > 0) {
                out(`${pc.dim('   0')}  ${pc.cyan('setup')}`);
                // a long automatic opening (mines' initial expansion) reads better as the picture below
                if (rs.describeView && events.length > 8)
                  out(`        ${events.length} automatic steps (each in the --json log); the position after them:`);
                else for (const e of events) out(`        ${describeEvent(rs, e)}`);
              }
              picture(state, 'setup', events);
            },
      onEntry: (e, state) => {
        writeLog(canonicalJson(e));
        print?.(e);
        if (print) picture(state, 'step', e.events);
      },
      pkg: entry as RulesetPackage,
      policy: session.policy,
      onAttempt: session.onAttempt,
    });
    writeLog(canonicalJson(result.footer));
  } finally {
    if (logFd !== null) closeSync(logFd);
  }
  const lines = logLines(result);
  if (json) {
    for (const l of lines) out(l);
    return;
  }
  picture(result.state, 'end', []);
  out(outcomeLine(result.outcome));
  out(
    pc.dim(
      `${result.footer.submissions} submissions, ${result.footer.events} events, event-stream hash ${result.footer.hash}`,
    ),
  );
  for (const [seat, r] of result.seats.entries()) {
    const defaults = Object.entries(r.defaults).map(([k, v]) => `${k} ×${v}`);
    if (defaults.length === 0 && !r.failed && !r.usage) continue;
    const usage = r.usage
      ? `; ${r.usage.requests} requests, tokens ${r.usage.input_tokens} in / ${r.usage.output_tokens} out`
      : '';
    out(
      pc.dim(
        `seat ${seat} (${r.agent}): ${defaults.length ? `defaults ${defaults.join(', ')}` : 'no defaults'}${r.failed ? ', FAILED' : ''}${usage}`,
      ),
    );
  }
  if (session.dir && existsSync(session.dir)) out(pc.dim(`agent transcripts and stderr: ${session.dir}`));
}

function unknownRuleset(verb: string) {
  return (id: string | undefined): void => {
    if (id === undefined)
      throw new ArbiterError('bad_request', `${verb} needs a ruleset: one of ${rulesetIds().join(', ')}`);
    throw new ArbiterError('not_found', `unknown ruleset "${id}" (known: ${rulesetIds().join(', ')})`);
  };
}

/**
 * A verb with one subcommand per ruleset (`play ground`), so each ruleset's --help lists its own
 * config flags. A name that is not a ruleset reaches the group's action and gets a typed error.
 */
export function perRulesetVerb(
  program: Command,
  verb: string,
  description: string,
  build: (cmd: Command, pkg: RulesetPackage) => void,
): Command {
  const group = program
    .command(verb)
    .description(description)
    .argument('[ruleset]', `one of: ${rulesetIds().join(', ')}`)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(unknownRuleset(verb));
  for (const pkg of PACKAGES) {
    const cmd = group.command(pkg.ruleset.id).description(`${verb} ${pkg.ruleset.title}`);
    build(cmd, pkg);
  }
  return group;
}

export function registerPlay(program: Command, ctx: CliContext): void {
  perRulesetVerb(program, 'play', 'play one match with agents and print a readable log', (cmd, pkg) => {
    cmd
      .option('-s, --seed <n>', 'game seed', '1')
      .option(
        '-a, --agents <spec>',
        `agents per seat: "a,b,c" cycling over seats (${Object.keys(pkg.agents).concat(['random', 'first']).join(', ')}, or cmd:<command line>, http:<url>, llm:openai:<model>, llm:anthropic:<model> — see docs/agents.md); repeat the flag to give one whole spec per seat (a cmd: line may then hold commas)`,
        (v: string, prev: string[]) => [...prev, v],
        [] as string[],
      )
      .option('--json', 'print the JSON Lines match log instead of the readable log')
      .option('--log <file>', 'also write the JSON Lines match log to a file')
      .option('-q, --quiet', 'print only the outcome')
      .option('--max-steps <n>', 'stop after this many submissions');
    if (pkg.terminal) cmd.option('-i, --interactive', 'play yourself in the terminal');
    addAgentOptions(cmd);
    addConfigOptions(cmd, pkg);
    cmd.action(async (opts: Record<string, unknown>) => {
      await playOne(pkg, opts, (l) => ctx.out(l + '\n'));
    });
  });
}

export function registerShowcase(program: Command, ctx: CliContext): void {
  program
    .command('showcase')
    .description('the main job on embedded defaults: one bot match of every shipped ruleset, with a readable log')
    .option('-s, --seed <n>', 'game seed', '1')
    .option('-q, --quiet', 'print only each outcome')
    .action(async (opts: Record<string, unknown>) => {
      for (const entry of PACKAGES) {
        const heuristic = Object.keys(entry.agents)[0] ?? 'random';
        ctx.out('\n' + pc.bold(pc.underline(`== ${entry.ruleset.id} ==`)) + '\n');
        await playOne(entry, { seed: opts.seed, agents: heuristic, quiet: opts.quiet }, (l) => ctx.out(l + '\n'));
      }
    });
}
