// Turn agent names from the command line ("random", "heuristic", "cmd:python3 bot.py") into agents.

import { ArbiterError, type Agent, type AgentFactory } from '../kernel/index.ts';
import { getEntry } from '../registry.ts';
import { BUILTIN_AGENTS } from './builtin.ts';
import { subprocessAgentFactory } from './subprocess.ts';

/** External agent kinds plug in here by prefix: `cmd:<command line>` is a program on JSON lines. */
export const AGENT_PREFIXES: Record<string, AgentFactory> = { cmd: subprocessAgentFactory };

export function agentNames(rulesetId: string): string[] {
  return [...Object.keys(BUILTIN_AGENTS), ...Object.keys(getEntry(rulesetId).agents)];
}

export function makeAgent(rulesetId: string, spec: string, seat: number, seed: number): Agent {
  const colon = spec.indexOf(':');
  if (colon > 0) {
    const prefix = spec.slice(0, colon);
    const factory = AGENT_PREFIXES[prefix];
    if (!factory) throw new ArbiterError('not_found', `unknown agent kind "${prefix}:" (known: ${Object.keys(AGENT_PREFIXES).map((p) => p + ':').join(', ') || 'none'})`);
    return factory({ seat, seed, args: spec.slice(colon + 1) });
  }
  const factory = getEntry(rulesetId).agents[spec]?.factory ?? BUILTIN_AGENTS[spec];
  if (!factory) {
    throw new ArbiterError('not_found', `unknown agent "${spec}" for ${rulesetId} (known: ${agentNames(rulesetId).join(', ')})`);
  }
  return factory({ seat, seed });
}

/**
 * "random" → the same agent for every seat; "heuristic,random" → one per seat, cycling. A list of
 * several strings (repeated --agents) takes each string whole, so a `cmd:` line may hold commas.
 */
export function makeAgents(rulesetId: string, specs: string | string[], seats: number, seed: number): Agent[] {
  const list = (Array.isArray(specs) && specs.length > 1 ? specs : String(specs).split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (list.length === 0) throw new ArbiterError('bad_request', 'no agent named');
  if (list.length > seats) throw new ArbiterError('bad_request', `${list.length} agents named for ${seats} seats`);
  return Array.from({ length: seats }, (_, seat) => makeAgent(rulesetId, list[seat % list.length], seat, agentSeed(seed, seat)));
}

export { agentSeed } from './seed.ts';
import { agentSeed } from './seed.ts';
