// Before/after comparison for a refactor: runs `arbiter bench --json` from two checkouts, alternating
// (before, after, before, after, ...) so machine noise falls on both sides, and prints per case the
// median throughput of each side and the after/before ratio with its range.
// usage: node bench/before-after.mjs BEFORE_DIR AFTER_DIR [--runs 3] [--budget 1000] [filter ...]
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const [beforeDir, afterDir] = args;
/** @param {string} name @param {string} dflt @returns {string} */
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : args.splice(i, 2)[1];
};
const runs = Number(opt('--runs', '3'));
const budget = opt('--budget', '1000');
const filters = args.slice(2).filter((a) => !a.startsWith('--'));
if (!beforeDir || !afterDir) {
  console.error('usage: node bench/before-after.mjs BEFORE_DIR AFTER_DIR [--runs N] [--budget MS] [filter ...]');
  process.exit(2);
}
/** @param {Record<string, number | undefined>} r @returns {number | null} */
const rate = (r) => r.moves_per_cpu_s ?? r.games_per_cpu_s ?? r.states_per_cpu_s ?? r.ops_per_cpu_s ?? null;
/** @param {string} dir @returns {Map<string, number>} */
const once = (dir) => {
  const r = spawnSync(process.execPath, ['bin/arbiter.js', 'bench', '--json', '--budget', budget, ...filters], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const out = new Map();
  for (const line of r.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const j = JSON.parse(line);
    const v = rate(j);
    if (v !== null) out.set(j.case, v);
  }
  return out;
};
/** @type {Record<string, Map<string, number[]>>} */
const samples = { before: new Map(), after: new Map() };
for (let i = 0; i < runs; i++)
  for (const [side, dir] of [
    ['before', beforeDir],
    ['after', afterDir],
  ]) {
    for (const [k, v] of once(dir)) samples[side].set(k, [...(samples[side].get(k) ?? []), v]);
    process.stderr.write(`run ${i + 1}/${runs} ${side} done\n`);
  }
/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log('case | before (median/s) | after (median/s) | after/before (median, range over runs)');
for (const [k, after] of samples.after) {
  const before = samples.before.get(k);
  if (!before) {
    console.log(`${k} | - | ${Math.round(median(after))} | new case`);
    continue;
  }
  const ratios = after.map((a, i) => a / before[Math.min(i, before.length - 1)]);
  console.log(
    `${k} | ${Math.round(median(before))} | ${Math.round(median(after))} | ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
  );
}
// a case the after side no longer has is reported too, so a dropped case cannot pass unseen
for (const [k, before] of samples.before)
  if (!samples.after.has(k)) console.log(`${k} | ${Math.round(median(before))} | - | gone after`);
