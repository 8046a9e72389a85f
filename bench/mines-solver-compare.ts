// Solver strength on the same random boards: our deduction solver (generator/solver.ts) against
// another solver's verdicts read from files (used for Simon Tatham's mines solver, run by a
// harness kept outside this repository: nothing of his code lives here).
//
// Protocol: boards are generate({width, height, mines, fog: 0}, seed) for seeds 1..N (plain
// random boards: mines uniform outside the spawn 3x3, spawn at the board centre, no fog, no
// no-guess repair). No mine touches the spawn centre, so it is a zero and opening it floods
// exactly R0 (B3 plus the zero closure) in both games: both solvers start from the same opened
// region and know the total mine count. "Solved" = every safe cell opened without a guess.
// Ours runs twice: under this game's movement rules (digs only cells touching the open region,
// may dig known mines to walk) and with freeDig (classic: any known-safe cell may be dug), the
// like-for-like mode.
//
// Usage:
//   node --import tsx bench/mines-solver-compare.ts [--n 500] [--sizes 9x9/10,16x16/40,30x16/99]
//        [--emit DIR] [--verdicts DIR] [--list 5]
//   --emit DIR      writes DIR/WxH-M.boards, one board a line: "W H M SX SY <0/1 mines row-major>"
//   --verdicts DIR  reads DIR/WxH-M.verdicts, one line a board in the same order:
//                   "<index> solved|unsolved <safe cells opened> [...]" (or env
//                   ARBITER_MINES_VERDICTS=DIR); a missing file leaves that column out (skipped,
//                   not an error)
//   --list K        prints up to K board ids where exactly one solver clears

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { minesParts } from '@arbiter/engine/rulesets/mines';

const { generate, solveBoard } = minesParts;

interface Size {
  w: number;
  h: number;
  m: number;
}

function parseArgs(argv: string[]): {
  n: number;
  sizes: Size[];
  emit: string | null;
  verdicts: string | null;
  list: number;
} {
  const get = (k: string): string | undefined => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const n = Number(get('--n') ?? 500);
  const sizes = (get('--sizes') ?? '9x9/10,16x16/40,30x16/99').split(',').map((s) => {
    const m = /^(\d+)x(\d+)\/(\d+)$/.exec(s.trim());
    if (!m) throw new Error(`bad size "${s}" (want WxH/M)`);
    return { w: Number(m[1]), h: Number(m[2]), m: Number(m[3]) };
  });
  if (!Number.isInteger(n) || n < 1) throw new Error('--n must be a positive integer');
  return {
    n,
    sizes,
    emit: get('--emit') ?? null,
    verdicts: get('--verdicts') ?? process.env.ARBITER_MINES_VERDICTS ?? null,
    list: Number(get('--list') ?? 5),
  };
}

interface Verdict {
  solved: boolean;
  /** Safe cells opened, the start region included. */
  opened: number;
}

function readVerdicts(file: string, n: number): Verdict[] | null {
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  if (lines.length !== n) throw new Error(`${file}: ${lines.length} verdicts for ${n} boards`);
  return lines.map((l, i) => {
    const [idx, v, opened] = l.trim().split(/\s+/);
    if (Number(idx) !== i || (v !== 'solved' && v !== 'unsolved') || !/^\d+$/.test(opened ?? ''))
      throw new Error(`${file}:${i + 1}: bad line "${l}"`);
    return { solved: v === 'solved', opened: Number(opened) };
  });
}

const pct = (k: number, n: number): string => `${((100 * k) / n).toFixed(1)}%`;

function main(): void {
  const { n, sizes, emit, verdicts, list } = parseArgs(process.argv.slice(2));
  if (emit) mkdirSync(emit, { recursive: true });
  for (const s of sizes) {
    const tag = `${s.w}x${s.h}-${s.m}`;
    const ids: string[] = [];
    const lines: string[] = [];
    const game: boolean[] = [];
    const free: boolean[] = [];
    const freeOpened: number[] = [];
    let safeSum = 0;
    let ms = 0;
    for (let seed = 1; seed <= n; seed++) {
      const b = generate({ width: s.w, height: s.h, mines: s.m, fog: 0 }, seed);
      ids.push(b.id);
      lines.push(`${b.w} ${b.h} ${s.m} ${b.spawn[0]} ${b.spawn[1]} ${b.mines}`);
      const t0 = performance.now();
      const rf = solveBoard(b, { freeDig: true });
      ms += performance.now() - t0;
      free.push(rf.cleared);
      freeOpened.push(rf.opened);
      safeSum += rf.safe;
      game.push(solveBoard(b).cleared);
    }
    if (emit) writeFileSync(join(emit, `${tag}.boards`), lines.join('\n') + '\n');
    const theirs = verdicts ? readVerdicts(join(verdicts, `${tag}.verdicts`), n) : null;
    const count = (a: boolean[]) => a.filter(Boolean).length;
    const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
    let out = `${s.w}x${s.h}/${s.m}  n=${n}  ours(free) ${pct(count(free), n)}  ours(game rules) ${pct(count(game), n)}`;
    out += `  safe cells opened (free) ${pct(sum(freeOpened), safeSum)}  ${(ms / n).toFixed(2)} ms/board`;
    if (theirs) {
      const solved = theirs.map((t) => t.solved);
      const cmp = (mine: boolean[]) => {
        let both = 0;
        const oursOnly: string[] = [];
        const theirsOnly: string[] = [];
        for (let i = 0; i < n; i++) {
          if (mine[i] && solved[i]) both++;
          else if (mine[i]) oursOnly.push(ids[i]);
          else if (solved[i]) theirsOnly.push(ids[i]);
        }
        return { both, oursOnly, theirsOnly };
      };
      const f = cmp(free);
      const gm = cmp(game);
      let more = 0;
      let fewer = 0;
      for (let i = 0; i < n; i++) {
        if (freeOpened[i] > theirs[i].opened) more++;
        else if (freeOpened[i] < theirs[i].opened) fewer++;
      }
      out += `\n  tatham ${pct(count(solved), n)}  safe cells opened ${pct(sum(theirs.map((t) => t.opened)), safeSum)}`;
      out += `\n  free vs tatham: both ${f.both}  only ours ${f.oursOnly.length}  only tatham ${f.theirsOnly.length}  ours opened more ${more}  fewer ${fewer}`;
      out += `\n  game rules vs tatham: both ${gm.both}  only ours ${gm.oursOnly.length}  only tatham ${gm.theirsOnly.length}`;
      if (list > 0 && f.oursOnly.length) out += `\n  only ours (free): ${f.oursOnly.slice(0, list).join(' ')}`;
      if (list > 0 && f.theirsOnly.length) out += `\n  only tatham (vs free): ${f.theirsOnly.slice(0, list).join(' ')}`;
      if (list > 0 && gm.theirsOnly.length)
        out += `\n  only tatham (vs game rules): ${gm.theirsOnly.slice(0, list).join(' ')}`;
    } else {
      out += '\n  tatham: no verdicts file (skipped)';
    }
    console.log(out);
  }
}

main();
