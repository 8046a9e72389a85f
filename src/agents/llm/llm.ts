// `llm:openai:MODEL` and `llm:anthropic:MODEL` — language models as contestants, through the
// official SDKs. Each decision is one stateless prompt (system: role, rules, line-up statement;
// user: view in words, events seen, legal actions, and on a retry why the first answer failed),
// with one tool per legal action family. The SDK retries 429/5xx with back-off inside the
// decision's deadline; a per-provider semaphore bounds concurrent requests; usage is counted per
// seat; cassettes record or replay answers keyed by a hash of the request.

import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import { ArbiterError, publishedActions, type AgentContext, type Json, type JsonObject } from '../../kernel/index.ts';
import type { DecisionRequest, MatchStart } from '../protocol.ts';
import type { Reply, Transport, TransportAgent } from '../transport.ts';
import { describeEventText, describeMenuText } from '../observe.ts';
import { actionFromProse, toolsForMenu, type ToolSpec } from './tools.ts';
import { type Cassette, requestKey, type CassetteEntry } from './cassette.ts';

export type Provider = 'openai' | 'anthropic';

export type LlmSeat = {
  provider: Provider;
  model: string;
  temperature?: number;
  /** The seat's system prompt (the line-up's); the rules text and statements are appended. */
  system?: string;
  /** Extra paragraphs every prompt states (a line-up's "scarcity stated" text). */
  statements?: string[];
  baseURL?: string;
  apiKey?: string;
  maxTokens?: number;
};

export type LlmEnv = {
  cassette?: Cassette;
  /** Concurrent requests per provider endpoint (default 4). */
  concurrency?: number;
  /** SDK retries on 429/5xx/connection errors inside the deadline (default 2). */
  maxRetries?: number;
  baseURL?: Partial<Record<Provider, string>>;
  apiKey?: Partial<Record<Provider, string>>;
};

// ---------------------------------------------------------------- per-provider concurrency

class Semaphore {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  constructor(readonly limit: number) {}
  async acquire(signal: AbortSignal): Promise<boolean> {
    if (this.active < this.limit) {
      this.active++;
      return true;
    }
    return new Promise<boolean>((resolve) => {
      const go = () => {
        signal.removeEventListener('abort', give);
        this.active++;
        resolve(true);
      };
      const give = () => {
        const i = this.queue.indexOf(go);
        if (i >= 0) this.queue.splice(i, 1);
        resolve(false);
      };
      this.queue.push(go);
      signal.addEventListener('abort', give, { once: true });
    });
  }
  release(): void {
    this.active--;
    const next = this.queue.shift();
    if (next) next();
  }
}

const semaphores = new Map<string, Semaphore>();
/** One limit per provider endpoint, shared by every seat of the process that uses it. */
function semaphoreFor(endpoint: string, limit: number): Semaphore {
  const key = `${endpoint} ${limit}`;
  let s = semaphores.get(key);
  if (!s) semaphores.set(key, (s = new Semaphore(limit)));
  return s;
}

// ---------------------------------------------------------------- normalised answers

type Answer = { tool?: { name: string; args: string | Json }; text: string; usage: { input: number; output: number } };

function openaiAnswer(r: Json): Answer {
  const o = r as {
    choices?: {
      message?: { content?: string | null; tool_calls?: { function?: { name?: string; arguments?: string } }[] };
    }[];
    usage?: { prompt_tokens?: number; completion_tokens?: number };
  };
  const msg = o.choices?.[0]?.message;
  const call = msg?.tool_calls?.[0]?.function;
  const out: Answer = {
    text: msg?.content ?? '',
    usage: { input: o.usage?.prompt_tokens ?? 0, output: o.usage?.completion_tokens ?? 0 },
  };
  if (call?.name) out.tool = { name: call.name, args: call.arguments ?? '{}' };
  return out;
}

function anthropicAnswer(r: Json): Answer {
  const o = r as {
    content?: ({ type: 'text'; text: string } | { type: 'tool_use'; name: string; input: Json })[];
    usage?: { input_tokens?: number; output_tokens?: number };
  };
  const blocks = o.content ?? [];
  const tool = blocks.find((b) => b.type === 'tool_use') as { name: string; input: Json } | undefined;
  const text = blocks
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('\n');
  const out: Answer = { text, usage: { input: o.usage?.input_tokens ?? 0, output: o.usage?.output_tokens ?? 0 } };
  if (tool) out.tool = { name: tool.name, args: tool.input };
  return out;
}

// ---------------------------------------------------------------- the transport

class LlmTransport implements Transport {
  readonly name: string;
  readonly seatCfg: LlmSeat;
  private readonly env: LlmEnv;
  private client: OpenAI | Anthropic | null = null;
  /** Client options, set at match start; the SDK itself loads on the first call (only model seats pay for it). */
  private clientOptions: { apiKey: string; baseURL: string | undefined; maxRetries: number; timeout: number } | null =
    null;
  private system = '';
  private deadlineMs = 10_000;
  private readonly tokens = { input: 0, output: 0, requests: 0 };
  private firstPrompt = true;

  constructor(cfg: LlmSeat, env: LlmEnv = {}) {
    this.seatCfg = cfg;
    this.env = env;
    this.name = `llm:${cfg.provider}:${cfg.model}`;
  }

  private get baseURL(): string | undefined {
    const p = this.seatCfg.provider;
    return (
      this.seatCfg.baseURL ??
      this.env.baseURL?.[p] ??
      (p === 'openai' ? process.env.OPENAI_BASE_URL : process.env.ANTHROPIC_BASE_URL) ??
      undefined
    );
  }

  start(msg: MatchStart): Promise<void> | undefined {
    this.deadlineMs = msg.deadline_ms;
    const cfg = this.seatCfg;
    const parts = [
      cfg.system ??
        `You are a contestant in a match of ${msg.ruleset} (${msg.version}), playing seat ${msg.seat} of ${msg.seats}.`,
      `You play seat ${msg.seat}. Each time you are asked, choose exactly one legal action: call the tool of its family, or answer with one JSON action object. ` +
        `An answer that is missing, late, or refused twice plays ${msg.default_action ? `\`${msg.default_action}\`` : 'the first legal action'} for you.`,
      ...(cfg.statements ?? []),
      '# Rules\n\n' + msg.rules,
    ];
    this.system = parts.join('\n\n');
    if (this.env.cassette?.mode === 'replay') return; // offline: no client, no key needed
    const p = cfg.provider;
    const apiKey =
      cfg.apiKey ??
      this.env.apiKey?.[p] ??
      (p === 'openai' ? process.env.OPENAI_API_KEY : process.env.ANTHROPIC_API_KEY);
    if (!apiKey)
      throw new ArbiterError(
        'bad_request',
        `${this.name}: no API key (set ${p === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY'} or --llm-api-key)`,
      );
    // deadlines are the policy's: the SDK's own timeout only bounds one HTTP attempt
    const common = { apiKey, baseURL: this.baseURL, maxRetries: this.env.maxRetries ?? 2, timeout: this.deadlineMs };
    this.clientOptions = common;
    // load the SDK now, before any deadline runs: on a busy machine its import alone can take
    // seconds, and that must not be charged to the first decision
    return this.loadClient();
  }

  private async loadClient(): Promise<void> {
    if (this.client || !this.clientOptions) return;
    this.client =
      this.seatCfg.provider === 'openai'
        ? new (await import('openai')).default(this.clientOptions)
        : new (await import('@anthropic-ai/sdk')).default(this.clientOptions);
  }

  private userPrompt(req: DecisionRequest, ctx: AgentContext): string {
    const lines = [
      `Decision ${req.request} (attempt ${req.attempt}) — seat ${req.seat}, ${req.kind}.`,
      '',
      '## What you see',
      req.view_text,
    ];
    lines.push('', '## Since your last decision');
    lines.push(
      req.events.length
        ? req.events.map((e) => '- ' + describeEventText(ctx.ruleset, e as never)).join('\n')
        : '(nothing you could see)',
    );
    lines.push('', '## Legal actions now', describeMenuText(ctx.ruleset, ctx.menu, req.seat));
    if (req.previous) {
      lines.push('', `## Your previous answer failed (${req.previous.reason})`);
      if (req.previous.answer) lines.push(`You answered: ${req.previous.answer}`);
      if (req.previous.rejection)
        lines.push(`The engine said: ${req.previous.rejection.code}: ${req.previous.rejection.reason}`);
      lines.push('Answer again with one legal action.');
    }
    return lines.join('\n');
  }

  private body(user: string, tools: ToolSpec[]): Json {
    const cfg = this.seatCfg;
    const temperature = cfg.temperature ?? 0;
    if (cfg.provider === 'openai') {
      return {
        model: cfg.model,
        temperature,
        max_tokens: cfg.maxTokens ?? 1024,
        messages: [
          { role: 'system', content: this.system },
          { role: 'user', content: user },
        ],
        tools: tools.map((t) => ({
          type: 'function',
          function: { name: t.name, description: t.description, parameters: t.parameters },
        })),
        tool_choice: 'auto',
      };
    }
    return {
      model: cfg.model,
      temperature,
      max_tokens: cfg.maxTokens ?? 1024,
      system: this.system,
      messages: [{ role: 'user', content: user }],
      tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })),
      tool_choice: { type: 'auto' },
    };
  }

  private async call(body: Json, signal: AbortSignal): Promise<CassetteEntry> {
    await this.loadClient();
    const client = this.client;
    if (!client) throw new ArbiterError('bad_request', `${this.name}: not started`);
    const sem = semaphoreFor(`${this.seatCfg.provider} ${this.baseURL ?? ''}`, this.env.concurrency ?? 4);
    if (!(await sem.acquire(signal))) return { timeout: true };
    try {
      const opts = { signal, timeout: this.deadlineMs };
      const response =
        this.seatCfg.provider === 'openai'
          ? await (client as OpenAI).chat.completions.create(body as never, opts)
          : await (client as Anthropic).messages.create(body as never, opts);
      return { response: JSON.parse(JSON.stringify(response)) };
    } catch (err) {
      if (signal.aborted) return { timeout: true };
      const status = (err as { status?: unknown }).status;
      return {
        error: {
          status: typeof status === 'number' ? status : null,
          message: typeof status === 'number' ? `HTTP ${status}` : 'connection failed',
        },
      };
    } finally {
      sem.release();
    }
  }

  async decide(req: DecisionRequest, signal: AbortSignal, ctx: AgentContext): Promise<Reply> {
    const user = this.userPrompt(req, ctx);
    const declared = ctx.ruleset.schemas ? publishedActions(ctx.ruleset.schemas) : undefined;
    const tools = toolsForMenu(ctx.menu, (a) => ctx.ruleset.describeAction?.(a, req.seat) ?? '', declared);
    const body = this.body(user, tools);
    const key = requestKey(this.seatCfg.provider, body);
    const cassette = this.env.cassette;
    let entry: CassetteEntry;
    if (cassette?.mode === 'replay') entry = cassette.next(key);
    else {
      entry = await this.call(body, signal);
      cassette?.store(key, body, entry);
    }
    const meta: JsonObject = { provider: this.seatCfg.provider, model: this.seatCfg.model, key, prompt: user };
    if (this.firstPrompt) {
      meta.system = this.system;
      this.firstPrompt = false;
    }
    if ('timeout' in entry) return { ok: false, reason: 'timeout', meta };
    if ('error' in entry) return { ok: false, reason: 'error', detail: entry.error.message, meta };
    const ans = this.seatCfg.provider === 'openai' ? openaiAnswer(entry.response) : anthropicAnswer(entry.response);
    this.tokens.input += ans.usage.input;
    this.tokens.output += ans.usage.output;
    this.tokens.requests++;
    meta.tokens = { input: ans.usage.input, output: ans.usage.output };
    if (ans.tool) {
      const raw = typeof ans.tool.args === 'string' ? ans.tool.args : JSON.stringify(ans.tool.args);
      let args: unknown = ans.tool.args;
      if (typeof args === 'string') {
        try {
          args = args.trim() === '' ? {} : JSON.parse(args);
        } catch {
          return {
            ok: false,
            reason: 'invalid_json',
            raw: `${ans.tool.name}(${raw})`,
            detail: 'tool arguments are not JSON',
            meta,
          };
        }
      }
      if (args === null || typeof args !== 'object' || Array.isArray(args)) {
        return {
          ok: false,
          reason: 'invalid_json',
          raw: `${ans.tool.name}(${raw})`,
          detail: 'tool arguments are not an object',
          meta,
        };
      }
      const action = { ...args, type: ans.tool.name };
      return { ok: true, message: { request: req.request, action }, raw: `${ans.tool.name}(${raw})`, meta };
    }
    if (ans.text.trim() === '') return { ok: false, reason: 'invalid_json', raw: '', detail: 'an empty answer', meta };
    // prose with JSON in it is parsed once; anything else is invalid
    const action = actionFromProse(ans.text);
    if (action === undefined)
      return { ok: false, reason: 'invalid_json', raw: ans.text, detail: 'no JSON action in the answer', meta };
    return { ok: true, message: { request: req.request, action }, raw: ans.text, meta };
  }

  usage(): JsonObject {
    return { input_tokens: this.tokens.input, output_tokens: this.tokens.output, requests: this.tokens.requests };
  }

  close(): void {}
}

/** `llm:PROVIDER:MODEL` */
export function parseLlmSpec(args: string): { provider: Provider; model: string } {
  const i = args.indexOf(':');
  const provider = i < 0 ? args : args.slice(0, i);
  const model = i < 0 ? '' : args.slice(i + 1);
  if (provider !== 'openai' && provider !== 'anthropic')
    throw new ArbiterError(
      'bad_request',
      `llm: provider must be openai or anthropic (llm:openai:MODEL), got "${provider}"`,
    );
  if (!model)
    throw new ArbiterError(
      'bad_request',
      `llm:${provider}: needs a model name, e.g. llm:${provider}:${provider === 'openai' ? 'gpt-4o-mini' : 'claude-haiku'}`,
    );
  return { provider, model };
}

export function llmAgent(cfg: LlmSeat, env: LlmEnv = {}): TransportAgent {
  const transport = new LlmTransport(cfg, env);
  return {
    name: transport.name,
    transport,
    choose(): Json {
      throw new ArbiterError('bad_request', 'an llm: agent answers through the match runner, not choose()');
    },
  };
}
