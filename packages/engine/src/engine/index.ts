// The match engine's surface (`@arbiter/engine/match`): the one state machine of a live match, its
// log, the audience cut, and the runner that seats agents on it.
export * from './match-engine.ts';
export * from './log.ts';
export * from './audience.ts';
export * from './running-log.ts';
export * from './seed.ts';
export * from './context.ts';
export * from './run-match.ts';
