// Turn agent names from the command line ("random", "heuristic", "cmd:python3 bot.py") into agents.
// The caller hands over the ruleset package once; nothing here looks a ruleset up by id.

import { ArbiterError, type Agent, type AgentFactory, type RulesetPackage } from '../kernel/index.ts';
import { BUILTIN_AGENTS, ismctsAgent, mctsAgent } from './builtin.ts';
import { subprocessAgentFactory } from './subprocess.ts';

/** External agent kinds plug in here by prefix: `cmd:<command line>` is a program on JSON lines. */
export const AGENT_PREFIXES: Record<string, AgentFactory> = { cmd: subprocessAgentFactory, mcts: mctsAgent, ismcts: ismctsAgent };

export function agentNames<S, A>(pkg: RulesetPackage<S, A>): string[] {
  return [...Object.keys(BUILTIN_AGENTS), ...Object.keys(pkg.agents)];
}

export function makeAgent<S, A>(pkg: RulesetPackage<S, A>, spec: string): Agent<A, S> {
  const colon = spec.indexOf(':');
  if (colon > 0) {
    const prefix = spec.slice(0, colon);
    const factory = AGENT_PREFIXES[prefix];
    if (!factory) throw new ArbiterError('not_found', `unknown agent kind "${prefix}:" (known: ${Object.keys(AGENT_PREFIXES).map((p) => p + ':').join(', ') || 'none'})`);
    return factory({ args: spec.slice(colon + 1) });
  }
  const factory = pkg.agents[spec]?.factory ?? BUILTIN_AGENTS[spec];
  if (!factory) {
    throw new ArbiterError('not_found', `unknown agent "${spec}" for ${pkg.ruleset.id} (known: ${agentNames(pkg).join(', ')})`);
  }
  return factory({});
}

/**
 * "random" → the same agent for every seat; "heuristic,random" → one per seat, cycling. A list of
 * several strings (repeated --agents) takes each string whole, so a `cmd:` line may hold commas.
 * Agents hold no generator of their own: the runner hands each seat `ctx.random`, seeded from the
 * match seed and the seat (`agentSeed`), so an agent is a pure function of what it is shown.
 */
export function makeAgents<S, A>(pkg: RulesetPackage<S, A>, specs: string | string[], seats: number): Agent<A, S>[] {
  const list = (Array.isArray(specs) && specs.length > 1 ? specs : String(specs).split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (list.length === 0) throw new ArbiterError('bad_request', 'no agent named');
  if (list.length > seats) throw new ArbiterError('bad_request', `${list.length} agents named for ${seats} seats`);
  return Array.from({ length: seats }, (_, seat) => makeAgent(pkg, list[seat % list.length]));
}

/** Agents draw from their own streams, derived from the match seed and the seat. */
export function agentSeed(seed: number, seat: number): number {
  let h = (seed ^ Math.imul(seat + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  return (h ^ (h >>> 13)) >>> 0;
}
