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
