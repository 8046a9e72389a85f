// The public surface of `arbiter` as a library: an explicit list, so what a user may rely on is
// visible in one place and nothing internal leaks by accident.

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

// the shipped rulesets
export { tictactoePackage } from './rulesets/tictactoe/index.ts';
export { groundPackage } from './rulesets/ground/index.ts';
export { minesPackage } from './rulesets/mines/index.ts';
export { bncPackage } from './rulesets/bnc/index.ts';
export { duelPackage } from './rulesets/duel/index.ts';
export { PACKAGES, getPackage } from './registry.ts';

// running matches and simulations
export { runMatch, playFast } from './runners/match.ts';
export { simulate } from './runners/sim.ts';
export { runTournament } from './runners/tournament.ts';
export { makeAgents } from './agents/resolve.ts';
