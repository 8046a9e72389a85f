// The wire of each model provider: the request body (the cassette key is a hash of it), the answer
// normalised to one shape, the SDK client and one call. `compatible` is the OpenAI wire format at a
// base URL of the user's (a local server, a router); `google` goes through @google/genai.

import type { Json } from '@arbiter/engine/kernel';
import type { ToolSpec } from './tools.ts';

export const PROVIDERS = ['openai', 'anthropic', 'google', 'compatible'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** What a seat asks of its model: the knobs that go into the request body. */
export type ModelParams = {
  model: string;
  temperature?: number;
  maxTokens?: number;
  /** A reasoning model: `max_completion_tokens` instead of `max_tokens`, and no temperature. */
  reasoning?: boolean;
};

export type Usage = {
  /** Every input token, cached or not. */
  input: number;
  /** Input tokens read from the provider's prompt cache (billed at the cached price). */
  cached: number;
  /** Input tokens written to the cache (Anthropic bills them above the plain price). */
  cacheWrite: number;
  output: number;
};

export type Answer = {
  tool?: { name: string; args: string | Json };
  text: string;
  usage: Usage;
  /** The answer stopped at the output token limit. */
  truncated: boolean;
};

export type ClientOptions = { apiKey: string; baseURL: string | undefined; maxRetries: number; timeout: number };

export interface Client {
  send(body: Json, signal: AbortSignal, timeout: number): Promise<Json>;
}

export interface ProviderWire {
  /** Environment variables of the provider's own endpoint and key. */
  keyEnv: string | null;
  baseEnv: string | null;
  body(p: ModelParams, system: string, user: string, tools: ToolSpec[]): Json;
  /** The smallest request that proves endpoint, model and key work. */
  preflight(p: ModelParams): Json;
  answer(r: Json): Answer;
  client(o: ClientOptions): Promise<Client>;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

// ---------------------------------------------------------------- OpenAI chat completions

function openaiBody(p: ModelParams, system: string, user: string, tools: ToolSpec[]): Json {
  // the system message comes first and is the same text every turn: OpenAI caches a byte-stable prefix
  const body: { [k: string]: Json } = { model: p.model };
  if (p.reasoning) body.max_completion_tokens = p.maxTokens ?? 4096;
  else {
    body.temperature = p.temperature ?? 0;
    body.max_tokens = p.maxTokens ?? 1024;
  }
  body.messages = [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
  body.tools = tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
  body.tool_choice = 'auto';
  return body;
}

function openaiAnswer(r: Json): Answer {
  const o = r as {
    choices?: {
      finish_reason?: string;
      message?: { content?: string | null; tool_calls?: { function?: { name?: string; arguments?: string } }[] };
    }[];
    usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } };
  };
  const choice = o.choices?.[0];
  const call = choice?.message?.tool_calls?.[0]?.function;
  const out: Answer = {
    text: choice?.message?.content ?? '',
    usage: {
      input: num(o.usage?.prompt_tokens),
      cached: num(o.usage?.prompt_tokens_details?.cached_tokens),
      cacheWrite: 0,
      output: num(o.usage?.completion_tokens),
    },
    truncated: choice?.finish_reason === 'length',
  };
  if (call?.name) out.tool = { name: call.name, args: call.arguments ?? '{}' };
  return out;
}

const openaiWire = (keyEnv: string | null, baseEnv: string | null): ProviderWire => ({
  keyEnv,
  baseEnv,
  body: openaiBody,
  preflight: (p): Json => {
    const messages = [{ role: 'user', content: 'Say ok.' }];
    return p.reasoning
      ? { model: p.model, max_completion_tokens: 16, messages }
      : { model: p.model, max_tokens: 1, messages };
  },
  answer: openaiAnswer,
  async client(o) {
    const c = new (await import('openai')).default(o);
    return {
      send: async (body, signal, timeout) => c.chat.completions.create(body as never, { signal, timeout }) as never,
    };
  },
});

// ---------------------------------------------------------------- Anthropic messages

function anthropicBody(p: ModelParams, system: string, user: string, tools: ToolSpec[]): Json {
  const body: { [k: string]: Json } = { model: p.model };
  if (!p.reasoning) body.temperature = p.temperature ?? 0;
  body.max_tokens = p.maxTokens ?? 1024;
  // the system prompt (role, statements, rules) is marked for the prompt cache: it is the same
  // text every turn, so later requests read it at the cached price
  body.system = [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }];
  body.messages = [{ role: 'user', content: user }];
  body.tools = tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  body.tool_choice = { type: 'auto' };
  return body;
}

function anthropicAnswer(r: Json): Answer {
  const o = r as {
    content?: ({ type: 'text'; text: string } | { type: 'tool_use'; name: string; input: Json })[];
    stop_reason?: string;
    usage?: {
      input_tokens?: number;
      output_tokens?: number;
      cache_read_input_tokens?: number | null;
      cache_creation_input_tokens?: number | null;
    };
  };
  const blocks = o.content ?? [];
  const tool = blocks.find((b) => b.type === 'tool_use') as { name: string; input: Json } | undefined;
  const text = blocks
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('\n');
  const cached = num(o.usage?.cache_read_input_tokens);
  const cacheWrite = num(o.usage?.cache_creation_input_tokens);
  const out: Answer = {
    text,
    // Anthropic's input_tokens counts only what was neither read from nor written to the cache
    usage: {
      input: num(o.usage?.input_tokens) + cached + cacheWrite,
      cached,
      cacheWrite,
      output: num(o.usage?.output_tokens),
    },
    truncated: o.stop_reason === 'max_tokens',
  };
  if (tool) out.tool = { name: tool.name, args: tool.input };
  return out;
}

const anthropicWire: ProviderWire = {
  keyEnv: 'ANTHROPIC_API_KEY',
  baseEnv: 'ANTHROPIC_BASE_URL',
  body: anthropicBody,
  preflight: (p) => ({ model: p.model, max_tokens: 1, messages: [{ role: 'user', content: 'Say ok.' }] }),
  answer: anthropicAnswer,
  async client(o) {
    const c = new (await import('@anthropic-ai/sdk')).default(o);
    return { send: async (body, signal, timeout) => c.messages.create(body as never, { signal, timeout }) as never };
  },
};

// ---------------------------------------------------------------- Google Gemini (generateContent)

function googleBody(p: ModelParams, system: string, user: string, tools: ToolSpec[]): Json {
  const config: { [k: string]: Json } = { systemInstruction: system };
  if (!p.reasoning) config.temperature = p.temperature ?? 0;
  config.maxOutputTokens = p.maxTokens ?? 1024;
  config.tools = [
    {
      functionDeclarations: tools.map((t) => ({
        name: t.name,
        description: t.description,
        parametersJsonSchema: t.parameters,
      })),
    },
  ];
  return { model: p.model, contents: [{ role: 'user', parts: [{ text: user }] }], config };
}

function googleAnswer(r: Json): Answer {
  const o = r as {
    candidates?: {
      finishReason?: string;
      content?: { parts?: { text?: string; functionCall?: { name?: string; args?: Json } }[] };
    }[];
    usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; cachedContentTokenCount?: number };
  };
  const cand = o.candidates?.[0];
  const parts = cand?.content?.parts ?? [];
  const call = parts.find((x) => x.functionCall?.name)?.functionCall;
  const out: Answer = {
    text: parts
      .filter((x) => typeof x.text === 'string')
      .map((x) => x.text)
      .join('\n'),
    usage: {
      input: num(o.usageMetadata?.promptTokenCount),
      cached: num(o.usageMetadata?.cachedContentTokenCount),
      cacheWrite: 0,
      output: num(o.usageMetadata?.candidatesTokenCount),
    },
    truncated: cand?.finishReason === 'MAX_TOKENS',
  };
  if (call?.name) out.tool = { name: call.name, args: call.args ?? {} };
  return out;
}

const googleWire: ProviderWire = {
  keyEnv: 'GEMINI_API_KEY',
  baseEnv: 'GOOGLE_GEMINI_BASE_URL',
  body: googleBody,
  preflight: (p) => ({
    model: p.model,
    contents: [{ role: 'user', parts: [{ text: 'Say ok.' }] }],
    config: { maxOutputTokens: 1 },
  }),
  answer: googleAnswer,
  async client(o) {
    const { GoogleGenAI } = await import('@google/genai');
    const ai = new GoogleGenAI({
      apiKey: o.apiKey,
      httpOptions: {
        ...(o.baseURL ? { baseUrl: o.baseURL } : {}),
        timeout: o.timeout,
        // the same retry rule as the other SDKs: 429/5xx, 1 + maxRetries attempts
        retryOptions: { attempts: 1 + o.maxRetries, initialDelay: 0.5, maxDelay: 8 },
      },
    });
    return {
      async send(body, signal) {
        const b = body as { model: string; contents: never; config: Record<string, unknown> };
        const r = await ai.models.generateContent({
          model: b.model,
          contents: b.contents,
          config: { ...b.config, abortSignal: signal },
        });
        // the SDK's response object has getters; keep the wire fields only
        return { candidates: r.candidates ?? [], usageMetadata: r.usageMetadata ?? {} } as unknown as Json;
      },
    };
  },
};

export const WIRES: Record<Provider, ProviderWire> = {
  openai: openaiWire('OPENAI_API_KEY', 'OPENAI_BASE_URL'),
  anthropic: anthropicWire,
  google: googleWire,
  // a user's own endpoint: no default key or URL from the environment, the seat names both
  compatible: openaiWire(null, null),
};

/** The HTTP status and the provider's own message of a failed SDK call (status null: no HTTP answer). */
export function providerFailure(err: unknown): { status: number | null; message: string } {
  const e = err as { status?: unknown; message?: unknown; error?: unknown; cause?: { code?: unknown } };
  const status = typeof e?.status === 'number' ? e.status : null;
  let message = typeof e?.message === 'string' ? e.message : String(err);
  // the OpenAI/Anthropic SDKs keep the parsed error body; its own message is the clearest words
  const inner = (e?.error as { error?: { message?: unknown }; message?: unknown } | undefined) ?? undefined;
  const said = inner?.error?.message ?? inner?.message;
  if (typeof said === 'string' && said !== '') message = said;
  if (status === null && typeof e?.cause?.code === 'string') message += ` (${e.cause.code})`;
  return { status, message: message.replace(/\s+/g, ' ').trim() };
}
