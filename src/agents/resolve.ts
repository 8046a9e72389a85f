// Turn agent names from the command line ("random", "heuristic", "cmd:python3 bot.py") into agents.
// The caller hands over the ruleset package once; nothing here looks a ruleset up by id.

import { join } from 'node:path';
import { ArbiterError, type Agent, type AgentFactory, type RulesetPackage, type Json } from '@arbiter/engine/kernel';
import { BUILTIN_AGENTS, SEARCH_AGENTS } from '@arbiter/engine/agents';
import { parseSearchArgs, searchAgent, type SearchHooks } from '@arbiter/engine/agents';
import { subprocessAgent } from './subprocess.ts';
import { httpAgent } from './http.ts';
import { llmAgent, parseLlmSpec, type LlmEnv } from './llm/llm.ts';

/** What transport agents need from the caller: where stderr goes, model endpoints, cassettes. */
export interface AgentEnv {
  /** Folder for per-seat stderr files of `cmd:` agents (`seat-N.stderr`). */
  stderrDir?: string;
  llm?: LlmEnv;
}

type PrefixFactory = (args: string, seat: number, env: AgentEnv, pkg: RulesetPackage<unknown, Json>) => Agent;

/** The package's search hints as the search agents take them (the rollout agent made by name). */
export function searchHooks<S, A extends Json>(pkg: RulesetPackage<S, A>): SearchHooks<S> {
  const hints = pkg.search;
  if (!hints) return {};
  const entry = hints.rollout !== undefined ? pkg.agents[hints.rollout] : undefined;
  if (hints.rollout !== undefined && !entry)
    throw new ArbiterError(
      'not_found',
      `${pkg.ruleset.id}: search rollout agent "${hints.rollout}" is not in the package`,
    );
  const factory = entry?.factory as AgentFactory<Json, S> | undefined;
  return {
    ...(factory ? { policy: () => factory({}) } : {}),
    ...(hints.evaluate ? { evaluate: (s: S) => hints.evaluate!(s) } : {}),
    ...(hints.depth !== undefined ? { depth: hints.depth } : {}),
  };
}

function search(name: 'mcts' | 'ismcts', args: string | undefined, pkg: RulesetPackage<unknown, Json>): Agent {
  // refused when seated, not at the first decision (where it would only fail the seat)
  if (!pkg.ruleset.sampleState)
    throw new ArbiterError(
      'bad_request',
      `${name} needs ${pkg.ruleset.id} to sample states from a view (Ruleset.sampleState), which it does not`,
    );
  return searchAgent(name, parseSearchArgs(args, name === 'ismcts'), searchHooks(pkg));
}

/**
 * External agent kinds plug in here by prefix: `cmd:<command line>` is a program on JSON lines,
 * `http:<URL>` a web service, `llm:<provider>:<model>` a language model (all speak the protocol).
 */
const AGENT_PREFIXES: Record<string, PrefixFactory> = {
  cmd: (args, seat, env) =>
    subprocessAgent(args, env.stderrDir ? { stderrPath: join(env.stderrDir, `seat-${seat}.stderr`) } : {}),
  http: (args) => httpAgent(args),
  llm: (args, _seat, env) => llmAgent(parseLlmSpec(args), env.llm),
  // in-process search agents with parameters in the spec
  mcts: (args, _seat, _env, pkg) => search('mcts', args, pkg),
  ismcts: (args, _seat, _env, pkg) => search('ismcts', args, pkg),
};

/** Prefixes whose agents answer through a protocol transport (asynchronously, out of process). */
const TRANSPORT_PREFIXES = new Set(['cmd', 'http', 'llm']);

/** Whether a spec names an agent that answers through a transport (asynchronously). */
export function isTransportSpec(spec: string): boolean {
  const colon = spec.indexOf(':');
  return colon > 0 && TRANSPORT_PREFIXES.has(spec.slice(0, colon));
}

/** The agents a package can seat by name; the search agents only where the ruleset has a sampler. */
export function agentNames<S, A extends Json>(pkg: RulesetPackage<S, A>): string[] {
  const builtins = Object.keys(BUILTIN_AGENTS).filter((n) => pkg.ruleset.sampleState || !SEARCH_AGENTS.has(n));
  return [...builtins, ...Object.keys(pkg.agents)];
}

export function makeAgent<S, A extends Json>(
  pkg: RulesetPackage<S, A>,
  spec: string,
  env: AgentEnv = {},
  seat = 0,
): Agent {
  const colon = spec.indexOf(':');
  if (colon > 0) {
    const prefix = spec.slice(0, colon);
    const factory = AGENT_PREFIXES[prefix];
    if (!factory)
      throw new ArbiterError(
        'not_found',
        `unknown agent kind "${prefix}:" (known: ${Object.keys(AGENT_PREFIXES)
          .map((p) => p + ':')
          .join(', ')})`,
      );
    return factory(spec.slice(colon + 1), seat, env, pkg as RulesetPackage<unknown, Json>);
  }
  if (spec === 'mcts' || spec === 'ismcts') return search(spec, undefined, pkg as RulesetPackage<unknown, Json>);
  const factory = pkg.agents[spec]?.factory ?? BUILTIN_AGENTS[spec];
  if (!factory) {
    throw new ArbiterError(
      'not_found',
      `unknown agent "${spec}" for ${pkg.ruleset.id} (known: ${agentNames(pkg).join(', ')})`,
    );
  }
  return factory({});
}

/**
 * "random" → the same agent for every seat; "heuristic,random" → one per seat, cycling. A list of
 * several strings (repeated --agents) takes each string whole, so a `cmd:` line may hold commas.
 * Agents hold no generator of their own: the runner hands each seat `ctx.random`, seeded from the
 * match seed, the seat and the decision (engine/seed.ts), so an agent is a pure function of what it is shown.
 * Every seat is resolved before any program starts (programs start in runMatch), and a refused
 * line-up releases whatever the earlier seats hold.
 */
export function makeAgents<S, A extends Json>(
  pkg: RulesetPackage<S, A>,
  specs: string | string[],
  seats: number,
  env: AgentEnv = {},
): Agent[] {
  const list = (Array.isArray(specs) && specs.length > 1 ? specs : String(specs).split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (list.length === 0) throw new ArbiterError('bad_request', 'no agent named');
  if (list.length > seats) throw new ArbiterError('bad_request', `${list.length} agents named for ${seats} seats`);
  const made: Agent[] = [];
  try {
    for (let seat = 0; seat < seats; seat++) made.push(makeAgent(pkg, list[seat % list.length], env, seat));
  } catch (err) {
    for (const a of made)
      void Promise.resolve()
        .then(() => a.close?.())
        .catch(() => {});
    throw err;
  }
  return made;
}
