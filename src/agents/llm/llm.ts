// `llm:PROVIDER:MODEL` — language models as contestants, through the official SDKs (openai,
// @anthropic-ai/sdk, @google/genai; `compatible` is any OpenAI-compatible endpoint). Each decision
// is one stateless prompt (system: role, rules, line-up statement — the same bytes every turn, so
// providers can cache it; user: view in words, events seen, legal actions, and on a retry why the
// first answer failed), with one tool per legal action family. Before the first turn one minimal
// request per endpoint, model and key must succeed (preflight). A per-endpoint semaphore bounds
// concurrent requests; the wait for a slot has its own limit and is not charged to the decision's
// deadline. Usage and cost are counted per seat; cassettes record or replay answers keyed by a hash
// of the request, and a request a cassette cannot answer stops the match.

import { createHash } from 'node:crypto';
import { ArbiterError, publishedActions, type AgentContext, type Json, type JsonObject } from '@arbiter/engine/kernel';
import type { DecisionRequest, MatchStart } from '@arbiter/engine/agents';
import { MatchStop, type Reply, type Transport, type TransportAgent } from '@arbiter/engine/agents';
import { describeEventText, describeMenuText } from '@arbiter/engine/agents';
import { actionFromProse, toolsForMenu } from './tools.ts';
import { type Cassette, requestKey, type CassetteEntry } from './cassette.ts';
import {
  PROVIDERS,
  providerFailure,
  WIRES,
  type Answer,
  type Client,
  type ModelParams,
  type Provider,
  type Usage,
} from './providers.ts';
import { type Budget, CHARS_PER_TOKEN, costOf, type Price, worstCase } from './cost.ts';

export type { Provider } from './providers.ts';

export type LlmSeat = ModelParams & {
  provider: Provider;
  /** The seat's system prompt (the line-up's); the rules text and statements are appended. */
  system?: string;
  /** Extra paragraphs every prompt states (a line-up's "scarcity stated" text). */
  statements?: string[];
  baseURL?: string;
  apiKey?: string;
  /** The environment variable holding this seat's key; unset is an error, never a fallback. */
  apiKeyEnv?: string;
  /** The line-up's price for this model (dollars per million tokens). */
  price?: Price;
};

export type LlmEnv = {
  cassette?: Cassette;
  /** Concurrent requests per provider endpoint (default 4). */
  concurrency?: number;
  /** Longest wait for a concurrency slot (default: 6 deadlines, at least 60 s). */
  slotWaitMs?: number;
  /** SDK retries on 429/5xx/connection errors inside the deadline (default 2). */
  maxRetries?: number;
  baseURL?: Partial<Record<Provider, string>>;
  apiKey?: Partial<Record<Provider, string>>;
  /** One minimal request per endpoint/model/key before the match (default true; off for offline runs). */
  preflight?: boolean;
  /** Preflights already made or under way, shared by the seats of one session. */
  preflights?: Map<string, Promise<void>>;
  budget?: Budget;
  /** Count prompts without sending them, answering the default action (the cost estimate). */
  dry?: boolean;
};

// ---------------------------------------------------------------- per-endpoint concurrency

class Semaphore {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  constructor(readonly limit: number) {}
  /** A release function, or null when no slot came free within `waitMs`. */
  acquire(waitMs: number): Promise<(() => void) | null> {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.active--;
      this.queue.shift()?.();
    };
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve(release);
    }
    return new Promise((resolve) => {
      const go = () => {
        clearTimeout(timer);
        this.active++;
        resolve(release);
      };
      const timer = setTimeout(() => {
        const i = this.queue.indexOf(go);
        if (i >= 0) this.queue.splice(i, 1);
        resolve(null);
      }, waitMs);
      // a wait left behind by a match that stopped must not keep the process alive
      timer.unref();
      this.queue.push(go);
    });
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

// ---------------------------------------------------------------- prompts

/** The system prompt a seat reads: the same text every turn (the cacheable prefix). */
export function systemPrompt(
  cfg: Pick<LlmSeat, 'system' | 'statements'>,
  msg: Pick<MatchStart, 'ruleset' | 'version' | 'seat' | 'seats' | 'rules' | 'default_action'>,
): string {
  return [
    cfg.system ??
      `You are a contestant in a match of ${msg.ruleset} (${msg.version}), playing seat ${msg.seat} of ${msg.seats}.`,
    `You play seat ${msg.seat}. Each time you are asked, choose exactly one legal action: call the tool of its family, or answer with one JSON action object. ` +
      `An answer that is missing, late, or refused twice plays ${msg.default_action ? `\`${msg.default_action}\`` : 'the first legal action'} for you.`,
    ...(cfg.statements ?? []),
    '# Rules\n\n' + msg.rules,
  ].join('\n\n');
}

/** First 16 hex digits of the SHA-256 of a system prompt (the log header's `system_hash`). */
export function promptHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The family an earlier answer named: `move({...})` from a tool call, or `"type":"move"` in prose. */
function familyOfAnswer(answer: string | undefined): string | null {
  if (!answer) return null;
  const call = /^([A-Za-z0-9_-]{1,64})\(/.exec(answer);
  if (call) return call[1];
  const typed = /"type"\s*:\s*"([^"]{1,64})"/.exec(answer);
  return typed ? typed[1] : null;
}

const EMPTY_USAGE = (): Usage => ({ input: 0, cached: 0, cacheWrite: 0, output: 0 });

// ---------------------------------------------------------------- the transport

class LlmTransport implements Transport {
  readonly name: string;
  readonly seatCfg: LlmSeat;
  private readonly env: LlmEnv;
  private client: Client | null = null;
  private readonly apiKey: string | undefined;
  private system = '';
  private defaultAction: string | null = null;
  private deadlineMs = 10_000;
  private readonly tokens = EMPTY_USAGE();
  private requests = 0;
  private failedRequests = 0;
  private cost = 0;
  private dryChars = { system: 0, body: 0, decisions: 0 };
  private firstPrompt = true;
  private release: (() => void) | null = null;
  private slotWaitMs: number | undefined;
  /** The attempt in flight, for the transcript when the deadline gives it up. */
  private inFlight: JsonObject | undefined;

  constructor(cfg: LlmSeat, env: LlmEnv = {}) {
    this.seatCfg = cfg;
    this.env = env;
    this.name = `llm:${cfg.provider}:${cfg.model}`;
    if (!this.offline) this.apiKey = this.resolveKey();
    if (env.budget && !cfg.price)
      throw new ArbiterError(
        'bad_config',
        `${this.name}: --budget needs a price for every model seat (prices: in the line-up, for ${cfg.model})`,
      );
  }

  /** Replay and estimates send nothing: no key, no client, no preflight. */
  private get offline(): boolean {
    return this.env.dry === true || this.env.cassette?.mode === 'replay';
  }

  private get wire() {
    return WIRES[this.seatCfg.provider];
  }

  private get baseURL(): string | undefined {
    const p = this.seatCfg.provider;
    const envName = this.wire.baseEnv;
    return this.seatCfg.baseURL ?? this.env.baseURL?.[p] ?? (envName ? process.env[envName] : undefined) ?? undefined;
  }

  /**
   * A key goes only where it was configured: a seat's own `api_key_env` (unset is an error), or the
   * provider's global key for the provider's global endpoint. A seat with its own base URL and no
   * key of its own sends none (a placeholder), never the global key.
   */
  private resolveKey(): string {
    const cfg = this.seatCfg;
    if (cfg.apiKeyEnv !== undefined) {
      const v = process.env[cfg.apiKeyEnv];
      if (!v)
        throw new ArbiterError(
          'bad_config',
          `${this.name}: api_key_env ${cfg.apiKeyEnv} is not set (the seat's key is never taken from another variable)`,
        );
      return v;
    }
    if (cfg.apiKey) return cfg.apiKey;
    if (cfg.baseURL !== undefined || cfg.provider === 'compatible') {
      if (cfg.provider === 'compatible' && this.baseURL === undefined)
        throw new ArbiterError('bad_config', `${this.name}: a compatible endpoint needs base_url`);
      return 'no-key';
    }
    const keyEnv = this.wire.keyEnv!;
    const key = this.env.apiKey?.[cfg.provider] ?? process.env[keyEnv];
    if (!key)
      throw new ArbiterError(
        'bad_config',
        `${this.name}: no API key (set ${keyEnv}, or api_key_env for the seat in a line-up; --replay-llm needs none)`,
      );
    return key;
  }

  async start(msg: MatchStart): Promise<void> {
    this.deadlineMs = msg.deadline_ms;
    this.defaultAction = msg.default_action;
    this.system = systemPrompt(this.seatCfg, msg);
    if (this.offline) return;
    const options = {
      apiKey: this.apiKey!,
      baseURL: this.baseURL,
      maxRetries: this.env.maxRetries ?? 2,
      timeout: this.deadlineMs,
    };
    // load the SDK now, before any deadline runs: on a busy machine its import alone can take
    // seconds, and that must not be charged to the first decision
    try {
      this.client = await this.wire.client(options);
    } catch (err) {
      throw new ArbiterError('bad_config', `${this.name}: ${(err as Error).message}`);
    }
    if (this.env.preflight !== false) await this.preflight();
  }

  /** One minimal request per (provider, endpoint, model, key), shared by the seats of a session. */
  private preflight(): Promise<void> {
    const cfg = this.seatCfg;
    const id = [cfg.provider, this.baseURL ?? '', cfg.model, promptHash(this.apiKey ?? '')].join('\n');
    const cache = (this.env.preflights ??= new Map());
    let p = cache.get(id);
    if (!p) {
      const client = this.client!;
      const where = this.baseURL ?? `the ${cfg.provider} API`;
      p = client
        .send(this.wire.preflight(cfg), AbortSignal.timeout(Math.max(this.deadlineMs, 5000)), this.deadlineMs)
        .then(
          () => undefined,
          (err: unknown) => {
            const f = providerFailure(err);
            throw new ArbiterError(
              'bad_config',
              `preflight: ${cfg.provider} model ${cfg.model} at ${where} failed: ${f.status === null ? 'no HTTP answer' : `HTTP ${f.status}`}: ${f.message}`,
              { provider: cfg.provider, model: cfg.model, status: f.status, message: f.message },
            );
          },
        );
      cache.set(id, p);
    }
    return p;
  }

  async admit(): Promise<Reply | null> {
    if (this.offline) return null;
    const sem = semaphoreFor(`${this.seatCfg.provider} ${this.baseURL ?? ''}`, this.env.concurrency ?? 4);
    const limit = this.env.slotWaitMs ?? Math.max(60_000, 6 * this.deadlineMs);
    const t0 = performance.now();
    const release = await sem.acquire(limit);
    this.slotWaitMs = Math.round(performance.now() - t0);
    if (!release) {
      const message = `no concurrency slot came free within ${limit} ms (--llm-concurrency ${this.env.concurrency ?? 4}); nothing was sent`;
      return { ok: false, reason: 'timeout', detail: message, message, meta: { slot_wait_ms: this.slotWaitMs } };
    }
    this.release = release;
    return null;
  }

  abandoned(): JsonObject | undefined {
    return this.inFlight;
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
      // a refused action is answered with this turn's legal values, not the schema's bounds
      const family = req.previous.reason === 'refused' ? familyOfAnswer(req.previous.answer) : null;
      if (family !== null) {
        const same = ctx.menu.actions.filter(
          (a) => a !== null && typeof a === 'object' && !Array.isArray(a) && a.type === family,
        );
        lines.push(
          same.length
            ? `The legal ${family} actions this turn are exactly: ${same
                .slice(0, 40)
                .map((a) => JSON.stringify(a))
                .join(', ')}${same.length > 40 ? ` (and ${same.length - 40} more above)` : ''}`
            : `No ${family} action is legal this turn.`,
        );
      }
      lines.push('Answer again with one legal action.');
    }
    return lines.join('\n');
  }

  async decide(req: DecisionRequest, signal: AbortSignal, ctx: AgentContext): Promise<Reply> {
    try {
      return await this.decideInSlot(req, signal, ctx);
    } finally {
      this.release?.();
      this.release = null;
      this.inFlight = undefined;
    }
  }

  private async decideInSlot(req: DecisionRequest, signal: AbortSignal, ctx: AgentContext): Promise<Reply> {
    const user = this.userPrompt(req, ctx);
    const declared = ctx.ruleset.schemas ? publishedActions(ctx.ruleset.schemas) : undefined;
    const tools = toolsForMenu(ctx.menu, (a) => ctx.ruleset.describeAction?.(a, req.seat) ?? '', declared);
    const body = this.wire.body(this.seatCfg, this.system, user, tools);
    if (this.env.dry) return this.dryAnswer(req, ctx, JSON.stringify(body).length);
    const key = requestKey(this.seatCfg.provider, body);
    const meta: JsonObject = { provider: this.seatCfg.provider, model: this.seatCfg.model, key, prompt: user };
    if (this.firstPrompt) {
      meta.system = this.system;
      this.firstPrompt = false;
    }
    if (this.slotWaitMs) meta.slot_wait_ms = this.slotWaitMs;
    this.slotWaitMs = undefined;
    this.inFlight = meta;
    const cassette = this.env.cassette;
    let entry = cassette?.next(key);
    if (!entry && cassette?.mode === 'replay')
      throw new MatchStop(
        'not_found',
        `cassette ${cassette.dir} has no answer for request ${req.request} (seat ${req.seat}, attempt ${req.attempt}, key ${key}): it was recorded with another seed, config, line-up or prompt`,
        { request: req.request, key },
      );
    if (!entry) {
      entry = await this.send(body, JSON.stringify(body).length, signal);
      cassette?.store(key, body, entry);
    }
    this.requests++;
    if ('timeout' in entry) {
      this.failedRequests++;
      return { ok: false, reason: 'timeout', meta };
    }
    if ('error' in entry) {
      this.failedRequests++;
      const e = entry.error;
      const detail = `${e.status === null ? 'no HTTP answer' : `HTTP ${e.status}`}: ${e.message}`;
      meta.status = e.status;
      return { ok: false, reason: 'error', detail, meta, status: e.status, message: e.message };
    }
    const ans: Answer = this.wire.answer(entry.response);
    this.count(ans);
    meta.tokens = { input: ans.usage.input, output: ans.usage.output };
    if (ans.usage.cached) (meta.tokens as JsonObject).cached = ans.usage.cached;
    if (ans.usage.cacheWrite) (meta.tokens as JsonObject).cache_write = ans.usage.cacheWrite;
    return this.judgeAnswer(req, ans, meta);
  }

  /** One live request: budget held first, the cost settled from the usage after. */
  private async send(body: Json, chars: number, signal: AbortSignal): Promise<CassetteEntry> {
    const client = this.client;
    if (!client) throw new ArbiterError('bad_request', `${this.name}: not started`);
    const price = this.seatCfg.price;
    const budget = this.env.budget;
    const maxOut = this.seatCfg.maxTokens ?? (this.seatCfg.reasoning ? 4096 : 1024);
    const hold = budget && price ? worstCase(chars, maxOut, price) : 0;
    budget?.reserve(hold, `the next request of ${this.name}`);
    let spent = 0;
    try {
      const response = await client.send(body, signal, this.deadlineMs);
      const r = JSON.parse(JSON.stringify(response)) as Json;
      if (price) spent = costOf(this.wire.answer(r).usage, price);
      return { response: r };
    } catch (err) {
      // a request given up at the deadline was likely read: charge its input
      if (signal.aborted) {
        if (price) spent = costOf({ ...EMPTY_USAGE(), input: Math.ceil(chars / CHARS_PER_TOKEN) }, price);
        return { timeout: true };
      }
      return { error: providerFailure(err) };
    } finally {
      budget?.settle(hold, spent);
    }
  }

  private count(ans: Answer): void {
    this.tokens.input += ans.usage.input;
    this.tokens.cached += ans.usage.cached;
    this.tokens.cacheWrite += ans.usage.cacheWrite;
    this.tokens.output += ans.usage.output;
    if (this.seatCfg.price) this.cost += costOf(ans.usage, this.seatCfg.price);
  }

  private judgeAnswer(req: DecisionRequest, ans: Answer, meta: JsonObject): Reply {
    const cut = ans.truncated
      ? ` (truncated: the answer stopped at the output limit of ${this.seatCfg.maxTokens ?? 1024} tokens)`
      : '';
    if (ans.truncated) meta.truncated = true;
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
            detail: `tool arguments are not JSON${cut}`,
            meta,
          };
        }
      }
      if (args === null || typeof args !== 'object' || Array.isArray(args)) {
        return {
          ok: false,
          reason: 'invalid_json',
          raw: `${ans.tool.name}(${raw})`,
          detail: `tool arguments are not an object${cut}`,
          meta,
        };
      }
      const action = { ...args, type: ans.tool.name };
      return { ok: true, message: { request: req.request, action }, raw: `${ans.tool.name}(${raw})`, meta };
    }
    if (ans.text.trim() === '')
      return { ok: false, reason: 'invalid_json', raw: '', detail: `an empty answer${cut}`, meta };
    // prose with JSON in it is parsed once; anything else is invalid
    const action = actionFromProse(ans.text);
    if (action === undefined)
      return { ok: false, reason: 'invalid_json', raw: ans.text, detail: `no JSON action in the answer${cut}`, meta };
    return { ok: true, message: { request: req.request, action }, raw: ans.text, meta };
  }

  /** The estimate's stand-in answer: the seat's default action, and the prompt's size counted. */
  private dryAnswer(req: DecisionRequest, ctx: AgentContext, bodyChars: number): Reply {
    this.dryChars.decisions++;
    this.dryChars.body += bodyChars;
    this.dryChars.system = this.system.length;
    const actions = ctx.menu.actions;
    const action =
      actions.find((a) => a !== null && typeof a === 'object' && !Array.isArray(a) && a.type === this.defaultAction) ??
      actions[0] ??
      null;
    return { ok: true, message: { request: req.request, action }, raw: '' };
  }

  usage(): JsonObject {
    if (this.env.dry)
      return {
        decisions: this.dryChars.decisions,
        system_chars: this.dryChars.system,
        body_chars: this.dryChars.body,
      };
    const u: JsonObject = {
      input_tokens: this.tokens.input,
      output_tokens: this.tokens.output,
      requests: this.requests,
    };
    if (this.failedRequests) u.failed_requests = this.failedRequests;
    if (this.tokens.cached) u.cached_input_tokens = this.tokens.cached;
    if (this.tokens.cacheWrite) u.cache_write_tokens = this.tokens.cacheWrite;
    if (this.seatCfg.price) u.cost_usd = Math.round(this.cost * 1e6) / 1e6;
    return u;
  }

  close(): void {
    this.release?.();
    this.release = null;
  }
}

/** `llm:PROVIDER:MODEL` */
export function parseLlmSpec(args: string): { provider: Provider; model: string } {
  const i = args.indexOf(':');
  const provider = i < 0 ? args : args.slice(0, i);
  const model = i < 0 ? '' : args.slice(i + 1);
  if (!(PROVIDERS as readonly string[]).includes(provider))
    throw new ArbiterError(
      'bad_request',
      `llm: provider must be one of ${PROVIDERS.join(', ')} (llm:openai:MODEL), got "${provider}"`,
    );
  if (!model)
    throw new ArbiterError(
      'bad_request',
      `llm:${provider}: needs a model name, e.g. llm:${provider}:${provider === 'anthropic' ? 'claude-haiku' : provider === 'google' ? 'gemini-2.5-flash' : 'gpt-4o-mini'}`,
    );
  return { provider: provider as Provider, model };
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
