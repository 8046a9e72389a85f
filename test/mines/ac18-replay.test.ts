// Determinism, snapshot semantics, zero special-casing of variants, static checks
// (AC-18, AC-19, AC-20, AC-22).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { canonicalJson, hashText } from '../../packages/engine/src/kernel/index.ts';
import { fixture } from '../../packages/engine/src/rulesets/mines/fixtures.ts';
import { INTENT_TYPES } from '../../packages/engine/src/rulesets/mines/board/types.ts';
import { SEQUENCE, runSequence } from './replay-seq.ts';

test("[AC-18, EC8] changing the board product's variant table after install changes nothing: A2 holds a snapshot", () => {
  const e0 = runSequence(fixture('b_fog'));
  const e1 = runSequence(fixture('b_fog'), (b) => {
    // a "table reload" after install: rename the fog mark, add marks elsewhere, edit a digit
    for (const v of b.variants) v[1][0] = 'reloaded';
    b.variants.push([48, ['fog']]);
    b.digits = '9' + b.digits.slice(1);
  });
  assert.equal(canonicalJson(e1), canonicalJson(e0));
  assert.ok(
    e0.some((e) => e.type === 'cell_revealed' && e.variant_ids.includes('fog')),
    'the stream carries fog marks',
  );
});

test('[AC-19, R1] two independently built b_fog boards driven by the same intents give identical streams, also across processes', () => {
  const a = runSequence(fixture('b_fog'));
  const b = runSequence(fixture('b_fog'));
  assert.equal(canonicalJson(a), canonicalJson(b));
  // the sequence covers all three channels, judgments, a batch and a stop
  const kinds = new Set<string>(a.map((e) => (e.type === 'cell_revealed' ? e.channel : e.type)));
  for (const k of ['initial', 'dig', 'chain', 'flag_judged', 'round_end']) assert.ok(kinds.has(k), k);
  assert.ok(SEQUENCE.some((s) => s.length > 1));
  const here = hashText(canonicalJson(a));
  // one other process is enough to compare two: this one and it (each spawn costs a tsx start-up)
  const script = join(import.meta.dirname, 'replay-seq.ts');
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, '--print', 'b_fog'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), here);
});

test('[AC-20, R1] b_fog and b_fog_bare give streams that differ only in variant_ids', () => {
  const fog = runSequence(fixture('b_fog'));
  const bare = runSequence(fixture('b_fog_bare'));
  const strip = (es: typeof fog) => es.map((e) => (e.type === 'cell_revealed' ? { ...e, variant_ids: [] } : e));
  assert.equal(canonicalJson(strip(fog)), canonicalJson(strip(bare)));
  assert.notEqual(canonicalJson(fog), canonicalJson(bare), 'the marks themselves do differ');
});

test('[AC-22, R1, R12] static checks over the A2 sources: no randomness, no table loading, no economy reads, no UI, closed intent set', () => {
  const dir = join(import.meta.dirname, '../../packages/engine/src/rulesets/mines/board');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length >= 4);
  const forbidden: Array<[RegExp, string]> = [
    [/Math\.random|createRng|nextInt|nextU32|shuffleInPlace|RngState|crypto/, 'randomness'],
    [/node:fs|readFile|fetch\(|JSON\.parse|economy\.ts/, 'data-table loading'],
    [/ap_per_round|_ap_cost|rap_refresh_cost|\.table\b/, 'economy read'],
    [/picocolors|readline|process\.std|\/cli\/|console\./, 'UI or device dependency'],
    [/Date\b|performance\.now|hrtime/, 'clock'],
    [/chord/i, 'quick-open entry'],
  ];
  const allowedImports = /^(\.\/[a-z]+\.ts|\.\.\/ledger\/ledger\.ts|\.\.\/\.\.\/\.\.\/kernel\/index\.ts)$/;
  // numeric literals must be one of these (geometry, char codes, limits), never a price
  const allowedNumbers = new Set(['0', '1', '2', '3', '8', '42', '46', '48', '49', '70', '111', '120', '4_000_000']);
  for (const f of files) {
    const src = readFileSync(join(dir, f), 'utf8');
    const code = src
      .replace(/\/\/.*$/gm, '')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/'[^'\n]*'|`[^`]*`/g, "''")
      .replace(/\/\^.*?\$\//g, "''");
    for (const [re, what] of forbidden) assert.ok(!re.test(code), `${f}: ${what} (${re})`);
    for (const m of src.matchAll(/from '([^']+)'/g)) assert.match(m[1], allowedImports, `${f} imports ${m[1]}`);
    for (const m of code.matchAll(/(?<![\w.])(\d[\d_]*)(?![\w.])/g))
      assert.ok(allowedNumbers.has(m[1]), `${f}: unexplained numeric literal ${m[1]}`);
  }
  assert.deepEqual([...INTENT_TYPES].sort(), ['dig', 'flag_place', 'flag_pull', 'move', 'stop']);
});

test('[AC-19, R1] as a CLI check: `arbiter mines events` in its own process prints the event-stream hash this process computes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mines-ac19-'));
  const file = join(dir, 'intents.json');
  writeFileSync(file, JSON.stringify(SEQUENCE));
  const here = hashText(canonicalJson(runSequence(fixture('b_fog'))));
  const bin = join(import.meta.dirname, '../../bin/arbiter.js');
  const r = spawnSync(process.execPath, [bin, 'mines', 'events', '--fixture', 'b_fog', '--intents', file, '--hash'], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), here);
});
