import { act, SeededRandom, cloneJson } from './src/kernel/index.ts';
import { bnc } from './src/rulesets/bnc/index.ts';
import { cloneBnc } from './src/rulesets/bnc/state.ts';
const states: any[] = [];
for (let seed = 1; seed <= 15; seed++) {
  let s = bnc.setup({}, seed);
  const rnd = new SeededRandom(seed);
  while (!s.over) {
    const p = bnc.pending(s)[0];
    const menu = bnc.legal(s, p.seat).actions;
    s = (act(bnc, s, p.seat, menu[rnd.int(menu.length)]) as any).state; states.push(s);
  }
}
for (const [name, f] of [['cloneJson', cloneJson], ['cloneBnc', cloneBnc]] as const) {
  for (const s of states) (f as any)(s);
  const r = [];
  for (let round = 0; round < 4; round++) { const t = process.hrtime.bigint(); for (let k = 0; k < 3; k++) for (const s of states) (f as any)(s); r.push(Number(process.hrtime.bigint() - t) / 1e3 / (3 * states.length)); }
  console.log(name.padEnd(11), r.map((x) => x.toFixed(1)).join(' '));
}
