// Command-line side of agents: the flags play/sim share (deadlines, line-ups, model endpoints,
// cassettes, per-seat files), and the `transcript` and `schema agent-protocol` verbs.

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../io.ts';
import { ArbiterError, type Agent, type Json, type RulesetPackage } from '@arbiter/engine/kernel';
import { makeAgent, makeAgents, type AgentEnv } from '../../agents/resolve.ts';
import {
  type Lineup,
  lineupSeats,
  lineupVersion as versionOf,
  loadLineup,
  seatHeaders,
  shippedLineups,
} from '../../agents/lineup.ts';
import { llmAgent, type LlmEnv, type LlmSeat } from '../../agents/llm/llm.ts';
import { Cassette } from '../../agents/llm/cassette.ts';
import { Budget, CHARS_PER_TOKEN } from '../../agents/llm/cost.ts';
import { firstAgent } from '@arbiter/engine/agents';
import { runMatch } from '@arbiter/engine/match';
import type { LogHeader } from '@arbiter/engine/match';
import { agentsDirFor, formatTranscript, readTranscript, TranscriptWriter } from '../../agents/transcript.ts';
import { protocolSchemas } from '@arbiter/engine/agents';
import type { PolicyOptions, AttemptRecord } from '@arbiter/engine/agents';

export function addAgentOptions(cmd: Command): Command {
  return addModelOptions(
    cmd
      .option('--lineup <id|file>', 'seat agents from a line-up: a shipped id (`arbiter lineups`) or a YAML file')
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
    .option(
      '--google-base-url <url>',
      'Gemini API endpoint for llm:google: (default GOOGLE_GEMINI_BASE_URL or the hosted API)',
    )
    .option(
      '--compatible-base-url <url>',
      'an OpenAI-compatible endpoint for llm:compatible: seats (a local server, a router)',
    )
    .option('--llm-concurrency <n>', 'concurrent model requests per provider endpoint', '4')
    .option(
      '--llm-slot-wait-ms <n>',
      'longest wait for a concurrency slot, not charged to the deadline (default 6 deadlines, at least 60000)',
    )
    .option('--no-preflight', 'skip the one minimal request per model endpoint, model and key before the match')
    .option(
      '--budget <usd>',
      "stop the match before a model request could take the spend past this many dollars (the line-up's prices)",
    );
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
  /** The line-up named with --lineup, once seated. */
  lineup: Lineup | null;
  /** The header fields of the seated agents (line-up, model seats), when there is a model seat or a line-up. */
  headerFields(pkg: RulesetPackage): Pick<LogHeader, 'lineup' | 'seats'>;
  /** A dry run of the match counting every model seat's prompts, priced with the line-up's table. */
  estimate(pkg: RulesetPackage, seed: number, config: Json): Promise<CostEstimate | null>;
  policy: Partial<PolicyOptions>;
  onAttempt?: (rec: AttemptRecord) => void;
  /** Folder holding per-seat files, when there is one. */
  dir: string | null;
  seat(pkg: RulesetPackage, spec: string | string[], seats: number): Agent[];
}

export type CostEstimate = {
  lines: string[];
  low: number;
  high: number;
};

/** Output tokens a decision is assumed to take in the estimate's low figure (one tool call). */
const TYPICAL_OUTPUT = 100;

/** What the model flags say, as agents take it (`play`, `sim` and `serve`). */
export function llmEnvOf(opts: Record<string, unknown>): LlmEnv {
  if (opts.recordLlm && opts.replayLlm)
    throw new ArbiterError('bad_request', '--record-llm and --replay-llm exclude each other');
  const llm: LlmEnv = { concurrency: int(opts.llmConcurrency, 'llm-concurrency', 1, 256) ?? 4, baseURL: {} };
  if (typeof opts.openaiBaseUrl === 'string') llm.baseURL!.openai = opts.openaiBaseUrl;
  if (typeof opts.anthropicBaseUrl === 'string') llm.baseURL!.anthropic = opts.anthropicBaseUrl;
  if (typeof opts.googleBaseUrl === 'string') llm.baseURL!.google = opts.googleBaseUrl;
  if (typeof opts.compatibleBaseUrl === 'string') llm.baseURL!.compatible = opts.compatibleBaseUrl;
  // --resume continues the interrupted run's cassette: its answers first, then live and recorded
  if (typeof opts.recordLlm === 'string')
    llm.cassette = new Cassette(opts.recordLlm, opts.resume ? 'resume' : 'record');
  if (typeof opts.replayLlm === 'string') llm.cassette = new Cassette(opts.replayLlm, 'replay');
  if (opts.preflight === false) llm.preflight = false;
  const slotWait = int(opts.llmSlotWaitMs, 'llm-slot-wait-ms', 1, 86_400_000);
  if (slotWait !== undefined) llm.slotWaitMs = slotWait;
  if (opts.budget !== undefined) llm.budget = new Budget(Number(opts.budget));
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
  let lineup: Lineup | null = null;
  let lineupVersion = '';
  /** Per seat: the model seat's settings, or the agent spec. */
  let seated: ({ llm: LlmSeat } | { agent: string })[] = [];
  const session: AgentSession = {
    env,
    policy,
    dir,
    get lineup() {
      return lineup;
    },
    onAttempt: writer ? (rec) => writer.write(rec) : undefined,
    seat(pkg, spec, seats) {
      if (typeof opts.lineup !== 'string') {
        const agents = makeAgents(pkg, spec, seats, env);
        seated = agents.map((a) => {
          const cfg = (a as { transport?: { seatCfg?: LlmSeat } }).transport?.seatCfg;
          return cfg ? { llm: cfg } : { agent: a.name };
        });
        return agents;
      }
      const file = loadLineup(opts.lineup, pkg.ruleset.id, true);
      lineup = file.lineup;
      lineupVersion = versionOf(file.lineup, file.text);
      const resolved = lineupSeats(lineup, seats);
      seated = resolved.map((s) => ('spec' in s ? { agent: s.spec } : { llm: s.llm }));
      const made: Agent[] = [];
      try {
        for (const [seat, s] of resolved.entries())
          made.push('spec' in s ? makeAgent(pkg, s.spec, env, seat) : llmAgent(s.llm, llm));
      } catch (err) {
        for (const a of made) void Promise.resolve(a.close?.()).catch(() => {});
        throw err;
      }
      return made;
    },
    headerFields(pkg) {
      const out: Pick<LogHeader, 'lineup' | 'seats'> = {};
      if (lineup) out.lineup = { id: lineup.id, version: lineupVersion };
      if (!lineup && !seated.some((s) => 'llm' in s)) return out;
      out.seats = seatHeaders(pkg, seated);
      return out;
    },
    async estimate(pkg, seed, config) {
      const models = seated.flatMap((s, seat) => ('llm' in s ? [{ seat, cfg: s.llm }] : []));
      if (models.length === 0 || models.some((m) => !m.cfg.price)) return null;
      const dry: LlmEnv = { dry: true };
      const agents = seated.map((s) => ('llm' in s ? llmAgent(s.llm, dry) : firstAgent({})));
      const r = await runMatch(pkg.ruleset, agents, { seed, config, pkg, maxSubmissions: 100_000 });
      const lines: string[] = [];
      let low = 0;
      let high = 0;
      for (const { seat, cfg } of models) {
        const u = r.seats[seat].usage ?? {};
        const n = Number(u.decisions) || 0;
        const perDecision = n ? Math.ceil(Number(u.body_chars) / n / CHARS_PER_TOKEN) : 0;
        const cacheable = Math.ceil(Number(u.system_chars) / CHARS_PER_TOKEN);
        const p = cfg.price!;
        const maxOut = cfg.maxTokens ?? (cfg.reasoning ? 4096 : 1024);
        // low: the system prompt read from the cache after the first request, one tool call out;
        // high: no cache hit at all and every answer as long as the output limit allows
        const seatLow =
          (n * perDecision * p.input +
            (n > 0 ? cacheable * ((p.cache_write ?? p.input) - p.input) : 0) +
            Math.max(0, n - 1) * cacheable * ((p.cached_input ?? p.input) - p.input) +
            n * TYPICAL_OUTPUT * p.output) /
          1e6;
        const seatHigh = (n * perDecision * Math.max(p.input, p.cache_write ?? p.input) + n * maxOut * p.output) / 1e6;
        low += Math.max(0, seatLow);
        high += seatHigh;
        lines.push(
          `seat ${seat} ${cfg.provider}:${cfg.model}: ${n} decisions, ~${perDecision} input tokens each (${cacheable} cacheable): $${seatLow.toFixed(4)}–$${seatHigh.toFixed(4)}`,
        );
      }
      return { lines, low, high };
    },
  };
  return session;
}

function registerLineupVerb(program: Command, ctx: CliContext): void {
  program
    .command('lineups')
    .description('list the shipped line-ups (use one with play/sim --lineup ID)')
    .option('--json', 'print them as JSON lines')
    .action((opts: { json?: boolean }) => {
      for (const l of shippedLineups()) {
        const lineup = loadLineup(l.id, l.ruleset);
        const seats = lineup.seats.map((s) => s.agent ?? `${s.provider}:${s.model}`);
        if (opts.json)
          ctx.out(
            JSON.stringify({
              id: l.id,
              ruleset: l.ruleset,
              version: lineup.version ?? null,
              seats,
              description: lineup.description ?? null,
            }) + '\n',
          );
        else
          ctx.out(
            `${l.ruleset}  ${l.id}${lineup.version !== undefined ? ` (version ${lineup.version})` : ''}\n    ${lineup.description ?? ''}\n    seats: ${seats.join(', ')}\n`,
          );
      }
    });
}

export function registerAgentVerbs(program: Command, ctx: CliContext): void {
  registerLineupVerb(program, ctx);
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
