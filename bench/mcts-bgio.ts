// mcts vs boardgame.io's MCTSBot (issue 15 "Performance"): one decision at the tic-tac-toe opening
// with 1,000 iterations each, side by side in one process, alternating, three runs; prints CPU
// milliseconds per decision (median and range) and the ratio. Target: mcts ≥ 20× faster.
//
//   node --import tsx bench/mcts-bgio.ts [--runs 3] [--seconds 3]
//
// boardgame.io 0.50.2 is a devDependency: where it is missing this prints one
// `skipped: boardgame.io not installed` line. Its bot runs synchronously (its default), on the game
// bench/peers/boardgameio.ts writes the way a boardgame.io author would, in production mode.
// MCTSBot plays out at most 50 moves (its default), which is every tic-tac-toe game; ours plays
// every playout to the end too, and its solver does not stop early at the opening (no proved win).

import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { SeededRandom, type AgentContext } from '@arbiter/engine/kernel';
import { tictactoe } from '@arbiter/engine/rulesets/tictactoe';
import { parseSearchArgs, searchAgent } from '@arbiter/engine/agents';
import { isInstalled } from './index.ts';

const args = process.argv.slice(2);
const flag = (name: string, d: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const RUNS = flag('runs', 3);
const SECONDS = flag('seconds', 3);
const ITERATIONS = 1000;

interface BgioBot {
  play(state: unknown, playerID: string): Promise<{ action: unknown }>;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (xs: number[], d: number) =>
  `${median(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;

async function main(): Promise<void> {
  if (!isInstalled('boardgame.io/ai')) {
    console.log('skipped: boardgame.io not installed');
    return;
  }
  const { bgioGame, loadBoardgameIo, newBgioClient } = await import('./peers/boardgameio.ts');
  const mods = loadBoardgameIo();
  if (mods instanceof Error) {
    console.log(`skipped: boardgame.io not loadable (${mods.message.split('\n')[0]})`);
    return;
  }
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  const { MCTSBot } = createRequire(import.meta.url)('boardgame.io/ai') as {
    MCTSBot: new (o: Record<string, unknown>) => BgioBot;
  };
  const client = newBgioClient(mods);
  const opening = client.getState();
  client.stop();

  const s = tictactoe.setup({}, 1);
  const ctx: AgentContext = {
    ruleset: tictactoe,
    seat: 0,
    kind: 'move',
    view: tictactoe.view(s, 0),
    menu: tictactoe.legal(s, 0),
    state: s,
    random: new SeededRandom(1),
  };
  let seed = 0;
  const ours = () => {
    // a fresh agent each decision: no tree kept from an earlier search
    searchAgent('mcts', parseSearchArgs(String(ITERATIONS), false)).choose({
      ...ctx,
      random: new SeededRandom(++seed),
    });
  };
  const theirs = async () => {
    const bot = new MCTSBot({
      game: bgioGame,
      enumerate: bgioGame.ai.enumerate,
      iterations: ITERATIONS,
      seed: String(++seed),
    });
    await bot.play(opening, '0');
  };
  // warm both up
  for (let i = 0; i < 20; i++) ours();
  for (let i = 0; i < 2; i++) await theirs();

  const load0 = loadavg();
  const oursMs: number[] = [];
  const theirsMs: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    // alternate slices of about half a second each, so both see the same machine
    let oCpu = 0;
    let oN = 0;
    let tCpu = 0;
    let tN = 0;
    while (oCpu + tCpu < SECONDS * 1000) {
      const t0 = cpuMs();
      do {
        ours();
        oN++;
      } while (cpuMs() - t0 < 250);
      oCpu += cpuMs() - t0;
      const t1 = cpuMs();
      do {
        await theirs();
        tN++;
      } while (cpuMs() - t1 < 250);
      tCpu += cpuMs() - t1;
    }
    oursMs.push(oCpu / oN);
    theirsMs.push(tCpu / tN);
    ratios.push(tCpu / tN / (oCpu / oN));
  }
  if (previous === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = previous;
  const load1 = loadavg();
  console.log(
    `tic-tac-toe opening, ${ITERATIONS} iterations a decision, ${RUNS} runs of about ${SECONDS} CPU-s; median (min–max); load average ${load0
      .map((x) => x.toFixed(2))
      .join(' ')} at start, ${load1.map((x) => x.toFixed(2)).join(' ')} at end`,
  );
  console.log(`${'agent'.padEnd(34)}CPU ms per decision`);
  console.log(`${'arbiter mcts (UCT + solver)'.padEnd(34)}${fmt(oursMs, 2)}`);
  console.log(`${'boardgame.io 0.50.2 MCTSBot'.padEnd(34)}${fmt(theirsMs, 1)}`);
  console.log(`ratio (MCTSBot / mcts): ${fmt(ratios, 1)}× (target ≥ 20×)`);
}

await main();
