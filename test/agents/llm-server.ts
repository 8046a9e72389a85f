// A local stand-in for both model providers' HTTP APIs (OpenAI chat completions, Anthropic
// messages) on 127.0.0.1, scripted per request. The real SDKs talk to it over HTTP; nothing in
// the SDKs is mocked.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Step =
  | { kind: 'tool'; name: string; args: Record<string, unknown> | string }
  | { kind: 'prose'; text: string }
  | { kind: 'empty' }
  | { kind: 'status'; status: number; headers?: Record<string, string> }
  | { kind: 'delay'; ms: number; then: Step }
  /** Pick a legal-looking tool call from the request's own tools (enums only), deterministically. */
  | { kind: 'auto' };

export type Provider = 'openai' | 'anthropic';

export interface ModelServer {
  url: string;
  script: Record<Provider, Step[]>;
  requests: { provider: Provider; body: Record<string, unknown>; auth: string | undefined }[];
  /** Most requests answered at the same moment so far. */
  maxInFlight: number;
  close(): Promise<void>;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

type ToolDef = { name: string; params: { properties?: Record<string, { enum?: unknown[] }>; required?: string[] } };

function toolsOf(provider: Provider, body: Record<string, unknown>): ToolDef[] {
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
  const seed = hash(JSON.stringify(body.messages));
  const usable = toolsOf(provider, body).filter((t) =>
    Object.values(t.params.properties ?? {}).every((p) => Array.isArray(p.enum)),
  );
  if (usable.length === 0) return { kind: 'prose', text: '{"type":"wait"}' };
  const tool = usable[seed % usable.length];
  const args: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(tool.params.properties ?? {})) args[k] = p.enum![(seed >>> 8) % p.enum!.length];
  return { kind: 'tool', name: tool.name, args };
}

function reply(provider: Provider, model: string, step: Step, promptChars: number): Record<string, unknown> {
  const usageIn = Math.ceil(promptChars / 4);
  const usageOut = 12;
  if (provider === 'openai') {
    const message: Record<string, unknown> = { role: 'assistant', content: null };
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
    } else if (step.kind === 'prose') message.content = step.text;
    return {
      id: 'chatcmpl-local',
      object: 'chat.completion',
      created: 0,
      model,
      choices: [{ index: 0, finish_reason: step.kind === 'tool' ? 'tool_calls' : 'stop', message, logprobs: null }],
      usage: { prompt_tokens: usageIn, completion_tokens: usageOut, total_tokens: usageIn + usageOut },
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
  else if (step.kind === 'prose') content.push({ type: 'text', text: step.text });
  return {
    id: 'msg_local',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: step.kind === 'tool' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usageIn, output_tokens: usageOut },
  };
}

export async function startModelServer(): Promise<ModelServer> {
  const script: Record<Provider, Step[]> = { openai: [], anthropic: [] };
  const requests: ModelServer['requests'] = [];
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const provider: Provider | null = req.url?.endsWith('/chat/completions')
        ? 'openai'
        : req.url?.endsWith('/messages')
          ? 'anthropic'
          : null;
      if (!provider || req.method !== 'POST') {
        res.writeHead(404).end('{}');
        return;
      }
      const body = JSON.parse(text) as Record<string, unknown>;
      requests.push({
        provider,
        body,
        auth: (req.headers.authorization ?? req.headers['x-api-key']) as string | undefined,
      });
      let step: Step = script[provider].shift() ?? { kind: 'auto' };
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
          res.end(JSON.stringify({ error: { type: 'scripted', message: `scripted ${s.status}` } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply(provider, String(body.model), s, text.length)));
      };
      send(step);
      step = { kind: 'auto' };
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    script,
    requests,
    get maxInFlight() {
      return state.maxInFlight;
    },
    set maxInFlight(v: number) {
      state.maxInFlight = v;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
