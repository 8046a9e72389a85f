// Tournaments: every line-up of the named agents, each seat order played on the same seeds (so
// line-ups meet the same deals), results appended to a JSON Lines file as they come (so an
// interrupted tournament resumes where it stopped), agents rated with openskill's Plackett–Luce
// model in a fixed order (seed, then line-up), so a resumed tournament rates exactly like one run
// straight through.

import { rate, rating, ordinal } from 'openskill';
import {
  ArbiterError,
  canonicalJson,
  StreamHash,
  type Json,
  type Outcome,
  type RulesetPackage,
} from '@arbiter/engine/kernel';
import { makeAgents } from '../agents/resolve.ts';
import { playFast } from '@arbiter/engine/match';
import { wilson } from './aggregate.ts';

export interface TournamentOptions {
  agents: string[];
  games: number;
  firstSeed: number;
  config: Json;
  /** Existing result lines (from a results file), to resume from. */
  done?: readonly GameResult[];
  /** Called with each new result, in play order (append it to the results file). */
  onResult?: (r: GameResult) => void;
}

export type GameResult = { lineup: number; seed: number; agents: string[]; outcome: Outcome | null };

export type AgentStanding = {
  agent: string;
  games: number;
  wins: number;
  win_rate: number;
  win_ci95: [number, number];
  mean_place: number | null;
  /** openskill (Plackett–Luce): mean, uncertainty and the conservative ordinal mu − 3·sigma. */
  mu: number;
  sigma: number;
  ordinal: number;
};

export type TournamentReport = {
  ruleset: string;
  version: string;
  id: string;
  agents: string[];
  seats: number;
  lineups: string[][];
  games_per_lineup: number;
  first_seed: number;
  config: Json;
  games: number;
  standings: AgentStanding[];
};

const MAX_LINEUPS = 5000;

/**
 * Every seating of the agents: with at least as many agents as seats, every ordered choice of
 * distinct agents; with fewer, every sequence that seats each agent at least once (self-play
 * fills the rest). Seat rotation is built in: each line-up appears in every seat order.
 */
export function lineupsOf(agents: readonly string[], seats: number): string[][] {
  const out: string[][] = [];
  const k = agents.length;
  const distinct = k >= seats;
  const walk = (prefix: string[]) => {
    if (out.length > MAX_LINEUPS) return;
    if (prefix.length === seats) {
      if (distinct || agents.every((a) => prefix.includes(a))) out.push(prefix.slice());
      return;
    }
    for (const a of agents) {
      if (distinct && prefix.includes(a)) continue;
      prefix.push(a);
      walk(prefix);
      prefix.pop();
    }
  };
  walk([]);
  if (out.length > MAX_LINEUPS)
    throw new ArbiterError('bad_request', `more than ${MAX_LINEUPS} line-ups; name fewer agents`);
  return out;
}

/** The tournament's identity: a results file belongs to exactly one. */
export function tournamentId<S, A extends Json>(pkg: RulesetPackage<S, A>, o: TournamentOptions): string {
  const h = new StreamHash();
  h.update(
    canonicalJson({
      ruleset: pkg.ruleset.id,
      version: pkg.ruleset.version,
      agents: o.agents,
      games: o.games,
      first: o.firstSeed,
      config: o.config,
    }),
  );
  return h.digest();
}

/** Ranks of one game for openskill (1 = best): places when the outcome has them, else winners first. */
function ranksOf(outcome: Outcome | null, seats: number): number[] {
  if (outcome?.places && outcome.places.length === seats) return outcome.places.slice();
  if (outcome && outcome.winners.length > 0)
    return Array.from({ length: seats }, (_, s) => (outcome.winners.includes(s) ? 1 : 2));
  return new Array<number>(seats).fill(1);
}

export function runTournament<S, A extends Json>(pkg: RulesetPackage<S, A>, o: TournamentOptions): TournamentReport {
  if (o.agents.length < 1) throw new ArbiterError('bad_request', 'a tournament needs at least one agent');
  if (new Set(o.agents).size !== o.agents.length) throw new ArbiterError('bad_request', 'an agent is named twice');
  const rs = pkg.ruleset;
  const seats = rs.seats(rs.setup(o.config, o.firstSeed));
  // fail on a bad agent name before playing anything
  for (const a of o.agents) makeAgents(pkg, a, seats);
  const lineups = lineupsOf(o.agents, seats);
  const have = new Map<string, GameResult>();
  for (const r of o.done ?? []) have.set(`${r.lineup}:${r.seed}`, r);
  const results: GameResult[] = [];
  for (let l = 0; l < lineups.length; l++) {
    for (let g = 0; g < o.games; g++) {
      const seed = (o.firstSeed + g) >>> 0;
      let r = have.get(`${l}:${seed}`);
      if (r === undefined || canonicalJson(r.agents) !== canonicalJson(lineups[l])) {
        const agents = makeAgents(pkg, lineups[l], seats);
        const played = playFast(rs, agents, seed, o.config);
        r = { lineup: l, seed, agents: lineups[l], outcome: played.outcome };
        o.onResult?.(r);
      }
      results.push(r);
    }
  }
  return summarizeTournament(pkg, o, lineups, seats, results);
}

function summarizeTournament<S, A extends Json>(
  pkg: RulesetPackage<S, A>,
  o: TournamentOptions,
  lineups: string[][],
  seats: number,
  results: readonly GameResult[],
): TournamentReport {
  const ratings = new Map(o.agents.map((a) => [a, rating()]));
  const stats = new Map(o.agents.map((a) => [a, { games: 0, wins: 0, placeSum: 0, placed: 0 }]));
  // online ratings depend on the order games are fed in: feed them round by round (each seed across
  // every line-up) rather than line-up by line-up, so no agent meets one opponent for a long stretch
  const ordered = [...results].sort((x, y) => x.seed - y.seed || x.lineup - y.lineup);
  for (const r of ordered) {
    const ranks = ranksOf(r.outcome, seats);
    // an agent seated twice in one game (self-play) is rated once, at its best seat
    const best = new Map<string, number>();
    r.agents.forEach((a, s) => best.set(a, Math.min(best.get(a) ?? Infinity, ranks[s])));
    if (best.size > 1) {
      const names = [...best.keys()];
      const updated = rate(
        names.map((a) => [ratings.get(a)!]),
        { rank: names.map((a) => best.get(a)!) },
      );
      names.forEach((a, i) => ratings.set(a, updated[i][0]));
    }
    r.agents.forEach((a, s) => {
      const st = stats.get(a)!;
      st.games++;
      if (r.outcome?.winners.includes(s)) st.wins++;
      if (r.outcome?.places) {
        st.placeSum += r.outcome.places[s];
        st.placed++;
      }
    });
  }
  const round = (v: number) => Math.round(v * 10000) / 10000;
  const standings: AgentStanding[] = o.agents.map((a) => {
    const st = stats.get(a)!;
    const rt = ratings.get(a)!;
    return {
      agent: a,
      games: st.games,
      wins: st.wins,
      win_rate: round(st.wins / Math.max(1, st.games)),
      win_ci95: wilson(st.wins, st.games),
      mean_place: st.placed ? round(st.placeSum / st.placed) : null,
      mu: round(rt.mu),
      sigma: round(rt.sigma),
      ordinal: round(ordinal(rt)),
    };
  });
  standings.sort((x, y) => y.ordinal - x.ordinal || x.agent.localeCompare(y.agent));
  return {
    ruleset: pkg.ruleset.id,
    version: pkg.ruleset.version,
    id: tournamentId(pkg, o),
    agents: o.agents,
    seats,
    lineups,
    games_per_lineup: o.games,
    first_seed: o.firstSeed,
    config: o.config,
    games: results.length,
    standings,
  };
}
