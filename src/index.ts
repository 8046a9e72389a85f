// The public surface of `arbiter` as a library: an explicit list, so what a user may rely on is
// visible in one place and nothing internal leaks by accident. The engine's own list (the contract,
// the rulesets, the match engine, in-process agents) is `@arbiter/engine`'s, re-exported whole; the
// application adds what needs Node: simulations, tournaments and agents that talk to programs.

export * from '@arbiter/engine';

// simulations, tournaments, and agents of every transport
export { simulate } from './runners/sim.ts';
export { runTournament } from './runners/tournament.ts';
export { makeAgents } from './agents/resolve.ts';
