// The two agents every ruleset gets for free: `random` (uniform over the menu) and `first`
// (always the first menu element: a deterministic, seed-independent baseline).

import type { Agent, AgentFactory } from '../kernel/index.ts';

export const randomAgent: AgentFactory = () => ({
  name: 'random',
  choose: (ctx) => ctx.random.pick(ctx.menu.actions),
});

export const firstAgent: AgentFactory = () => ({
  name: 'first',
  choose: (ctx) => ctx.menu.actions[0],
});

export const BUILTIN_AGENTS: Record<string, AgentFactory> = { random: randomAgent, first: firstAgent };

export function isAgent(x: unknown): x is Agent {
  return typeof x === 'object' && x !== null && typeof (x as Agent).choose === 'function';
}
