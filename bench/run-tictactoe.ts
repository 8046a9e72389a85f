// Dev-only: runs the tic-tac-toe cases and the boardgame.io peer cases (a devDependency) once, in
// order, then prints a table and the JSON (one object per case).
// Usage: npm run bench:peers [-- budget-ms-per-case]   (default 2000)
//        node --import tsx bench/run-tictactoe.ts [budget-ms-per-case]

import { cases as peerCases } from './peers/boardgameio.ts';
import { cases as ownCases, compareTicTacToe } from './tictactoe.ts';
import { runCase, type BenchResult } from './types.ts';

const budget = Number(process.argv[2] ?? 2000);
if (!Number.isFinite(budget) || budget <= 0) {
  console.error('usage: node --import tsx bench/run-tictactoe.ts [budget-ms-per-case]');
  process.exit(2);
}

const results: BenchResult[] = [];
for (const c of [...ownCases, ...peerCases]) results.push(await runCase(c, budget));
compareTicTacToe(results);

const fmt = (n: number) => n.toLocaleString('en-US');
const rows = results.map((r) => [
  r.case,
  fmt(r.games_per_cpu_s),
  fmt(r.moves_per_cpu_s),
  r.extra?.vs_plain == null ? '' : String(r.extra.vs_plain),
  r.extra?.vs_boardgameio == null ? '' : String(r.extra.vs_boardgameio),
  r.extra?.error ? String(r.extra.error) : '',
]);
const head = ['case', 'games/cpu-s', 'moves/cpu-s', 'vs plain', 'vs boardgame.io', 'error'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells: string[]) =>
  cells
    .map((c, i) => (i === 0 || i === 5 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
    .join('  ')
    .trimEnd();
console.log(line(head));
for (const r of rows) console.log(line(r));
console.log();
console.log(JSON.stringify(results, null, 2));
