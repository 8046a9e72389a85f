// The agent harness (issue 12 "Performance"): what the protocol path costs per decision, whether
// simultaneous seats wait in parallel, and what a hung seat costs. Stub transports stand in for
// programs and models (they encode the request and decode the answer as JSON, like a real
// transport); every figure is reported against an ideal measured or computed in the same run, as
// a ratio. Wall time is the honest unit here: the stubs wait, they do not compute.
//
//   arbiter bench agents
//
// - agents/harness-overhead: bnc matches, four stub seats answering at once through the whole
//   policy (request with view and view in words, events, deadline timer, schema check, rules
//   check), against the same matches with in-process `first` agents, in CPU time of this process
//   (alternating, same seeds). Target: < 1 ms per decision.
// - agents/latency-parallel: one 45-turn bnc match, four seats answering after 200 ms. Ideal:
//   turns × 0.2 s (seats asked together); asked one by one it would be four times that.
// - agents/hung-seat: seat 0 never answers (deadline 100 ms, K = 3), three seats answer at once.
//   Ideal: K × deadline on top of the same match with seat 0 answering at once.

import type { Agent, Json } from '@arbiter/engine/kernel';
import { bncPackage } from '@arbiter/engine/rulesets/bnc';
import { runMatch } from '@arbiter/engine/match';
import { firstAgent } from '@arbiter/engine/agents';
import type { Reply, Transport, TransportAgent } from '@arbiter/engine/agents';
import type { BenchCase, BenchResult } from './types.ts';

const rs = bncPackage.ruleset;

/** A transport that answers the first menu action after `delayMs` (0: at once; 'hang': never). */
function stub(seat: number, delayMs: number | 'hang'): TransportAgent {
  const transport: Transport = {
    name: `stub-${seat}`,
    start() {},
    decide(req, signal): Promise<Reply> {
      // what crosses a process boundary: the request out, the answer back, both as JSON text
      const wire = JSON.parse(JSON.stringify(req)) as { request: string; menu: { actions: Json[] } };
      const raw = JSON.stringify({ type: 'decision', request: wire.request, action: wire.menu.actions[0] });
      const answer = (): Reply => ({ ok: true, message: JSON.parse(raw), raw });
      if (delayMs === 0) return Promise.resolve(answer());
      return new Promise((resolve) => {
        const t = delayMs === 'hang' ? null : setTimeout(() => resolve(answer()), delayMs);
        signal.addEventListener(
          'abort',
          () => {
            if (t) clearTimeout(t);
            resolve({ ok: false, reason: 'timeout' });
          },
          { once: true },
        );
      });
    },
    close() {},
  };
  return {
    name: transport.name,
    transport,
    choose(): Json {
      throw new Error('a stub answers through its transport');
    },
  };
}

async function timed(agents: Agent[], seed: number, deadlineMs = 10_000, maxFailures = 3) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = await runMatch(rs, agents, { seed, pkg: bncPackage, policy: { deadlineMs, maxFailures } });
  const c = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000, decisions: r.entries.length, result: r };
}

const result = (name: string, games: number, moves: number, ms: number, extra: BenchResult['extra']): BenchResult => ({
  case: name,
  games,
  moves,
  cpu_ms: Math.round(ms),
  games_per_cpu_s: Math.round((games / ms) * 1000 * 10) / 10,
  moves_per_cpu_s: Math.round((moves / ms) * 1000),
  extra,
});

const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

export const cases: BenchCase[] = [
  {
    name: 'agents/harness-overhead',
    group: 'agents',
    async run(budgetMs) {
      // alternate the two kinds so load on a shared machine falls on both alike
      // CPU time of this process: on a shared machine wall time mostly measures the wait for a core
      let stubMs = 0;
      let baseMs = 0;
      let stubWall = 0;
      let decisions = 0;
      let games = 0;
      await timed(
        [0, 1, 2, 3].map((s) => stub(s, 0)),
        1,
      ); // warm-up
      await timed(
        [0, 1, 2, 3].map(() => firstAgent({})),
        1,
      );
      const start = performance.now();
      for (let seed = 1; performance.now() - start < budgetMs || games === 0; seed++) {
        const a = await timed(
          [0, 1, 2, 3].map((s) => stub(s, 0)),
          seed,
        );
        const b = await timed(
          [0, 1, 2, 3].map(() => firstAgent({})),
          seed,
        );
        stubMs += a.cpuMs;
        baseMs += b.cpuMs;
        stubWall += a.ms;
        decisions += a.decisions;
        games++;
      }
      const perDecision = (stubMs - baseMs) / decisions;
      return result('agents/harness-overhead', games, decisions, stubMs, {
        overhead_ms_per_decision: round(perDecision),
        target_ms: 1,
        within_target: perDecision < 1,
        protocol_cpu_ms_per_decision: round(stubMs / decisions),
        in_process_cpu_ms_per_decision: round(baseMs / decisions),
        protocol_wall_ms_per_decision: round(stubWall / decisions),
      });
    },
  },
  {
    name: 'agents/latency-parallel',
    group: 'agents',
    async run() {
      const latency = 200;
      const r = await timed(
        [0, 1, 2, 3].map((s) => stub(s, latency)),
        7,
      );
      const turns = Number((r.result.state as { turn: number }).turn);
      const ideal = turns * latency;
      return result('agents/latency-parallel', 1, r.decisions, r.ms, {
        turns,
        wall_s: round(r.ms / 1000, 2),
        ideal_parallel_s: round(ideal / 1000, 2),
        ratio_to_ideal: round(r.ms / ideal, 2),
        ratio_to_one_by_one: round(r.ms / (4 * ideal), 2),
      });
    },
  },
  {
    name: 'agents/hung-seat',
    group: 'agents',
    async run() {
      const deadline = 100;
      const k = 3;
      const healthy = await timed(
        [0, 1, 2, 3].map((s) => stub(s, 0)),
        9,
        deadline,
        k,
      );
      const hung = await timed([stub(0, 'hang'), stub(1, 0), stub(2, 0), stub(3, 0)], 9, deadline, k);
      const reasons: Record<string, number> = {};
      for (const e of hung.result.entries)
        if (e.default) reasons[e.default.reason] = (reasons[e.default.reason] ?? 0) + 1;
      const ideal = healthy.ms + k * deadline;
      return result('agents/hung-seat', 1, hung.decisions, hung.ms, {
        wall_ms: Math.round(hung.ms),
        healthy_ms: Math.round(healthy.ms),
        ideal_ms: Math.round(ideal),
        ratio_to_ideal: round(hung.ms / ideal, 2),
        timeouts: reasons.timeout ?? 0,
        seat_failed: reasons.seat_failed ?? 0,
      });
    },
  },
];
