// The two agents every ruleset gets for free: `random` (uniform over the menu) and `first`
// (always the first menu element: a deterministic, seed-independent baseline).

import type { AgentFactory } from '../kernel/index.ts';
import { parseSearchArgs, searchAgent } from './search/ismcts.ts';

const randomAgent: AgentFactory = () => ({
  name: 'random',
  choose: (ctx) => ctx.random.pick(ctx.menu.actions),
});

export const firstAgent: AgentFactory = () => ({
  name: 'first',
  choose: (ctx) => ctx.menu.actions[0],
});

/** UCT with the solver, 1,000 playouts a decision; needs the ruleset's `sampleState`. */
const mctsAgent: AgentFactory = (o) => searchAgent('mcts', parseSearchArgs(o.args, false));

/** Information-set MCTS: a fresh determinization every playout; for hidden information. */
const ismctsAgent: AgentFactory = (o) => searchAgent('ismcts', parseSearchArgs(o.args, true));

export const BUILTIN_AGENTS: Record<string, AgentFactory> = {
  random: randomAgent,
  first: firstAgent,
  mcts: mctsAgent,
  ismcts: ismctsAgent,
};

/** What each built-in agent does, for `arbiter rulesets`; all of them read only the view. */
export const BUILTIN_NOTES: Record<string, string> = {
  random: 'uniform over the menu',
  first: 'the first menu action',
  mcts: 'UCT with a solver, on a state sampled from the view (perfect information)',
  ismcts: 'information-set MCTS over states sampled from the view',
};

/** Built-in agents that need the ruleset's sampler. */
export const SEARCH_AGENTS: ReadonlySet<string> = new Set(['mcts', 'ismcts']);
