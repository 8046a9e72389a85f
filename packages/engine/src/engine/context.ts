// Builds the context an agent chooses in. The view is computed only if the agent reads it, so
// agents that do not look (random, first) cost nothing extra.

import type { AgentContext, Json, Menu, Ruleset, SeededRandom, Seat } from '../kernel/index.ts';

export function agentContext<S, A extends Json = Json, V extends Json = Json>(
  rs: Ruleset<S, A, V>,
  state: S,
  seat: Seat,
  kind: string,
  menu: Menu<A>,
  random: SeededRandom,
): AgentContext<S, A, V> {
  let view: V | undefined;
  return {
    ruleset: rs,
    seat,
    kind,
    menu,
    state,
    random,
    get view() {
      if (view === undefined) view = rs.view(state, seat);
      return view;
    },
  };
}
