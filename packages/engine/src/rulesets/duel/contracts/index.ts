// The seed's contracts as pure predicates over (before, after, supplied inputs).
export * from './verdict.ts';
export * from './turn.ts';
export * from './action.ts';
export * from './phase.ts';
export * from './objective.ts';
export * from './run.ts';
export * from './trigger.ts';
