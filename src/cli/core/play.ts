// `arbiter play` and the showcase: one match with agents, a readable log, the JSONL log on request.

import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { pc } from '../colors.ts';
import type { Command } from 'commander';
import type { CliContext } from '../io.ts';
import {
  ArbiterError,
  cloneJson,
  canonicalJson,
  type GameEvent,
  type Agent,
  type RulesetPackage,
  type Json,
  type JsonObject,
} from '@arbiter/engine/kernel';
import { getPackage, PACKAGES, rulesetIds } from '@arbiter/engine';
import { addAgentOptions, agentSession } from './agents-cli.ts';
import { runMatch, type MatchResult } from '@arbiter/engine/match';
import { logLines, type LogEntry } from '@arbiter/engine/match';
import { MatchStop } from '@arbiter/engine/agents';
import { isTransportSpec } from '../../agents/resolve.ts';
import { verifyLogText } from '../../runners/replay.ts';
import { addConfigOptions, buildConfig, parseSeed } from './config.ts';
import { terminalIO } from './terminal.ts';
import { describeEvent, entryLines, outcomeLine } from './print.ts';

async function playOne<S, A extends Json>(
  entry: RulesetPackage<S, A>,
  opts: Record<string, unknown>,
  ctx: CliContext,
): Promise<void> {
  const out = (line: string) => ctx.out(line + '\n');
  const rs = entry.ruleset;
  const rulesetId = rs.id;
  const resume = typeof opts.resume === 'string' ? readResumable(opts.resume, rulesetId, opts) : null;
  const seed = resume ? resume.seed : parseSeed(opts.seed as string | undefined);
  const config = resume ? (resume.config as JsonObject) : buildConfig(entry, opts);
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
  let early: Agent[] | null = null;
  const seating = (seats: number): Agent[] => {
    agents = early ?? session.seat(entry, spec, seats);
    if (!json)
      out(
        pc.bold(
          `${rs.title} (${rs.version}) — seed ${seed}, ${seats} seat${seats > 1 ? 's' : ''}: ${agents.map((a, i) => `${i}=${a.name}`).join(' ')}`,
        ),
      );
    return agents;
  };
  const max = opts.maxSteps ? Number(opts.maxSteps) : undefined;
  // model seats are seated before the log opens: a missing key is an error before any file or
  // request, and the cost estimate needs them
  const specs = Array.isArray(spec) ? spec : String(spec).split(',');
  if (typeof opts.lineup === 'string' || specs.some((s) => isTransportSpec(s.trim()) && s.trim().startsWith('llm:'))) {
    const seats = rs.seats(rs.setup(cloneJson(config), seed, []));
    early = session.seat(entry, spec, seats);
    const estimate = await session.estimate(entry as RulesetPackage, seed, config);
    if (estimate) {
      const say = opts.estimate ? out : (l: string) => ctx.err(l + '\n');
      say(`cost estimate (a dry run of seed ${seed}, each model seat playing its default; the line-up's prices):`);
      for (const l of estimate.lines) say(`  ${l}`);
      say(
        `  total $${estimate.low.toFixed(4)}–$${estimate.high.toFixed(4)} (low: cached system prompt, ~100 output tokens a decision; high: no cache hit, every answer at the output limit)`,
      );
    } else if (opts.estimate)
      throw new ArbiterError('bad_config', '--estimate needs model seats with a price each (prices: in the line-up)');
    if (opts.estimate) {
      for (const a of early) void Promise.resolve(a.close?.()).catch(() => {});
      return;
    }
  } else if (opts.estimate)
    throw new ArbiterError('bad_request', '--estimate needs model seats (--lineup or llm: agents)');
  // open --log before the match: an unwritable path is an error now, not after the whole match;
  // lines are written as they happen, so a match that stops early leaves a log `replay --partial` reads
  let logFd: number | null = null;
  let headerWritten = false;
  if (resume && opts.log !== undefined && opts.log !== opts.resume)
    throw new ArbiterError('bad_request', '--resume LOG writes to LOG itself; leave out --log');
  if (resume) opts.log = opts.resume;
  if (typeof opts.log === 'string') {
    try {
      // a resumed log is rewritten in place: its first lines again, byte for byte, then the rest
      logFd = openSync(opts.log, resume ? 'r+' : 'w');
    } catch (err) {
      throw new ArbiterError(
        'bad_request',
        `cannot write --log ${opts.log}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  }
  let lineNo = 0;
  let written = 0;
  const writeLog = (line: string) => {
    if (resume && lineNo < resume.lines.length && resume.lines[lineNo] !== line)
      throw new ArbiterError(
        'corrupt_log',
        `--resume: line ${lineNo + 1} of the re-run differs from ${String(opts.resume)} (was the cassette given with --record-llm the interrupted run's?): ${line.slice(0, 200)}`,
      );
    lineNo++;
    if (logFd !== null) written += writeSync(logFd, line + '\n');
  };
  const print =
    json || opts.quiet ? null : (e: LogEntry) => entryLines(rs, e, agents[e.seat].name).forEach((l) => out(l));
  // rulesets that draw their position (mines' board) do so after setup, where they choose, and at the end
  const picture = (state: S, moment: 'setup' | 'step' | 'end', events: readonly GameEvent[]) => {
    if (!rs.describeView) return;
    for (const l of rs.describeView(rs.view(state, null), moment, events)) out(`        ${l}`);
  };
  let result: MatchResult<S>;
  try {
    result = await runMatch(rs, seating, {
      seed,
      config,
      maxSubmissions: max,
      headerFields: () => session.headerFields(entry as RulesetPackage),
      onHeader: (h) => {
        writeLog(canonicalJson(h));
        headerWritten = true;
      },
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
  } catch (err) {
    if (err instanceof MatchStop && (err.detail as { stop?: string } | undefined)?.stop === 'budget') {
      // a clean stop: every finished submission is in the log, which `replay --verify --partial`
      // checks and `play --resume LOG` continues (with a larger --budget)
      ctx.err(
        `arbiter: stopped at the budget after ${Math.max(0, lineNo - 1)} submissions: ${err.message}\n` +
          (typeof opts.log === 'string'
            ? `  the log ${opts.log} is partial; continue with: play ${rulesetId} --resume ${opts.log} --record-llm DIR --budget MORE (same agent flags)\n`
            : ''),
      );
      ctx.exit(4);
      return;
    }
    throw err;
  } finally {
    if (logFd !== null) {
      // a resumed run that stopped within the old lines wrote only identical bytes: keep the file whole
      if (resume && lineNo >= resume.lines.length) ftruncateSync(logFd, written);
      closeSync(logFd);
      // a match that never started leaves no empty log behind
      if (!headerWritten && !resume && typeof opts.log === 'string') unlinkSync(opts.log);
    }
  }
  const lines = logLines(result);
  if (json) {
    for (const l of lines) out(l);
    failedSeatsSummary(result, opts, ctx);
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
  failedSeatsSummary(result, opts, ctx);
}

/**
 * A match in which a seat failed is loud: a summary on stderr (seat, reasons, the first provider
 * message) and exit code 3, unless --allow-failed-seats.
 */
function failedSeatsSummary(result: MatchResult<unknown>, opts: Record<string, unknown>, ctx: CliContext): void {
  const failed = result.seats.flatMap((r, seat) => (r.failed ? [{ seat, r }] : []));
  if (failed.length === 0) return;
  const lines = [`arbiter: ${failed.length} seat${failed.length > 1 ? 's' : ''} failed:`];
  for (const { seat, r } of failed) {
    const reasons = Object.entries(r.defaults)
      .map(([k, v]) => `${k} ×${v}`)
      .join(', ');
    const first = result.entries.find(
      (e) => e.seat === seat && e.default && e.default.reason !== 'seat_failed',
    )?.default;
    const said = first
      ? `; first: ${first.reason}${first.status !== undefined ? ` (${first.status === null ? 'no HTTP answer' : `HTTP ${first.status}`})` : ''}${first.message ? `: ${first.message}` : ''}`
      : '';
    lines.push(`  seat ${seat} (${r.agent}): ${reasons}${said}`);
  }
  ctx.err(lines.join('\n') + '\n');
  if (!opts.allowFailedSeats) ctx.exit(3);
}

/** The partial log `--resume` continues: checked by replay, its seed, config and lines. */
function readResumable(
  file: string,
  rulesetId: string,
  opts: Record<string, unknown>,
): { seed: number; config: Json; lines: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ArbiterError('not_found', `--resume: cannot read ${file}: ${(err as NodeJS.ErrnoException).code}`);
  }
  const report = verifyLogText(text, {
    resolve: (id) => (rulesetIds().includes(id) ? (getPackage(id).ruleset as never) : undefined),
    partial: true,
  });
  if (report.status === 'verified')
    throw new ArbiterError(
      'bad_request',
      `--resume: ${file} is a finished match (it has its footer); nothing to resume`,
    );
  if (!report.ok) throw new ArbiterError('corrupt_log', `--resume: ${file} does not replay: ${report.message}`);
  if (report.ruleset !== rulesetId)
    throw new ArbiterError('bad_request', `--resume: ${file} is a ${report.ruleset} match, not ${rulesetId}`);
  const lines = text.split('\n').filter((l) => l !== '');
  const header = JSON.parse(lines[0]) as { seed: number; config: Json };
  if (opts.seed !== undefined && opts.seed !== '1' && Number(opts.seed) !== header.seed)
    throw new ArbiterError(
      'bad_request',
      `--resume: the log was played with seed ${header.seed}, not ${String(opts.seed)}`,
    );
  return { seed: header.seed, config: header.config, lines };
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
      .option('--max-steps <n>', 'stop after this many submissions')
      .option('--allow-failed-seats', 'exit 0 even when a seat failed (by default a failed seat means exit 3)')
      .option(
        '--resume <log>',
        "continue an interrupted match from its partial log (with the interrupted run's --record-llm cassette)",
      )
      .option('--estimate', "print the model seats' cost estimate (the line-up's prices) and exit");
    if (pkg.terminal) cmd.option('-i, --interactive', 'play yourself in the terminal');
    addAgentOptions(cmd);
    addConfigOptions(cmd, pkg);
    cmd.action(async (opts: Record<string, unknown>) => {
      await playOne(pkg, opts, ctx);
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
        await playOne(entry, { seed: opts.seed, agents: heuristic, quiet: opts.quiet }, ctx);
      }
    });
}
