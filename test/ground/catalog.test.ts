import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ground } from '../../packages/engine/src/rulesets/ground/index.ts';

const SEED_IDS: [string, number][] = [
  ['O', 5],
  ['S', 4],
  ['R', 9],
  ['F', 4],
  ['A', 13],
  ['L', 5],
  ['D', 7],
  ['P', 5],
  ['T', 3],
  ['E', 4],
];

test('the catalog lists exactly the seed rule ids GR-O01..E04 and U1..U23, and rules.md documents each with its scenarios', () => {
  const want = SEED_IDS.flatMap(([g, n]) =>
    Array.from({ length: n }, (_, i) => `GR-${g}${String(i + 1).padStart(2, '0')}`),
  );
  assert.deepEqual(
    ground.catalog.rules.map((r) => r.id),
    want,
  );
  const uIds = ground.catalog.uItems.map((u) => u.id);
  assert.deepEqual(
    uIds,
    Array.from({ length: 23 }, (_, i) => `U${i + 1}`),
  );
  assert.ok(ground.catalog.uItems.every((u) => (u.source === 'seed') === Number(u.id.slice(1)) <= 10));
  assert.deepEqual(
    ground.catalog.findings!.map((f) => [f.id, f.kind, f.state]),
    [
      ['F11', 'inert', 'applied'],
      ['F12', 'degenerate', 'note'],
      ['F13', 'inconsistent', 'withdrawn'],
      ['F14', 'unplayed', 'note'],
      ['F15', 'mis-citation', 'open'],
    ],
  );
  const doc = readFileSync(new URL('../../packages/engine/src/rulesets/ground/rules.md', import.meta.url), 'utf8');
  for (const id of [...want, ...uIds])
    assert.match(doc, new RegExp(`\\|\\s*${id}\\s*\\|`), `${id} missing from rules.md`);
  // rules.md repeats the catalog's own words, so the two cannot drift apart unnoticed
  for (const r of ground.catalog.rules)
    assert.ok(doc.includes(r.summary.replace(/\|/g, '/')), `${r.id} summary differs in rules.md`);
  for (const u of ground.catalog.uItems) assert.ok(doc.includes(u.default), `${u.id} default differs in rules.md`);
});

test('register discipline: every U-item has an owner, a raise date, a settled-or-open state and a reproduction that lists it (debt zero)', async () => {
  const { groundPackage } = await import('../../packages/engine/src/rulesets/ground/index.ts');
  const { registerOf } = await import('../../src/runners/coverage.ts');
  const reg = registerOf(groundPackage, process.cwd(), new Date('2026-12-01'));
  for (const u of reg.uItems) {
    assert.ok(u.owner && /^\d{4}-\d{2}-\d{2}$/.test(u.raised ?? ''), `${u.id} owner/raised`);
    assert.ok(['open', 'ruled', 'applied', 'withdrawn'].includes(u.state ?? ''), `${u.id} state ${u.state}`);
    if (u.state === 'applied') assert.ok(u.ruling, `${u.id} applied without a recorded ruling`);
  }
  assert.deepEqual(reg.debt, []);
  assert.deepEqual(reg.warnings, []);
  // the seed's own U-items are applied; the engine's are open
  assert.deepEqual(reg.counts, { applied: 10, open: 13 });
  // 30 days on, the open ones warn (a warning, never a failure of the register)
  const later = registerOf(groundPackage, process.cwd(), new Date('2027-01-15'));
  assert.ok(later.warnings.some((w) => /^U11 is open \d+ days after/.test(w)));
  assert.ok(!later.warnings.some((w) => w.startsWith('U1 ')));
});
