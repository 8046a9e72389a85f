// One match engine behind every door: a match played on `arbiter serve` is the match `arbiter play`
// plays with the same seed and agents (built-in agents, language models, programs), byte for byte,
// even across a server restart; and a running match's log, for every audience, is cut as that
// audience saw each event when it happened, so it does not change with another seat's hidden choice.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson, type Json, type RulesetPackage } from '../../packages/engine/src/kernel/index.ts';
import { PACKAGES, getPackage } from '../../packages/engine/src/registry.ts';
import { runMatch } from '../../packages/engine/src/engine/run-match.ts';
import { makeAgents, type AgentEnv } from '../../src/agents/resolve.ts';
import { DEFAULT_REASONS, logLines } from '../../packages/engine/src/engine/log.ts';
import { FAILURE_REASONS } from '../../packages/engine/src/agents/protocol.ts';
import { MatchEngine, type StoredEntry } from '../../packages/engine/src/engine/match-engine.ts';
import { runningLog } from '../../packages/engine/src/engine/running-log.ts';
import { eventsGuarded } from '../../packages/engine/src/engine/audience.ts';
import { startServer, type RunningServer } from '../../src/server/serve.ts';
import { startModelServer, type ModelServer } from '../agents/llm-server.ts';

let models: ModelServer;
const dirs: string[] = [];

before(async () => {
  models = await startModelServer();
});
after(async () => {
  await models.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function llmEnv(): AgentEnv {
  return {
    llm: {
      baseURL: { openai: `${models.url}/v1`, anthropic: models.url },
      apiKey: { openai: 'test-key-openai', anthropic: 'test-key-anthropic' },
      maxRetries: 0,
    },
  };
}

async function serve(db?: string): Promise<{ srv: RunningServer; db: string }> {
  let file = db;
  if (!file) {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-engine-'));
    dirs.push(dir);
    file = join(dir, 'm.sqlite');
  }
  const srv = await startServer({
    port: 0,
    db: file,
    allowExternalAgents: true,
    agentEnv: llmEnv(),
    logger: false,
    webRoot: join(tmpdir(), 'arbiter-no-web'),
  });
  return { srv, db: file };
}

async function api(srv: RunningServer, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${srv.url}/api${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return path.endsWith('/log') ? text : JSON.parse(text);
}

async function finished(srv: RunningServer, id: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const m = await api(srv, 'GET', `/matches/${id}`);
    if (m.status === 'finished') return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`match ${id} did not finish`);
}

/** The log `arbiter play RULESET --seed S --agents SPECS` writes (the same runner, in-process). */
async function played(pkg: RulesetPackage, seed: number, specs: string[], env: AgentEnv = {}): Promise<string> {
  const m = await runMatch(pkg.ruleset, (n) => makeAgents(pkg, specs, n, env), { seed, pkg });
  return logLines(m).join('\n') + '\n';
}

// a line-up of built-in agents per ruleset, with the ruleset's own heuristics where it has them
function lineup(pkg: RulesetPackage, seats: number): string[] {
  const own = Object.keys(pkg.agents);
  return Array.from({ length: seats }, (_, i) => (i % 2 === 0 ? 'random' : (own[0] ?? 'first')));
}

test('[ENG-RERUN] a finished server match re-runs byte-identically with arbiter play (every ruleset, agent seeds included)', async () => {
  const { srv } = await serve();
  try {
    for (const pkg of PACKAGES) {
      const seats = new MatchEngine(pkg.ruleset, { seed: 1 }, pkg).seats.length;
      const specs = lineup(pkg, seats);
      const seed = 4242;
      const m = await api(srv, 'POST', '/matches', {
        ruleset: pkg.ruleset.id,
        seed,
        seats: specs.map((agent) => ({ agent })),
      });
      await finished(srv, m.id);
      const log = await api(srv, 'GET', `/matches/${m.id}/log`);
      assert.equal(log, await played(pkg, seed, specs), `${pkg.ruleset.id}: the server's log is the one play writes`);
    }
  } finally {
    await srv.close();
  }
});

test('[ENG-RERUN] a paced server match stopped midway and resumed by a new server still re-runs byte-identically', async () => {
  const pkg = getPackage('ground');
  const specs = ['random', 'random', 'random', 'random'];
  const seed = 77;
  const first = await serve();
  const m = await api(first.srv, 'POST', '/matches', {
    ruleset: 'ground',
    seed,
    seats: specs.map((agent) => ({ agent })),
    agentDelayMs: 15,
  });
  // let some decisions happen, then stop the server in the middle of the match
  const until = Date.now() + 20_000;
  while ((await api(first.srv, 'GET', `/matches/${m.id}`)).seq < 12 && Date.now() < until)
    await new Promise((r) => setTimeout(r, 10));
  await first.srv.close();
  const second = await serve(first.db);
  try {
    await finished(second.srv, m.id);
    const log = await api(second.srv, 'GET', `/matches/${m.id}/log`);
    assert.equal(log, await played(pkg, seed, specs));
  } finally {
    await second.srv.close();
  }
});

test('[ENG-SERVE-LLM] llm: seats play on arbiter serve exactly as in arbiter play (no decision defaulted)', async () => {
  const pkg = getPackage('bnc');
  const specs = ['llm:openai:gpt-test', 'llm:anthropic:claude-test', 'random', 'first'];
  const seed = 9;
  const before = models.requests.length;
  const { srv } = await serve();
  let log: string;
  try {
    const m = await api(srv, 'POST', '/matches', { ruleset: 'bnc', seed, seats: specs.map((agent) => ({ agent })) });
    await finished(srv, m.id, 120_000);
    log = await api(srv, 'GET', `/matches/${m.id}/log`);
  } finally {
    await srv.close();
  }
  const served = models.requests.length - before;
  assert.ok(served > 0, 'the server called the model');
  const entries = log
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((e) => e.seq !== undefined);
  const modelDefaults = entries.filter((e) => e.seat < 2 && e.result === 'defaulted');
  assert.deepEqual(
    modelDefaults.map((e) => e.default.reason),
    [],
    'no model decision fell back to a default',
  );
  assert.equal(log, await played(pkg, seed, specs, llmEnv()), 'the same log as arbiter play');
});

test('[ENG-SERVE-CMD] a cmd: seat plays on arbiter serve exactly as in arbiter play', async () => {
  const pkg = getPackage('tictactoe');
  const bot = join(import.meta.dirname, '../agents/fixtures/agent.mjs');
  const specs = [`cmd:${process.execPath} ${bot} good`, 'random'];
  const { srv } = await serve();
  let log: string;
  try {
    const m = await api(srv, 'POST', '/matches', {
      ruleset: 'tictactoe',
      seed: 3,
      seats: specs.map((agent) => ({ agent })),
    });
    await finished(srv, m.id);
    log = await api(srv, 'GET', `/matches/${m.id}/log`);
  } finally {
    await srv.close();
  }
  assert.doesNotMatch(log, /"defaulted"/);
  assert.equal(log, await played(pkg, 3, specs));
});

// ---- every audience's running log is blind to another seat's hidden choice ---------------------

type Branch = { entries: StoredEntry[]; header: Record<string, Json> };

/**
 * Play random moves until some seat X may choose between two actions that every other audience
 * sees alike (views and perceived events equal): a hidden choice. Returns the history up to and
 * including that choice, once for each of the two actions.
 */
function* hiddenChoices(
  pkg: RulesetPackage,
  seed: number,
): Generator<{ x: number; audiences: (number | null)[]; a: Branch; b: Branch }> {
  const rs = pkg.ruleset;
  const engine = new MatchEngine(rs, { seed, lineHash: false }, pkg);
  const header = JSON.parse(canonicalJson(engine.header));
  const entries: StoredEntry[] = [];
  let pick = seed;
  let nextLook = 16;
  for (let step = 0; step < 400 && engine.outcome === null; step++) {
    const p = engine.pending()[0];
    const menu = rs.legal(engine.state, p.seat).actions;
    // after a few rounds (so earlier reveals are in the log), look for a hidden choice here
    if (step >= nextLook && menu.length >= 2) {
      for (let j = 1; j < Math.min(menu.length, 24); j++) {
        const ca = engine.prepare(p.seat, menu[0]);
        const cb = engine.prepare(p.seat, menu[j]);
        if (!ca.ok || !cb.ok) continue;
        const others = [null, ...engine.seats.map((_, s) => s).filter((s) => s !== p.seat)];
        const seen = (c: typeof ca, o: number | null) =>
          canonicalJson([
            rs.view(c.change.state, o) as Json,
            eventsGuarded(pkg, c.change.state, o, c.change.entry.events).events,
          ] as Json);
        // the audiences the choice is hidden from (a spectator who sees everything, as bnc's, is not one)
        const audiences = others.filter((o) => seen(ca, o) === seen(cb, o));
        if (!audiences.some((o) => o !== null)) continue;
        const at = (c: typeof ca) => [...entries, c.change.entry] as StoredEntry[];
        yield { x: p.seat, audiences, a: { entries: at(ca), header }, b: { entries: at(cb), header } };
        nextLook = step + 10;
        break;
      }
    }
    pick = (Math.imul(pick, 1103515245) + 12345) >>> 0;
    const made = engine.prepare(p.seat, menu[pick % menu.length]);
    assert.ok(made.ok);
    engine.apply(made.change);
    entries.push(made.change.entry);
  }
}

const PER_SEED = 3;
for (const id of ['ground', 'duel', 'bnc']) {
  test(`[ENG-LOG-AUDIENCE] ${id}: every other audience's running log is the same whichever hidden choice a seat made`, () => {
    const pkg = getPackage(id);
    let found = 0;
    for (let seed = 1; seed <= 10; seed++) {
      let here = 0;
      for (const h of hiddenChoices(pkg, seed)) {
        // a few choices from each of ten seeds: bnc offers one every ten steps, and each costs two
        // whole replays per audience
        if (++here > PER_SEED) break;
        found++;
        for (const who of h.audiences) {
          const la: string[] = runningLog(pkg, h.a, who);
          const lb: string[] = runningLog(pkg, h.b, who);
          const at = h.a.entries.length;
          assert.deepEqual(la, lb, `seed ${seed}, seq ${at}: audience ${who} tells seat ${h.x}'s hidden choices apart`);
        }
      }
    }
    // duel hides few choices from the other seat (a face-down install's card); GROUND and bnc many
    assert.ok(found >= (id === 'duel' ? 2 : 5), `only ${found} hidden choices found in 10 seeds`);
  });
}

for (const pkg of PACKAGES.filter((p) => p.gameType.information === 'imperfect')) {
  test(`[ENG-LOG-AUDIENCE] ${pkg.ruleset.id}: what an audience read of a running log never changes as the match goes on`, () => {
    // judged at the moment of each event, an earlier reading is a prefix of every later one; judged
    // against a later state, entries come back withheld once they hold what has become secret
    const rs = pkg.ruleset;
    for (let seed = 1; seed <= 6; seed++) {
      const engine = new MatchEngine(rs, { seed, lineHash: false }, pkg);
      const header = JSON.parse(canonicalJson(engine.header));
      const entries: StoredEntry[] = [];
      let pick = seed * 7919;
      while (engine.outcome === null && entries.length < 240) {
        const p = engine.pending()[0];
        const menu = rs.legal(engine.state, p.seat).actions;
        pick = (Math.imul(pick, 1103515245) + 12345) >>> 0;
        const made = engine.prepare(p.seat, menu[(pick >>> 8) % menu.length]);
        assert.ok(made.ok);
        engine.apply(made.change);
        entries.push(made.change.entry);
      }
      const audiences = [null, ...engine.seats.map((_, s) => s)];
      for (const who of audiences) {
        const whole: string[] = runningLog(pkg, { header, entries }, who);
        for (let k = 1; k < entries.length; k += Math.max(1, Math.floor(entries.length / 12))) {
          const early: string[] = runningLog(pkg, { header, entries: entries.slice(0, k) }, who);
          assert.deepEqual(
            whole.slice(0, early.length),
            early,
            `seed ${seed}: audience ${who}, after ${k} submissions`,
          );
        }
      }
    }
  });
}

test('[ENG-REASONS] one list of failure reasons: the log, the protocol and the engine read the same', () => {
  assert.equal(FAILURE_REASONS, DEFAULT_REASONS);
});
