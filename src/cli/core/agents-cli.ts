// Command-line side of agents: the flags play/sim share (deadlines, line-ups, model endpoints,
// cassettes, per-seat files), and the `transcript` and `schema agent-protocol` verbs.

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../io.ts';
import { ArbiterError, type Agent, type RulesetPackage } from '../../kernel/index.ts';
import { makeAgent, makeAgents, type AgentEnv } from '../../agents/resolve.ts';
import { lineupSeats, loadLineup } from '../../agents/lineup.ts';
import { llmAgent, type LlmEnv } from '../../agents/llm/llm.ts';
import { Cassette } from '../../agents/llm/cassette.ts';
import { agentsDirFor, formatTranscript, readTranscript, TranscriptWriter } from '../../agents/transcript.ts';
import { protocolSchemas } from '../../agents/protocol.ts';
import type { PolicyOptions, AttemptRecord } from '../../agents/policy.ts';

export function addAgentOptions(cmd: Command): Command {
  return addModelOptions(
    cmd
      .option('--lineup <name|file>', 'seat agents from a line-up YAML (lineups/<ruleset>/<name>.yaml or a path)')
      .option('--deadline-ms <n>', 'deadline per decision attempt for protocol agents (cmd:, http:, llm:)')
      .option('--max-failures <k>', 'defaults in a row after which a seat is failed and plays its default at once', '3')
      .option(
        '--agents-dir <dir>',
        'folder for per-seat transcripts and stderr files (default: LOG.agents with --log)',
      ),
  );
}

/** The flags of agents that call out (models, cassettes): `play`, `sim` and `serve` share them. */
export function addModelOptions(cmd: Command): Command {
  return cmd
    .option('--record-llm <dir>', 'store model answers in a cassette folder')
    .option('--replay-llm <dir>', 'answer models from a cassette folder, offline')
    .option('--openai-base-url <url>', 'OpenAI-compatible endpoint (default OPENAI_BASE_URL or the hosted API)')
    .option('--anthropic-base-url <url>', 'Anthropic endpoint (default ANTHROPIC_BASE_URL or the hosted API)')
    .option('--llm-concurrency <n>', 'concurrent model requests per provider endpoint', '4');
}

function int(v: unknown, name: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ArbiterError('bad_request', `--${name} must be an integer in ${min}..${max}, got "${String(v)}"`);
  return n;
}

export interface AgentSession {
  env: AgentEnv;
  policy: Partial<PolicyOptions>;
  onAttempt?: (rec: AttemptRecord) => void;
  /** Folder holding per-seat files, when there is one. */
  dir: string | null;
  seat(pkg: RulesetPackage, spec: string | string[], seats: number): Agent[];
}

/** What the model flags say, as agents take it. */
export function llmEnvOf(opts: Record<string, unknown>): LlmEnv {
  if (opts.recordLlm && opts.replayLlm)
    throw new ArbiterError('bad_request', '--record-llm and --replay-llm exclude each other');
  const llm: LlmEnv = { concurrency: int(opts.llmConcurrency, 'llm-concurrency', 1, 256) ?? 4, baseURL: {} };
  if (typeof opts.openaiBaseUrl === 'string') llm.baseURL!.openai = opts.openaiBaseUrl;
  if (typeof opts.anthropicBaseUrl === 'string') llm.baseURL!.anthropic = opts.anthropicBaseUrl;
  if (typeof opts.recordLlm === 'string') llm.cassette = new Cassette(opts.recordLlm, 'record');
  if (typeof opts.replayLlm === 'string') llm.cassette = new Cassette(opts.replayLlm, 'replay');
  return llm;
}

export function agentSession(opts: Record<string, unknown>, logPath?: string): AgentSession {
  const llm = llmEnvOf(opts);
  const dir = typeof opts.agentsDir === 'string' ? opts.agentsDir : logPath ? agentsDirFor(logPath) : null;
  const env: AgentEnv = { llm, stderrDir: dir ?? join(tmpdir(), `arbiter-agents-${process.pid}`) };
  const writer = dir ? new TranscriptWriter(dir) : null;
  const policy: Partial<PolicyOptions> = {};
  const deadline = int(opts.deadlineMs, 'deadline-ms', 1, 3_600_000);
  if (deadline !== undefined) policy.deadlineMs = deadline;
  const k = int(opts.maxFailures, 'max-failures', 1, 1_000_000);
  if (k !== undefined) policy.maxFailures = k;
  return {
    env,
    policy,
    dir,
    onAttempt: writer ? (rec) => writer.write(rec) : undefined,
    seat(pkg, spec, seats) {
      if (typeof opts.lineup !== 'string') return makeAgents(pkg, spec, seats, env);
      const lineup = loadLineup(opts.lineup, pkg.ruleset.id);
      return lineupSeats(lineup, seats).map((s, seat) =>
        'spec' in s ? makeAgent(pkg, s.spec, env, seat) : llmAgent(s.llm, llm),
      );
    },
  };
}

export function registerAgentVerbs(program: Command, ctx: CliContext): void {
  program
    .command('transcript')
    .description("print one seat's agent transcript (prompts, answers, tokens, latency) of a match log")
    .argument('<log>', 'the match log written with play --log')
    .requiredOption('--seat <n>', 'the seat')
    .option('--json', 'print the records as JSON lines')
    .action((log: string, opts: { seat: string; json?: boolean }) => {
      const seat = int(opts.seat, 'seat', 0, 1000)!;
      const recs = readTranscript(log, seat);
      if (opts.json) for (const r of recs) ctx.out(JSON.stringify(r) + '\n');
      else ctx.out(formatTranscript(recs));
    });
}

/** `arbiter schema agent-protocol`: the protocol's message schemas (other names: ruleset schemas). */
export function agentProtocolSchemaText(): string {
  return JSON.stringify(protocolSchemas(), null, 2) + '\n';
}
