// Every benchmark case `arbiter bench` knows, grouped by ruleset. Each ruleset's cases live in
// bench/<id>.ts and are listed here with one import. Peer cases (another engine, installed only as
// a devDependency) are listed by name and loaded on demand: the shipped verb must start without
// any devDependency, so a missing peer costs one `skipped:` line, not a crash.

import { createRequire } from 'node:module';
import type { BenchCase, BenchResult } from './types.ts';
import { cases as tictactoeCases, compareTicTacToe } from './tictactoe.ts';
import { cases as bncCases } from './bnc.ts';
import { cases as groundCases } from './ground.ts';
import { cases as duelCases } from './duel.ts';
import { cases as minesCases } from './mines.ts';
import { cases as agentCases } from './agents.ts';

export const ALL_CASES: BenchCase[] = [
  ...tictactoeCases,
  ...bncCases,
  ...groundCases,
  ...duelCases,
  ...minesCases,
  ...agentCases,
];

/** Cross-case ratios (engine vs baselines), computed after all selected cases ran. */
export const POSTPROCESS: Array<(results: BenchResult[]) => void> = [compareTicTacToe];

/** Cases that measure a peer engine: run only where the peer's package resolves. */
export interface PeerCases {
  /** The peer as people name it, with the version the cases were written for. */
  peer: string;
  /** A module specifier that resolves exactly when the peer is installed. */
  probe: string;
  group: string;
  names: string[];
  load(): Promise<BenchCase[]>;
}

export const PEERS: PeerCases[] = [
  {
    peer: 'boardgame.io 0.50.2',
    probe: 'boardgame.io/client',
    group: 'tictactoe',
    names: ['tictactoe/boardgame.io', 'tictactoe/boardgame.io-bot'],
    load: async () => (await import('./peers/boardgameio.ts')).cases,
  },
];

const requireHere = createRequire(import.meta.url);

export function isInstalled(specifier: string): boolean {
  try {
    requireHere.resolve(specifier);
    return true;
  } catch {
    return false;
  }
}

/**
 * The peer cases `wanted` selects, loaded only when their peer resolves; for each selected peer
 * that is missing, `note` receives one `skipped: ...` line and its cases are left out.
 */
export async function peerCases(
  wanted: (c: { name: string; group: string }) => boolean,
  note: (line: string) => void,
  installed: (specifier: string) => boolean = isInstalled,
): Promise<BenchCase[]> {
  const out: BenchCase[] = [];
  for (const p of PEERS) {
    const names = p.names.filter((name) => wanted({ name, group: p.group }));
    if (names.length === 0) continue;
    if (!installed(p.probe)) {
      note(`skipped: ${p.peer} not installed (peer cases ${names.join(', ')}; a development checkout has it)`);
      continue;
    }
    out.push(...(await p.load()).filter((c) => names.includes(c.name)));
  }
  return out;
}
