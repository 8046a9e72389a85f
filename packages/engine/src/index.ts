// The public surface of `@arbiter/engine`: an explicit list, so what a game client may rely on is
// visible in one place. Subpaths give the same pieces without the rest: `@arbiter/engine/kernel`,
// `@arbiter/engine/match`, `@arbiter/engine/agents` and `@arbiter/engine/rulesets/<id>`.

// the ruleset contract and the package around it
export type {
  Seat,
  RuleEntry,
  UItem,
  Finding,
  Catalog,
  Pending,
  Template,
  Menu,
  GameEvent,
  Outcome,
  Goal,
  Validation,
  Ruleset,
  AgentRandom,
  AgentContext,
  Agent,
  AgentFactory,
  GameType,
  AgentEntry,
  RulesetTool,
  RulesetPackage,
  ToolIO,
  TerminalIO,
  ConfigFlag,
  ErrorCode,
  Rejection,
  ActResult,
  Json,
  JsonObject,
} from './kernel/index.ts';

// checked and trusted transitions, errors, JSON, seeds
export {
  act,
  step,
  validateAction,
  cloneState,
  ArbiterError,
  reject,
  canonicalJson,
  cloneJson,
  SeededRandom,
  checkSeed,
  configFlags,
  catalogRulesPage,
} from './kernel/index.ts';

// the shipped rulesets, and the one list of them
export { tictactoePackage } from './rulesets/tictactoe/index.ts';
export { groundPackage } from './rulesets/ground/index.ts';
export { minesPackage } from './rulesets/mines/index.ts';
export { bncPackage } from './rulesets/bnc/index.ts';
export { duelPackage } from './rulesets/duel/index.ts';
export { PACKAGES, REGISTRY, getPackage, rulesetIds, rulesetAt } from './registry.ts';

// running a match: the engine, its log, and what each audience may see
export { MatchEngine, type EngineEffects } from './engine/match-engine.ts';
export { runMatch, playFast, type MatchResult, type MatchOptions } from './engine/run-match.ts';
export { runningLog } from './engine/running-log.ts';
export { eventsFor, eventsGuarded } from './engine/audience.ts';
export { logLines, hashEvents, type LogHeader, type LogEntry, type LogFooter } from './engine/log.ts';

// in-process agents
export { BUILTIN_AGENTS, SEARCH_AGENTS } from './agents/builtin.ts';
