// GROUND v0.1 (sample edition): 2–6 players, 5 rounds of simultaneous Select, Reveal, Resolve and
// End, with Stress, Freedom, the DARVO sequence, Bonds and Rivalries, and three scoring Modes.
// The parts live in small modules; this file assembles the Ruleset object.

import { agents as groundAgents } from './agents.ts';
import { catalogRulesPage, type RulesetPackage } from '../../kernel/index.ts';
import { type GameEvent, type Ruleset } from '../../kernel/index.ts';
import { catalog } from './catalog.ts';
import { legalMenu, owedKind, validateInput } from './menu.ts';
import { gameMetrics } from './metrics.ts';
import { applyAction } from './resolve.ts';
import { computeOutcome } from './scoring.ts';
import { DEFAULT_CONFIG, setupGame } from './setup.ts';
import { MODES, SUITS, type GroundGameAction, type GroundState, type PlayerState } from './types.ts';
import { secretsFor, viewOf } from './view.ts';
import { checkGroundTransition, checkInvariants } from './invariants.ts';

function clonePlayer(p: PlayerState): PlayerState {
  return {
    stress: p.stress,
    freedom: p.freedom,
    darvo: p.darvo,
    darvoEnding: p.darvoEnding,
    reverseTarget: p.reverseTarget,
    token: { side: p.token.side, at: p.token.at },
    hand: p.hand.slice(),
    claimed: p.claimed.slice(),
    protection: p.protection,
    choice: p.choice === null ? null : { ...p.choice },
    ground: p.ground === null ? null : { ...p.ground },
  };
}

export function cloneGround(s: GroundState): GroundState {
  const streams: Record<string, [number, number, number, number]> = {};
  for (const k of Object.keys(s.rng.streams)) streams[k] = s.rng.streams[k].slice() as [number, number, number, number];
  return {
    edition: s.edition,
    scenario: s.scenario,
    mode: s.mode,
    n: s.n,
    threshold: s.threshold,
    round: s.round,
    lead: s.lead,
    phase: s.phase,
    players: s.players.map(clonePlayer),
    problems: s.problems.map((pr) => ({ ...pr })),
    deck: s.deck.slice(),
    discard: s.discard.slice(),
    rel: s.rel.slice(),
    rs: { step: s.rs.step, i: s.rs.i, newBonds: s.rs.newBonds.slice(), ouCancel: s.rs.ouCancel.slice(), protectedSlots: s.rs.protectedSlots.slice(), ndReject: s.rs.ndReject.slice() },
    decision: s.decision === null ? null : { ...s.decision, options: s.decision.options.slice() },
    rng: { seed: s.rng.seed, streams },
  };
}

function describe(a: GroundGameAction): string {
  switch (a.type) {
    case 'select': {
      const tgt = a.target === null ? '' : a.action === 'SUPPORT' || a.action === 'ATTACK' ? ` seat ${a.target}` : ` Problem ${a.target}`;
      return `select ${a.action}${tgt}${a.freedom ? ' (spending Freedom)' : ''}`;
    }
    case 'ground': return `GROUND—${a.mode}${a.option ? ` ${a.option} ${a.target}` : ''}`;
    case 'bond': return a.accept ? 'accept the Bond' : 'decline the Bond';
    case 'rivalry': return a.choice === 'flip' ? 'flip the Rivalry to a Bond' : 'break the Rivalry';
    case 'deny': return `DENY Problem ${a.problem}`;
    case 'darvo_attack': return `DARVO extra Attack on seat ${a.target}`;
  }
}

export const ground: Ruleset<GroundState, GroundGameAction> = {
  id: 'ground',
  version: 'ground-0.1-sample',
  title: 'GROUND v0.1 (sample edition)',
  catalog,
  defaultConfig: { ...DEFAULT_CONFIG },
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      players: { type: 'integer', minimum: 2, maximum: 6, default: DEFAULT_CONFIG.players },
      mode: { type: 'string', enum: [...MODES], default: DEFAULT_CONFIG.mode },
      scenario: { type: 'string', default: DEFAULT_CONFIG.scenario, description: 'Scenario card id of the edition' },
      edition: { type: 'object', description: 'an edition object (the CLI reads --edition PATH); default: the shipped SAMPLE edition' },
    },
  },

  setup: setupGame,
  seats: (s) => s.n,

  pending(s) {
    if (s.phase === 'over') return [];
    if (s.phase === 'resolve') {
      const d = s.decision;
      if (d === null) return [];
      return [{ seat: d.seat, kind: d.kind, from: d.from, options: d.options.slice() }];
    }
    const out = [];
    for (let i = 0; i < s.n; i++) {
      const k = owedKind(s, i);
      if (k !== null) out.push({ seat: i, kind: k, round: s.round });
    }
    return out;
  },

  legal: legalMenu,
  validate: validateInput,
  apply: applyAction,
  view: viewOf,
  secrets: secretsFor,
  outcome: computeOutcome,
  clone: cloneGround,
  metrics: gameMetrics,
  invariants: checkInvariants,
  checkTransition: (before, after, seat, _action, events) => checkGroundTransition(before, after, seat, events),

  describeAction: (a) => describe(a),
  describeEvent(e: GameEvent) {
    const who = typeof e.seat === 'number' ? `seat ${e.seat}` : '';
    switch (e.type) {
      case 'revealed': return `round ${e.round}: choices revealed`;
      case 'stress': return `${who} Stress ${e.from} → ${e.to} (${e.rule})`;
      case 'problem_claimed': return `${who} claims Problem ${e.problem} (${e.value} points)`;
      case 'problem_revealed': return `${who} reveals Problem ${e.problem}: ${SUITS[e.suit as number]} ${e.value}`;
      case 'problem_denied': return `${who} DENIES Problem ${e.problem}`;
      case 'darvo_triggered': return `${who} reaches Stress 5: DARVO begins (DENY next round)`;
      case 'round_ended': return `end of round ${e.round}; the Lead passes to seat ${e.lead}`;
      case 'committed': return `${who} commits a face-down choice`;
      case 'attack_cancelled': return `${who}'s Attack on seat ${e.target} is cancelled by ${e.by === 'protection' ? 'Protection' : 'GROUND—OU'}`;
      case 'game_over': return `game over: ${e.total} claimed against threshold ${e.threshold} (${e.success ? 'success' : 'failure'})`;
      default: return `${e.type}${who ? ' ' + who : ''}${typeof e.target === 'number' ? ' → seat ' + e.target : ''}${e.rule ? ` (${e.rule})` : ''}`;
    }
  },
};

export const groundPackage: RulesetPackage<GroundState, GroundGameAction> = {
  ruleset: ground,
  gameType: { seats: { min: 2, max: 6 }, turns: 'mixed', chance: 'setup', information: 'imperfect', outcome: ['winners', 'places', 'scores'] },
  agents: {
    heuristic: { factory: groundAgents.heuristic, description: 'co-operative: solves Problems, supports, avoids stress', reads: 'view' },
    rival: { factory: groundAgents.rival, description: 'aggressive: attacks and blames', reads: 'view' },
  },
  presets: {},
  tools: [],
  scenarios: 'scenarios/ground',
  rulesPage: () => catalogRulesPage(ground, groundPackage.gameType),
};
