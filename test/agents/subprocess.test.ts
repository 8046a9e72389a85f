// cmd: agents under the failure policy: every way a program can misbehave ends the match with the
// failure in the log, the log replays, and no process of the agent's group survives.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArbiterError } from '../../packages/engine/src/kernel/index.ts';
import { runMatch } from '../../packages/engine/src/engine/run-match.ts';
import { logLines } from '../../packages/engine/src/engine/log.ts';
import { parseLog } from '../../src/runners/logfile.ts';
import { replayLog } from '../../src/runners/replay.ts';
import { makeAgents } from '../../src/agents/resolve.ts';
import { livingMembers, splitCommandLine, subprocessAgent, type SubprocessAgent } from '../../src/agents/subprocess.ts';
import { tictactoePackage } from '../../packages/engine/src/rulesets/tictactoe/index.ts';
import { firstAgent } from '../../packages/engine/src/agents/builtin.ts';

const AGENT = fileURLToPath(new URL('./fixtures/agent.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'arbiter-cmd-'));
const rs = tictactoePackage.ruleset;

async function playWith(mode: string, deadlineMs: number, extra = '') {
  const agent = subprocessAgent(`node ${AGENT} ${mode} ${extra}`.trim(), {
    stderrPath: join(dir, `${mode}.stderr`),
    graceMs: 300,
  });
  const result = await runMatch(rs, [agent, firstAgent({})], {
    seed: 3,
    pkg: tictactoePackage,
    policy: { deadlineMs, maxFailures: 2 },
  });
  return { agent, result };
}

function survivors(agent: SubprocessAgent): number {
  const pg = agent.transport.processGroup;
  assert.ok(pg > 0, 'the program was started');
  return livingMembers(pg);
}

function checkLog(result: Awaited<ReturnType<typeof playWith>>['result']) {
  assert.notEqual(result.outcome, null, 'the match finished');
  const log = parseLog(logLines(result).join('\n') + '\n');
  const replay = replayLog(rs, log);
  assert.equal(replay.ok, true, JSON.stringify(replay.divergence));
  return log.entries.filter((e) => e.seat === 0);
}

const cases: { mode: string; reason: string; deadline: number; retried: boolean }[] = [
  { mode: 'silent', reason: 'timeout', deadline: 800, retried: false },
  { mode: 'junk', reason: 'invalid_json', deadline: 8000, retried: true },
  { mode: 'no-id', reason: 'invalid_json', deadline: 8000, retried: true },
  { mode: 'illegal', reason: 'refused', deadline: 8000, retried: true },
  { mode: 'huge', reason: 'oversize', deadline: 8000, retried: true },
  { mode: 'flood', reason: 'oversize', deadline: 8000, retried: true },
  { mode: 'exit', reason: 'exited', deadline: 8000, retried: false },
  { mode: 'ignore-term', reason: 'timeout', deadline: 800, retried: false },
  { mode: 'children', reason: 'timeout', deadline: 800, retried: false },
];

describe('[AG-FAIL] each failure mode', { concurrency: true }, () => {
  for (const c of cases) {
    test(`[AG-FAIL] cmd: ${c.mode} → default (${c.reason}) recorded, seat failed after 2, log replays, no process of the group survives`, async () => {
      const { agent, result } = await playWith(c.mode, c.deadline);
      const mine = checkLog(result);
      const first = mine[0];
      assert.equal(first.result, 'defaulted');
      assert.equal(first.default?.reason, c.reason, JSON.stringify(first.default));
      // a retried failure is recorded against the retry's request id
      assert.equal(String(first.default?.request).endsWith('-a2'), c.retried);
      assert.deepEqual(first.input, { type: 'mark', cell: 0 }, 'tictactoe declares no default: the first menu action');
      // K = 2: the third decision is a seat_failed default, played at once
      if (mine.length >= 3) assert.equal(mine[2].default?.reason, 'seat_failed');
      assert.equal(result.seats[0].failed, true);
      const raw = first.default?.raw;
      if (typeof raw === 'string') assert.ok(raw.length <= 4096, 'the raw answer is cut to the log limit');
      if (c.reason === 'refused') assert.equal(first.default?.error?.code, 'bad_request');
      assert.equal(survivors(agent), 0);
    });
  }
});

test('[AG-STALE] answers carrying an older request id are dropped and the default says stale', async () => {
  const { agent, result } = await playWith('stale', 1000);
  const mine = checkLog(result);
  assert.equal(mine[0].default?.reason, 'timeout');
  assert.equal(mine[1].default?.reason, 'stale', JSON.stringify(mine[1]));
  assert.equal(survivors(agent), 0);
});

test('[AG-RETRY] the rejection is fed back and a corrected second answer is played', async () => {
  const { agent, result } = await playWith('fix-on-retry', 8000);
  const mine = checkLog(result);
  assert.ok(mine.every((e) => e.result === 'accepted'));
  assert.equal(result.seats[0].failed, false);
  assert.equal(survivors(agent), 0);
});

test('[AG-GOOD] a well-behaved program plays its answers; stderr goes to its own file, not the protocol', async () => {
  const { agent, result } = await playWith('stderr', 8000);
  const mine = checkLog(result);
  assert.ok(mine.every((e) => e.result === 'accepted'));
  const err = readFileSync(join(dir, 'stderr.stderr'), 'utf8');
  assert.match(err, /thinking about s0-1/);
  assert.equal(survivors(agent), 0);
});

test('[AG-MISSING] a missing program is a clear error before the match, and a refused line-up starts nothing', () => {
  assert.throws(
    () => makeAgents(tictactoePackage, ['cmd:no-such-program-xyz --flag', 'random'], 2),
    (e: unknown) =>
      e instanceof ArbiterError && e.code === 'not_found' && /no-such-program-xyz.*not found on PATH/.test(e.message),
  );
  assert.throws(
    () => makeAgents(tictactoePackage, ['cmd:./nope/agent.py', 'random'], 2),
    /not found \(or not executable\)/,
  );
  const made: SubprocessAgent[] = [];
  assert.throws(() => {
    const agents = makeAgents(tictactoePackage, [`cmd:node ${AGENT} silent`, 'no-such-agent'], 2);
    made.push(...(agents as SubprocessAgent[]));
  }, /unknown agent "no-such-agent"/);
  assert.equal(made.length, 0);
});

test('[AG-START] when a later seat cannot start, earlier programs are killed', async () => {
  const agent = subprocessAgent(`node ${AGENT} silent`, { stderrPath: join(dir, 'start.stderr'), graceMs: 300 });
  const { httpAgent } = await import('../../src/agents/http.ts');
  await assert.rejects(
    runMatch(rs, [agent, httpAgent('http://127.0.0.1:1/agent')], {
      seed: 1,
      pkg: tictactoePackage,
      policy: { deadlineMs: 500 },
    }),
    /unreachable/,
  );
  assert.equal(survivors(agent), 0);
});

test('[AG-SIGNAL] SIGINT and SIGTERM to arbiter play kill the agent process groups', async () => {
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    const agentsDir = mkdtempSync(join(tmpdir(), 'arbiter-sig-'));
    const child = spawn(
      process.execPath,
      [
        'bin/arbiter.js',
        'play',
        'tictactoe',
        '--agents',
        `cmd:node ${AGENT} children`,
        '--agents',
        'random',
        '--deadline-ms',
        '60000',
        '--agents-dir',
        agentsDir,
        '-q',
      ],
      { cwd: ROOT, stdio: 'ignore' },
    );
    const errFile = join(agentsDir, 'seat-0.stderr');
    let pgid = 0;
    for (let i = 0; i < 600 && pgid === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      if (existsSync(errFile)) pgid = Number((readFileSync(errFile, 'utf8').match(/pid (\d+)/) ?? [])[1] ?? 0);
    }
    assert.ok(pgid > 0, 'the agent started');
    // let it spawn its grandchildren
    await new Promise((r) => setTimeout(r, 300));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill(sig);
    const code = await exited;
    assert.equal(code, sig === 'SIGINT' ? 130 : 143);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(livingMembers(pgid), 0, `${sig}: no process of group ${pgid} survives`);
  }
});

test('[AG-SHELL] plain command lines run without a shell; shell syntax gets /bin/sh in its own group', () => {
  assert.deepEqual(splitCommandLine(`node "my agent.mjs" --x 'a b' c\\ d`), [
    'node',
    'my agent.mjs',
    '--x',
    'a b',
    'c d',
  ]);
  for (const s of ['node a.js | tee x', 'FOO=1 node a.js', 'node $HOME/a.js', 'node a.js > out', 'node *.js', 'a && b'])
    assert.equal(splitCommandLine(s), null, s);
});
