// In-process agents and the seat interface (`@arbiter/engine/agents`): the built-in and search
// agents, the agent protocol's messages, and the transport every seat is asked through. Agents that
// talk to programs, HTTP endpoints or language models live in the application, on top of this.
export * from './builtin.ts';
export * from './policy.ts';
export * from './protocol.ts';
export * from './transport.ts';
export * from './observe.ts';
export * from './answer-slot.ts';
export * from './search/ismcts.ts';
export * from './search/reward.ts';
