// A local stand-in for three model providers' HTTP APIs (OpenAI chat completions, which any
// OpenAI-compatible endpoint speaks; Anthropic messages; Google generateContent) on 127.0.0.1,
// scripted per request. The real SDKs talk to it over HTTP; nothing in the SDKs is mocked.
// Token counts are the stand-in's own (4 characters a token), and prompt caching is modelled the
// way the providers document it: a request's cacheable prefix (tool definitions, then the system
// prompt) is read from the cache when an earlier request had the very same prefix — Anthropic only
// up to a block marked `cache_control`, OpenAI and Google automatically in 128-token steps from 1024.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Step =
  | { kind: 'tool'; name: string; args: Record<string, unknown> | string }
  | { kind: 'prose'; text: string }
  | { kind: 'empty' }
  /** The answer cut at the output limit (finish_reason length / max_tokens / MAX_TOKENS). */
  | { kind: 'truncated'; text: string }
  | { kind: 'status'; status: number; headers?: Record<string, string>; message?: string }
  | { kind: 'delay'; ms: number; then: Step }
  /** Pick a legal-looking tool call from the request's own tools (enums only), deterministically. */
  | { kind: 'auto' };

export type Provider = 'openai' | 'anthropic' | 'google';

export interface ModelServer {
  url: string;
  script: Record<Provider, Step[]>;
  /** Answers to preflight requests (requests without tools), in order; default a plain "ok". */
  preflightScript: Record<Provider, Step[]>;
  /** A step every (non-preflight) request for this model gets, whatever the script says. */
  byModel: Record<string, Step>;
  requests: { provider: Provider; body: Record<string, unknown>; auth: string | undefined; path: string }[];
  preflights: { provider: Provider; body: Record<string, unknown>; auth: string | undefined }[];
  /** Most requests answered at the same moment so far. */
  maxInFlight: number;
  /**
   * Answer the next `n` (non-preflight) requests, then keep every later one unanswered until
   * `release()`: a match stays running for as long as a test needs (a spectator's look, say).
   */
  hold(n: number): Promise<void>;
  release(): void;
  close(): Promise<void>;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

type ToolDef = { name: string; params: { properties?: Record<string, { enum?: unknown[] }>; required?: string[] } };

function toolsOf(provider: Provider, body: Record<string, unknown>): ToolDef[] {
  if (provider === 'google') {
    const decls = ((body.tools ?? []) as { functionDeclarations?: Record<string, unknown>[] }[]).flatMap(
      (t) => t.functionDeclarations ?? [],
    );
    return decls.map((d) => ({
      name: d.name as string,
      params: (d.parametersJsonSchema ?? d.parameters) as ToolDef['params'],
    }));
  }
  const tools = (body.tools ?? []) as Record<string, unknown>[];
  return tools.map((t) =>
    provider === 'openai'
      ? {
          name: (t.function as { name: string }).name,
          params: (t.function as { parameters: ToolDef['params'] }).parameters,
        }
      : { name: t.name as string, params: t.input_schema as ToolDef['params'] },
  );
}

function autoStep(provider: Provider, body: Record<string, unknown>): Step {
  const seed = hash(JSON.stringify(body.messages ?? body.contents));
  const usable = toolsOf(provider, body).filter((t) =>
    Object.values(t.params.properties ?? {}).every((p) => Array.isArray(p.enum)),
  );
  if (usable.length === 0) return { kind: 'prose', text: '{"type":"wait"}' };
  const tool = usable[seed % usable.length];
  const args: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(tool.params.properties ?? {})) args[k] = p.enum![(seed >>> 8) % p.enum!.length];
  return { kind: 'tool', name: tool.name, args };
}

const tokens = (chars: number) => Math.ceil(chars / 4);

/**
 * How many leading characters two strings share. Compared in blocks of 4096, then 512, 64, 8 and 1
 * characters (slice equality is a native compare): a character loop over 64 earlier prompts of a
 * whole bnc episode was most of this stand-in's CPU.
 */
function sharedPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  for (let block = 4096; block >= 1; block >>= 3)
    while (i + block <= n && a.slice(i, i + block) === b.slice(i, i + block)) i += block;
  return i;
}

/** The cache model: which prefixes were seen, and how many tokens of this request they cover. */
class PromptCache {
  private readonly marked = new Set<string>();
  private readonly seen: string[] = [];
  /** Anthropic: the prefix up to the last `cache_control` block, all or nothing. */
  explicit(prefix: string | null): { read: number; write: number } {
    if (prefix === null) return { read: 0, write: 0 };
    if (this.marked.has(prefix)) return { read: tokens(prefix.length), write: 0 };
    this.marked.add(prefix);
    return { read: 0, write: tokens(prefix.length) };
  }
  /** OpenAI / Google: the longest prefix shared with an earlier request, in 128-token steps from 1024. */
  automatic(prompt: string): number {
    let best = 0;
    for (const p of this.seen) best = Math.max(best, sharedPrefix(p, prompt));
    this.seen.push(prompt);
    if (this.seen.length > 64) this.seen.shift();
    const t = Math.floor(tokens(best) / 128) * 128;
    return t >= 1024 ? t : 0;
  }
}

function reply(
  provider: Provider,
  body: Record<string, unknown>,
  step: Step,
  promptChars: number,
  cache: PromptCache,
): Record<string, unknown> {
  const model = String(body.model);
  const usageIn = tokens(promptChars);
  const usageOut = 12;
  const truncated = step.kind === 'truncated';
  const text = step.kind === 'prose' || step.kind === 'truncated' ? step.text : null;
  if (provider === 'openai') {
    const message: Record<string, unknown> = { role: 'assistant', content: text };
    if (step.kind === 'tool') {
      message.tool_calls = [
        {
          id: 'call_1',
          type: 'function',
          function: {
            name: step.name,
            arguments: typeof step.args === 'string' ? step.args : JSON.stringify(step.args),
          },
        },
      ];
    }
    const cached = cache.automatic(JSON.stringify(body.tools ?? []) + JSON.stringify(body.messages ?? []));
    return {
      id: 'chatcmpl-local',
      object: 'chat.completion',
      created: 0,
      model,
      choices: [
        {
          index: 0,
          finish_reason: truncated ? 'length' : step.kind === 'tool' ? 'tool_calls' : 'stop',
          message,
          logprobs: null,
        },
      ],
      usage: {
        prompt_tokens: usageIn,
        completion_tokens: usageOut,
        total_tokens: usageIn + usageOut,
        prompt_tokens_details: { cached_tokens: Math.min(cached, usageIn) },
      },
    };
  }
  if (provider === 'google') {
    const parts: unknown[] = [];
    if (step.kind === 'tool')
      parts.push({ functionCall: { name: step.name, args: typeof step.args === 'string' ? {} : step.args } });
    else if (text !== null) parts.push({ text });
    const sys = JSON.stringify(body.systemInstruction ?? '');
    const cached = cache.automatic(JSON.stringify(body.tools ?? []) + sys + JSON.stringify(body.contents ?? []));
    return {
      candidates: [
        {
          content: { role: 'model', parts },
          finishReason: truncated ? 'MAX_TOKENS' : 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: usageIn,
        candidatesTokenCount: usageOut,
        totalTokenCount: usageIn + usageOut,
        ...(cached ? { cachedContentTokenCount: Math.min(cached, usageIn) } : {}),
      },
      modelVersion: model,
    };
  }
  const content: unknown[] = [];
  if (step.kind === 'tool')
    content.push({
      type: 'tool_use',
      id: 'toolu_1',
      name: step.name,
      input: typeof step.args === 'string' ? { raw: step.args } : step.args,
    });
  else if (text !== null) content.push({ type: 'text', text });
  // the cacheable prefix: tool definitions, then the system blocks up to the last one marked
  const system = Array.isArray(body.system) ? (body.system as { text: string; cache_control?: unknown }[]) : [];
  const last = system.map((b) => b.cache_control !== undefined).lastIndexOf(true);
  const prefix =
    last < 0
      ? null
      : JSON.stringify(body.tools ?? []) +
        system
          .slice(0, last + 1)
          .map((b) => b.text)
          .join('');
  const c = cache.explicit(prefix);
  return {
    id: 'msg_local',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: truncated ? 'max_tokens' : step.kind === 'tool' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: Math.max(0, usageIn - c.read - c.write),
      output_tokens: usageOut,
      cache_read_input_tokens: c.read,
      cache_creation_input_tokens: c.write,
    },
  };
}

function errorBody(provider: Provider, status: number, message: string): unknown {
  if (provider === 'anthropic') return { type: 'error', error: { type: 'scripted', message } };
  if (provider === 'google') return { error: { code: status, message, status: 'SCRIPTED' } };
  return { error: { type: 'scripted', message, code: null } };
}

export async function startModelServer(): Promise<ModelServer> {
  const script: Record<Provider, Step[]> = { openai: [], anthropic: [], google: [] };
  const preflightScript: Record<Provider, Step[]> = { openai: [], anthropic: [], google: [] };
  const byModel: Record<string, Step> = {};
  const requests: ModelServer['requests'] = [];
  const preflights: ModelServer['preflights'] = [];
  const timers = new Set<NodeJS.Timeout>();
  const cache = new PromptCache();
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  // hold: answers after `holdAt` requests wait here; `reached` resolves when the first one waits
  let holdAt = Number.POSITIVE_INFINITY;
  let heldSends: (() => void)[] = [];
  let reached: (() => void) | null = null;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '';
      const provider: Provider | null = url.endsWith('/chat/completions')
        ? 'openai'
        : url.endsWith('/messages')
          ? 'anthropic'
          : /:generateContent(\?|$)/.test(url)
            ? 'google'
            : null;
      if (!provider || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no such route"}}');
        return;
      }
      const body = JSON.parse(text) as Record<string, unknown>;
      if (provider === 'google') body.model = decodeURIComponent(/models\/([^:]+):/.exec(url)?.[1] ?? '');
      const auth = (req.headers.authorization ?? req.headers['x-api-key'] ?? req.headers['x-goog-api-key']) as
        | string
        | undefined;
      const preflight = body.tools === undefined;
      let step: Step;
      if (preflight) {
        preflights.push({ provider, body, auth });
        step = preflightScript[provider].shift() ?? { kind: 'prose', text: 'ok' };
      } else {
        requests.push({ provider, body, auth, path: url });
        step = byModel[String(body.model)] ?? script[provider].shift() ?? { kind: 'auto' };
      }
      inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      let counted = true;
      const done = () => {
        if (counted) inFlight--;
        counted = false;
      };
      res.once('close', done);
      const send = (s: Step) => {
        if (res.destroyed) return done();
        if (s.kind === 'auto') s = autoStep(provider, body);
        if (s.kind === 'delay') {
          const t = setTimeout(() => {
            timers.delete(t);
            send(s.kind === 'delay' ? s.then : s);
          }, s.ms);
          timers.add(t);
          return;
        }
        if (s.kind === 'status') {
          res.writeHead(s.status, { 'content-type': 'application/json', ...(s.headers ?? {}) });
          res.end(JSON.stringify(errorBody(provider, s.status, s.message ?? `scripted ${s.status}`)));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply(provider, body, s, text.length, cache)));
      };
      if (!preflight && requests.length > holdAt) {
        heldSends.push(() => send(step));
        reached?.();
        reached = null;
      } else send(step);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    script,
    preflightScript,
    byModel,
    requests,
    preflights,
    get maxInFlight() {
      return state.maxInFlight;
    },
    set maxInFlight(v: number) {
      state.maxInFlight = v;
    },
    hold(n: number) {
      holdAt = requests.length + n;
      return new Promise<void>((r) => {
        reached = r;
      });
    },
    release() {
      holdAt = Number.POSITIVE_INFINITY;
      const go = heldSends;
      heldSends = [];
      for (const f of go) f();
    },
    close: () =>
      new Promise<void>((r) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
