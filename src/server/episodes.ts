// Live episodes on `arbiter serve` (issue 25, item 5): matches whose seats come from a line-up
// (model seats with their provider, model, temperature and prompts), created by the API, the lobby
// or `arbiter serve --lineup`, and each seat's transcript kept beside the server for reading after
// the end. A line-up is named by id only over HTTP (a shipped one, or one the operator named with
// --lineup), never by a path: a request must not make the server read a file of its choosing. Keys
// stay in the server's environment; nothing here puts one in a record, a header or a transcript.

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ArbiterError, type Json, type JsonObject, type RulesetPackage } from '@arbiter/engine/kernel';
import type { AttemptRecord } from '@arbiter/engine/agents';
import {
  type Lineup,
  type LineupSeat,
  lineupSeats,
  lineupVersion,
  loadAnyLineup,
  loadLineup,
  seatHeaders,
  shippedLineups,
} from '../agents/lineup.ts';
import { llmAgent } from '../agents/llm/llm.ts';
import { isTransportSpec, makeAgent, type AgentEnv } from '../agents/resolve.ts';
import { formatTranscript, readTranscript, TranscriptWriter } from '../agents/transcript.ts';
import type { Agent } from '@arbiter/engine/kernel';
import type { Audience } from './auth.ts';
import type { ChosenLineup, LiveMatch } from './live.ts';
import { contested, omniscientAudience } from './watch.ts';

/** A line-up as the lobby and `GET /api/lineups` show it (no base URL, no key variable). */
export type OfferedLineup = {
  id: string;
  ruleset: string;
  version: string;
  description: string | null;
  /** Per seat: `provider:model` for a model seat, else the agent spec. */
  seats: string[];
  /** `server`: named by the operator with --lineup; `shipped`: in the package. */
  source: 'server' | 'shipped';
  /** Whether this server lets a match creator seat it (model seats call out from this machine). */
  allowed: boolean;
};

/** A line-up chosen for a match, resolved against the match's seat count. */
type Loaded = { lineup: Lineup; text: string };

export interface EpisodeOptions {
  /** Line-ups the operator named (`--lineup ID|FILE`, repeatable): offered whatever --allow-external-agents says. */
  lineups?: string[];
  /** Whether creators may seat line-ups that call out (shipped ones with model seats). */
  allowExternalAgents?: boolean;
  /** Folder of the per-match transcript folders. */
  transcriptsDir: string;
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export class Episodes {
  /** The operator's line-ups by ruleset and id (loaded at start: a bad file stops the server). */
  private readonly named = new Map<string, Loaded>();
  private readonly writers = new Map<string, TranscriptWriter>();

  constructor(readonly opts: EpisodeOptions) {
    for (const ref of opts.lineups ?? []) {
      const l = loadAnyLineup(ref);
      this.named.set(`${l.lineup.ruleset}/${l.lineup.id}`, l);
    }
  }

  /** The operator's line-ups, in the order named (the first is what `serve --lineup` starts). */
  serverLineups(): Lineup[] {
    return [...this.named.values()].map((l) => l.lineup);
  }

  /** Every line-up a creator may pick for `ruleset` (all rulesets without one): the server's first. */
  offered(ruleset?: string): OfferedLineup[] {
    const out: OfferedLineup[] = [];
    const seen = new Set<string>();
    const add = (l: Loaded, source: OfferedLineup['source']) => {
      const key = `${l.lineup.ruleset}/${l.lineup.id}`;
      if (seen.has(key) || (ruleset !== undefined && l.lineup.ruleset !== ruleset)) return;
      seen.add(key);
      out.push({
        id: l.lineup.id,
        ruleset: l.lineup.ruleset,
        version: lineupVersion(l.lineup, l.text),
        description: l.lineup.description ?? null,
        seats: l.lineup.seats.map((s) => s.agent ?? `${s.provider}:${s.model}`),
        source,
        allowed: source === 'server' || this.opts.allowExternalAgents === true || !callsOut(l.lineup),
      });
    };
    for (const l of this.named.values()) add(l, 'server');
    for (const s of shippedLineups()) {
      if (ruleset !== undefined && s.ruleset !== ruleset) continue;
      add(loadLineup(s.id, s.ruleset, true), 'shipped');
    }
    return out;
  }

  /** The line-up `id` for a match of `pkg` with `seats` seats; refused unless this server offers it. */
  choose(pkg: RulesetPackage, id: string, seats: number): ChosenLineup {
    const ruleset = pkg.ruleset.id;
    if (!SAFE_ID.test(id))
      throw new ArbiterError('bad_request', `lineup: an id (letters, digits, . _ -), not a path: "${id.slice(0, 64)}"`);
    let l = this.named.get(`${ruleset}/${id}`);
    const server = l !== undefined;
    if (!l) {
      const shipped = shippedLineups().find((s) => s.ruleset === ruleset && s.id === id);
      if (!shipped) {
        const ids = this.offered(ruleset).map((o) => o.id);
        throw new ArbiterError(
          'not_found',
          `no ${ruleset} line-up "${id}" on this server (offered: ${ids.join(', ') || 'none'})`,
        );
      }
      l = loadLineup(shipped.id, ruleset, true);
    }
    if (!server && callsOut(l.lineup) && !this.opts.allowExternalAgents)
      throw new ArbiterError(
        'bad_request',
        `line-up ${id} seats agents that call out from this machine: start the server with --allow-external-agents, or name the line-up with --lineup`,
      );
    const resolved = lineupSeats(l.lineup, seats);
    const seated = resolved.map((s) => ('spec' in s ? { agent: s.spec } : { llm: s.llm }));
    const version = lineupVersion(l.lineup, l.text);
    return {
      lineup: l.lineup,
      version,
      seats: resolved,
      names: resolved.map((s) => ('spec' in s ? s.spec : `llm:${s.llm.provider}:${s.llm.model}`)),
      header: { lineup: { id: l.lineup.id, version }, seats: seatHeaders(pkg, seated) },
    };
  }

  /** The agent of one line-up seat, made as `arbiter play --lineup` makes it. */
  agent(pkg: RulesetPackage, s: LineupSeat, env: AgentEnv, seat: number): Agent {
    return 'spec' in s ? makeAgent(pkg, s.spec, env, seat) : llmAgent(s.llm, env.llm);
  }

  /** Where a match's transcripts go: one file per seat, written as each attempt ends. */
  record(matchId: string, rec: AttemptRecord): void {
    let w = this.writers.get(matchId);
    if (!w) {
      w = new TranscriptWriter(this.matchDir(matchId));
      this.writers.set(matchId, w);
    }
    w.write(rec);
  }

  /** The match is over: its writer is let go (the files stay). */
  finished(matchId: string): void {
    this.writers.delete(matchId);
  }

  /** Which seats of a match have a transcript. */
  seatsWithTranscripts(matchId: string, seats: number): number[] {
    const dir = this.matchDir(matchId);
    const out: number[] = [];
    for (let s = 0; s < seats; s++) if (existsSync(join(dir, `seat-${s}.transcript.jsonl`))) out.push(s);
    return out;
  }

  /** One seat's transcript: its records and the readable text `arbiter transcript` prints. */
  transcript(matchId: string, seat: number): { records: AttemptRecord[]; text: string } {
    // readTranscript takes a log path and reads `<log>.agents/`: the match folder is that folder
    const dir = this.matchDir(matchId);
    let records: AttemptRecord[];
    try {
      records = readTranscript(dir.slice(0, -'.agents'.length), seat);
    } catch (err) {
      if (err instanceof ArbiterError && err.code === 'not_found')
        throw new ArbiterError('not_found', `no transcript for seat ${seat} of match ${matchId} on this server`);
      throw err;
    }
    return { records, text: formatTranscript(records) };
  }

  private matchDir(matchId: string): string {
    // match ids are base36 and base64url text: safe as a folder name
    if (!SAFE_ID.test(matchId)) throw new ArbiterError('bad_request', 'not a match id');
    mkdirSync(this.opts.transcriptsDir, { recursive: true });
    return join(this.opts.transcriptsDir, `${matchId}.agents`);
  }
}

/** Whether a line-up seats an agent that calls out or runs a program (a model, cmd:, http:). */
function callsOut(l: Lineup): boolean {
  return l.seats.some((s) => s.agent === undefined || isTransportSpec(s.agent));
}

/** A line-up's public face in a match record. */
export function lineupOfHeader(header: JsonObject): Json {
  const l = header.lineup as { id?: unknown; version?: unknown } | undefined;
  return l && typeof l.id === 'string' ? { id: l.id, version: String(l.version ?? '') } : null;
}

/**
 * Whether `who` may read a seat's transcript now. After the end: whoever may see the match. While
 * it runs a transcript holds the seat's view and its answer before a paced match plays it, so only
 * a live (undelayed) spectator of a match nobody contests, whose spectators see every seat's
 * secrets anyway, may read it; a person seated in the match never reads another seat's.
 */
export function transcriptRefusal(m: LiveMatch, who: Audience): string | null {
  if (m.status === 'finished') return null;
  if (who.seat !== null) return "a seat reads no transcript while the match runs (it holds another seat's answers)";
  if ('delay' in who && who.delay) return 'delayed spectators read transcripts once the match is over';
  if (contested(m)) return 'people or programs hold seats of this match: transcripts are readable once it is over';
  if (!omniscientAudience(m.pkg, m.state))
    return "this ruleset hides seats' secrets from spectators: transcripts are readable once the match is over";
  return null;
}
