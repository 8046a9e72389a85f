// Re-run a match log in the browser with the ruleset itself: every step's state, the events each
// submission produced, and the event-stream hash, checked against what the log recorded.
import {
  act,
  canonicalJson,
  cloneJson,
  StreamHash,
  type GameEvent,
  type Json,
  type RulesetPackage,
} from '@arbiter/engine/kernel';

type Obj = { [k: string]: Json };
export type ReplayStep = {
  /** 0 = after setup, then the submission's seq. */
  seq: number;
  seat: number | null;
  input: Json;
  result: 'setup' | 'accepted' | 'rejected' | 'defaulted';
  events: GameEvent[];
  state: unknown;
};
export type Replay = {
  ruleset: string;
  version: string;
  seed: number;
  agents: string[];
  steps: ReplayStep[];
  hash: string;
  /** null when every step matched what the log recorded (and the footer, when there is one). */
  problem: string | null;
  finished: boolean;
};

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export function parseLines(text: string): Obj[] {
  const out: Obj[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trim();
    if (!l) continue;
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch {
      // a half-written last line of a running match's log is not an error
      if (i >= lines.length - 2) break;
      throw new Error(`line ${i + 1} is not JSON`);
    }
    if (!isObj(v)) throw new Error(`line ${i + 1} is not a JSON object`);
    out.push(v);
  }
  return out;
}

/** The ruleset a log names (from its header line), or null. */
export function logRuleset(lines: Obj[]): string | null {
  const h = lines[0];
  return h && typeof h.ruleset === 'string' ? h.ruleset : null;
}

export function replay(pkg: RulesetPackage, lines: Obj[]): Replay {
  const rs = pkg.ruleset;
  const h = lines[0];
  if (h?.format !== 1) throw new Error('the first line is not a format-1 log header');
  if (h.ruleset !== rs.id) throw new Error(`the log is for ${String(h.ruleset)}, not ${rs.id}`);
  let problem: string | null = null;
  if (h.version !== rs.version)
    problem = `the log was written by ${rs.id} version ${String(h.version)}; this page has ${rs.version}`;
  const setupEvents: GameEvent[] = [];
  let state = rs.setup(cloneJson(h.config ?? {}), Number(h.seed), setupEvents);
  const hash = new StreamHash();
  for (const e of setupEvents) hash.update(canonicalJson(e));
  if (canonicalJson(h.setup_events ?? []) !== canonicalJson(setupEvents))
    problem ??= 'setup events differ from the log';
  const steps: ReplayStep[] = [{ seq: 0, seat: null, input: null, result: 'setup', events: setupEvents, state }];
  let footer: Obj | null = null;
  for (const line of lines.slice(1)) {
    if (line.end === true) {
      footer = line;
      break;
    }
    const seq = Number(line.seq);
    const result = String(line.result) as ReplayStep['result'];
    if (result === 'rejected') {
      steps.push({ seq, seat: Number(line.seat), input: line.input ?? null, result, events: [], state });
      continue;
    }
    // a running match's spectator log hides inputs: nothing to re-run from there on
    if (line.input === null && line.hidden === true) {
      problem ??= `step ${seq}: the input is hidden (the match is still running); the replay stops here`;
      break;
    }
    const input = JSON.parse(canonicalJson(line.input ?? null)) as Json;
    const r = act(rs, state, line.seat, input);
    if (!r.ok) {
      problem ??= `step ${seq}: the ruleset refuses the recorded input (${r.error.reason})`;
      break;
    }
    if (canonicalJson(r.events) !== canonicalJson(line.events ?? []))
      problem ??= `step ${seq}: events differ from the log`;
    state = r.state;
    for (const e of r.events) hash.update(canonicalJson(e));
    steps.push({ seq, seat: Number(line.seat), input, result, events: r.events, state });
  }
  const digest = hash.digest();
  if (footer && typeof footer.hash === 'string' && footer.hash !== digest)
    problem ??= `the event-stream hash ${digest} differs from the log's ${footer.hash}`;
  return {
    ruleset: rs.id,
    version: String(h.version),
    seed: Number(h.seed),
    agents: Array.isArray(h.agents) ? h.agents.map(String) : [],
    steps,
    hash: digest,
    problem,
    finished: rs.outcome(state) !== null,
  };
}
