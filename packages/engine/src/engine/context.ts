// Builds the context an agent chooses in. The view is computed only if the agent reads it, so
// agents that do not look (random, first) cost nothing extra.

import type { SeededRandom, AgentContext, Menu, Ruleset, Seat } from '../kernel/index.ts';

export function agentContext<S>(
  rs: Ruleset<S>,
  state: S,
  seat: Seat,
  kind: string,
  menu: Menu,
  random: SeededRandom,
): AgentContext<S> {
  let view: unknown;
  return {
    ruleset: rs,
    seat,
    kind,
    menu,
    state,
    random,
    get view() {
      if (view === undefined) view = rs.view(state, seat);
      return view as never;
    },
  };
}
