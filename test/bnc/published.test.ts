// The published rules page, the release directory (rulesets/<version>/: the locked manifest and
// the page published from it), and the `beats` tool on a real match log.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolIO } from '../../packages/engine/src/kernel/index.ts';
import { bnc, bncPackage } from '../../packages/engine/src/rulesets/bnc/index.ts';
import { renderRulesPage } from '../../packages/engine/src/rulesets/bnc/page.ts';
import { BEATS, beatsOf } from '../../packages/engine/src/rulesets/bnc/beats.ts';
import { runMatch } from '../../packages/engine/src/engine/run-match.ts';
import { logLines } from '../../packages/engine/src/engine/log.ts';
import { makeAgents } from '../../src/agents/resolve.ts';
import { parseLog } from '../../src/runners/logfile.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'packages/engine/src/rulesets/bnc/manifest.json'), 'utf8'));

/** A ToolIO over an in-memory file map, collecting output. */
function memoryIO(
  files: Record<string, string> = {},
): ToolIO & { files: Record<string, string>; stdout: string; stderr: string } {
  const io = {
    files,
    stdout: '',
    stderr: '',
    cwd: '/virtual',
    readText: (p: string) => {
      if (!(p in files)) throw new Error(`no file ${p}`);
      return files[p];
    },
    writeText: (p: string, t: string) => void (files[p] = t),
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io;
}

const tool = (name: string) => bncPackage.tools.find((t) => t.name === name)!;

test('the committed rules page docs/rules/bnc.md equals the page generated from the catalog', () => {
  const committed = readFileSync(join(ROOT, 'docs/rules/bnc.md'), 'utf8');
  assert.equal(committed, bncPackage.rulesPage(), 'run `node bin/arbiter.js rules bnc --write` and commit the page');
});

test('the working manifest names bnc-1.1 and its seed; engine_sha stays null in the source tree', () => {
  assert.equal(manifest.version, bnc.version);
  assert.equal(manifest.seed, '003_aae1362fee7cd3f2');
  assert.equal(manifest.engine_sha, null);
});

test('every catalog rule and U-item appears on the rules page, and the page states the contestant policy', () => {
  const page = bncPackage.rulesPage();
  for (const r of bnc.catalog.rules) assert.ok(page.includes(r.id), r.id);
  for (const u of bnc.catalog.uItems) assert.ok(page.includes(u.id), u.id);
  assert.equal(BEATS.length, 17);
  assert.match(page, /contestant policy is `llm-mixed-provider-scarcity-stated-v1`/);
});

test('every release directory rulesets/<version>/ holds a manifest locked to a 40-hex commit and the page published from it', () => {
  const dir = join(ROOT, 'rulesets');
  const versions = existsSync(dir) ? readdirSync(dir).filter((v) => v.startsWith('bnc-')) : [];
  for (const v of versions) {
    const m = JSON.parse(readFileSync(join(dir, v, 'manifest.json'), 'utf8'));
    assert.equal(m.version, v, `${v}: the directory names the version`);
    assert.match(m.engine_sha, /^[0-9a-f]{40}$/, `${v}: a released version is locked`);
    const page = readFileSync(join(dir, v, 'rules.md'), 'utf8');
    assert.ok(page.includes(m.engine_sha), `${v}: the published page names its commit`);
    // the current version's page must be exactly what this engine renders for that lock
    if (v === bnc.version) assert.equal(page, renderRulesPage(m));
  }
});

test('`bnc lock --sha` writes rulesets/bnc-1.1/manifest.json and rules.md; a bad sha writes nothing', async () => {
  const sha = 'a'.repeat(40);
  const io = memoryIO();
  assert.equal(await tool('lock').run([], { sha }, io), 0);
  const m = JSON.parse(io.files['rulesets/bnc-1.1/manifest.json']);
  assert.deepEqual(m, { ...manifest, engine_sha: sha });
  assert.equal(io.files['rulesets/bnc-1.1/rules.md'], renderRulesPage(m));
  assert.match(io.files['rulesets/bnc-1.1/rules.md'], /published from `rulesets\/bnc-1.1\/rules.md`/);
  const bad = memoryIO();
  assert.equal(await tool('lock').run([], { sha: 'HEAD' }, bad), 1);
  assert.deepEqual(bad.files, {});
});

test('[BNC-B01, BNC-B13] beats are listed from a JSON Lines match log, by the function and by the `beats` tool', async () => {
  const m = await runMatch(bnc, makeAgents(bncPackage, 'cooperative,greedy,treacherous,cautious', 4), { seed: 3 });
  const text = logLines(m).join('\n') + '\n';
  const beats = beatsOf(parseLog(text).entries);
  const inStream = m.events.filter((e) => e.type === 'beat').length;
  assert.equal(beats.length, inStream);
  assert.ok(beats.some((b) => b.beat === 'first_contact'));
  assert.equal(beats.filter((b) => b.beat === 'collapse').length, m.state.endReason === 'collapse' ? 1 : 0);
  const known = new Set<string>(BEATS.map((b) => b.beat));
  for (const b of beats) assert.ok(known.has(b.beat), b.beat);
  const io = memoryIO({ 'match.jsonl': text });
  assert.equal(await tool('beats').run(['match.jsonl'], { json: true }, io), 0);
  const lines = io.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, beats.length);
  assert.deepEqual(lines[0], JSON.parse(JSON.stringify(beats[0])));
  const missing = memoryIO();
  assert.equal(await tool('beats').run(['nope.jsonl'], {}, missing), 1);
  assert.match(missing.stderr, /cannot read nope.jsonl/);
});
