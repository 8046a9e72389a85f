// The log tamper suite (issue 11): logs of every registered ruleset, cut, reordered and edited by a
// pinned fast-check run. Every tampered log whose meaning differs from the original (its lines,
// parsed and written canonically, differ) must be refused by the verifier; unchanged-meaning ones may pass.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { act, canonicalJson, type Json, type Ruleset } from '../../packages/engine/src/kernel/index.ts';
import { PACKAGES, REGISTRY } from '../../packages/engine/src/registry.ts';
import { makeAgents } from '../../src/agents/resolve.ts';
import { runMatch } from '../../packages/engine/src/engine/run-match.ts';
import {
  canonicalInput,
  clipRaw,
  logLines,
  MatchRecorder,
  type LogEntry,
} from '../../packages/engine/src/engine/log.ts';
import { verifyLogText, type VerifyReport } from '../../src/runners/replay.ts';

const resolve = (id: string) => REGISTRY.get(id)?.ruleset as Ruleset<unknown> | undefined;
const RUNS = Number(process.env.ARBITER_TAMPER_RUNS ?? 150);

/** A log with accepted, rejected and defaulted submissions, written through MatchRecorder. */
function mixedLog(rs: Ruleset<unknown>, seed: number, max: number): string[] {
  const setupEvents: never[] = [];
  let state = rs.setup({}, seed, setupEvents);
  const rec = new MatchRecorder({
    ruleset: rs.id,
    version: rs.version,
    seed,
    config: {},
    agents: ['mixed'],
    setupEvents,
  });
  const entries: LogEntry[] = [];
  let n = 0;
  while (rs.outcome(state) === null && n < max) {
    const p = rs.pending(state)[0];
    if (!p) break;
    const menu = rs.legal(state, p.seat).actions as Json[];
    n++;
    if (n % 4 === 2) {
      const junk = canonicalInput({ type: 'no-such-action', n });
      const r = act(rs, state, p.seat, junk);
      assert.equal(r.ok, false);
      if (!r.ok)
        entries.push(rec.record({ seat: p.seat, input: junk, result: 'rejected', events: [], error: r.error }));
      continue;
    }
    const pick = menu[(n * 7 + seed) % menu.length];
    const r = act(rs, state, p.seat, canonicalInput(pick));
    assert.ok(r.ok, `${rs.id}: a menu action is accepted`);
    if (!r.ok) break;
    state = r.state;
    if (n % 5 === 0) {
      entries.push(
        rec.record({
          seat: p.seat,
          input: canonicalInput(pick),
          result: 'defaulted',
          events: r.events,
          default: { reason: 'timeout', request: n, raw: clipRaw('{"half') },
        }),
      );
    } else
      entries.push(rec.record({ seat: p.seat, input: canonicalInput(pick), result: 'accepted', events: r.events }));
  }
  return logLines({ header: rec.header, entries, footer: rec.footer(rs.outcome(state)) });
}

async function agentLog(id: string, seed: number, max: number): Promise<string[]> {
  const pkg = REGISTRY.get(id)!;
  const m = await runMatch(pkg.ruleset, (seats) => makeAgents(pkg, 'random', seats), { seed, maxSubmissions: max });
  return logLines(m);
}

/** Meaning of a log: its lines parsed and written canonically (null when some line is not JSON). */
function meaning(text: string): string[] | null {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  try {
    return lines.map((l) => canonicalJson(JSON.parse(l)));
  } catch {
    return null;
  }
}

type Path = (string | number)[];
function paths(v: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (v !== null && typeof v === 'object') {
    if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...prefix, i], out));
    else for (const [k, x] of Object.entries(v)) paths(x, [...prefix, k], out);
  }
  return out;
}
function at(root: unknown, p: Path): unknown {
  return p.reduce<unknown>((cur, k) => (cur as Record<string | number, unknown>)[k], root);
}

type Tamper =
  | { t: 'truncate'; at: number }
  | { t: 'drop'; i: number }
  | { t: 'swap'; i: number; j: number }
  | { t: 'duplicate'; i: number; j: number }
  | { t: 'blank'; i: number }
  | { t: 'junk'; i: number; text: string }
  | { t: 'edit'; i: number; p: number; value: Json; nudge: boolean }
  | { t: 'delete'; i: number; p: number }
  | { t: 'add'; i: number; p: number; key: string; value: Json };

const idx = fc.nat({ max: 1_000_000 });
const value: fc.Arbitrary<Json> = fc.oneof(
  fc.integer({ min: -3, max: 100 }),
  fc.string({ maxLength: 6 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant({} as Json),
  fc.constant([] as Json),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);
const tamper: fc.Arbitrary<Tamper> = fc.oneof(
  fc.record({ t: fc.constant('truncate' as const), at: idx }),
  fc.record({ t: fc.constant('drop' as const), i: idx }),
  fc.record({ t: fc.constant('swap' as const), i: idx, j: idx }),
  fc.record({ t: fc.constant('duplicate' as const), i: idx, j: idx }),
  fc.record({ t: fc.constant('blank' as const), i: idx }),
  fc.record({
    t: fc.constant('junk' as const),
    i: idx,
    text: fc.oneof(fc.string({ maxLength: 12 }), fc.constant('{}'), fc.constant('[]'), fc.constant('null')),
  }),
  fc.record({ t: fc.constant('edit' as const), i: idx, p: idx, value, nudge: fc.boolean() }),
  fc.record({ t: fc.constant('edit' as const), i: idx, p: idx, value, nudge: fc.constant(true) }),
  fc.record({ t: fc.constant('delete' as const), i: idx, p: idx }),
  fc.record({
    t: fc.constant('add' as const),
    i: idx,
    p: idx,
    key: fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom('extra', 'seq', 'type', 'note')),
    value,
  }),
);

function nudged(v: unknown, alt: Json): Json {
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'string') return v.length > 0 ? v.slice(0, -1) + (v.endsWith('0') ? '1' : '0') : 'x';
  if (typeof v === 'boolean') return !v;
  return alt;
}

function apply(lines: string[], m: Tamper): string {
  const n = lines.length;
  const out = [...lines];
  switch (m.t) {
    case 'truncate': {
      const text = lines.join('\n') + '\n';
      return text.slice(0, m.at % text.length);
    }
    case 'drop':
      out.splice(m.i % n, 1);
      break;
    case 'swap': {
      const i = m.i % n;
      const j = m.j % n;
      [out[i], out[j]] = [out[j], out[i]];
      break;
    }
    case 'duplicate':
      out.splice(m.j % (n + 1), 0, lines[m.i % n]);
      break;
    case 'blank':
      out.splice(m.i % (n + 1), 0, '');
      break;
    case 'junk':
      out.splice(m.i % (n + 1), 0, m.text);
      break;
    default: {
      const i = m.i % n;
      const obj = JSON.parse(lines[i]) as Json;
      const ps = paths(obj);
      if (m.t === 'edit') {
        const p = ps[m.p % ps.length];
        const nv = m.nudge ? nudged(at(obj, p), m.value) : m.value;
        if (p.length === 0) out[i] = JSON.stringify(nv);
        else (at(obj, p.slice(0, -1)) as Record<string | number, Json>)[p[p.length - 1]] = nv;
        if (p.length > 0) out[i] = JSON.stringify(obj);
      } else if (m.t === 'delete') {
        const inner = ps.filter((p) => p.length > 0);
        const p = inner[m.p % inner.length];
        const parent = at(obj, p.slice(0, -1)) as Record<string | number, Json> | Json[];
        if (Array.isArray(parent)) parent.splice(p[p.length - 1] as number, 1);
        else delete parent[p[p.length - 1]];
        out[i] = JSON.stringify(obj);
      } else {
        const objs = ps.filter((p) => {
          const v = at(obj, p);
          return v !== null && typeof v === 'object' && !Array.isArray(v);
        });
        const target = at(obj, objs[m.p % objs.length]) as Record<string, Json>;
        target[m.key] = m.value;
        out[i] = JSON.stringify(obj);
      }
    }
  }
  return out.join('\n') + '\n';
}

test('[LOG-T01] tamper suite: every tampered log of every ruleset that changes meaning is refused (pinned seed)', async () => {
  let tried = 0;
  let changed = 0;
  let refused = 0;
  const byKind: Record<string, number> = {};
  const byTamper: Record<string, [number, number]> = {};
  for (const pkg of PACKAGES) {
    const id = pkg.ruleset.id;
    const logs = [await agentLog(id, 3, 60), mixedLog(pkg.ruleset as Ruleset<unknown>, 5, 40)];
    for (const lines of logs) {
      const original = lines.join('\n') + '\n';
      const base = verifyLogText(original, { resolve });
      assert.equal(base.ok, true, `${id}: the untouched log verifies: ${base.message}`);
      const want = meaning(original)!;
      fc.assert(
        fc.property(tamper, (m) => {
          const text = apply(lines, m);
          tried++;
          const got = meaning(text);
          const same = got !== null && got.length === want.length && got.every((l, i) => l === want[i]);
          const r: VerifyReport = verifyLogText(text, { resolve });
          const slot = (byTamper[m.t] ??= [0, 0]);
          if (same) return true; // unchanged meaning: passing or refusing are both fine
          changed++;
          slot[0]++;
          if (!r.ok) {
            refused++;
            slot[1]++;
            byKind[r.status] = (byKind[r.status] ?? 0) + 1;
          }
          if (r.ok) throw new Error(`${id}: a tampered log verified (${JSON.stringify(m)}): ${r.message}`);
          return true;
        }),
        { seed: 20261201, numRuns: RUNS },
      );
    }
  }
  console.log(
    `# tamper suite: tried ${tried}, changed meaning ${changed}, refused ${refused}; by problem ${JSON.stringify(byKind)}; by tampering [changed, refused] ${JSON.stringify(byTamper)}`,
  );
  assert.equal(refused, changed);
  assert.ok(changed > tried * 0.8, 'most tamperings change meaning (the suite is not vacuous)');
});
