// The published rules page and the manifest lock, and `arbiter beats` on a real match log.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bnc, bncPackage } from '../../src/rulesets/bnc/index.ts';
import { renderRulesPage } from '../../src/rulesets/bnc/rulespage.ts';
import { BEATS } from '../../src/rulesets/bnc/catalog.ts';
import { beatsOf } from '../../src/rulesets/bnc/beats.ts';
import { logLines, runMatch } from '../../src/runners/match.ts';
import { makeAgents } from '../../src/agents/resolve.ts';
import { parseLog } from '../../src/runners/logfile.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'src/rulesets/bnc/manifest.json'), 'utf8'));

test('the committed rules page docs/rules/bnc.md equals the page generated from the catalog', () => {
  const committed = readFileSync(join(ROOT, 'docs/rules/bnc.md'), 'utf8');
  assert.equal(committed, renderRulesPage(manifest.engine_sha), 'run `node bin/arbiter.js rules bnc --write` and commit the page');
});

test('the manifest names bnc-1.1 and its engine_sha is null or a 40-hex commit', () => {
  assert.equal(manifest.version, bnc.version);
  assert.ok(manifest.engine_sha === null || /^[0-9a-f]{40}$/.test(manifest.engine_sha));
});

test('every catalog rule and U-item appears on the rules page', () => {
  const page = renderRulesPage(null);
  for (const r of bnc.catalog.rules) assert.ok(page.includes(r.id), r.id);
  for (const u of bnc.catalog.uItems) assert.ok(page.includes(u.id), u.id);
  assert.equal(BEATS.length, 17);
});

test('[BNC-B01, BNC-B13] beats are listed from a JSON Lines match log, by the function and by `arbiter beats`', async () => {
  const m = await runMatch(bnc, makeAgents(bncPackage, 'cooperative,greedy,treacherous,cautious', 4), { seed: 3 });
  const text = logLines(m).join('\n') + '\n';
  const beats = beatsOf(parseLog(text).entries);
  const inStream = m.events.filter((e) => e.type === 'beat').length;
  assert.equal(beats.length, inStream);
  assert.ok(beats.some((b) => b.beat === 'first_contact'));
  assert.equal(beats.filter((b) => b.beat === 'collapse').length, m.state.endReason === 'collapse' ? 1 : 0);
  const known = new Set(BEATS.map((b) => b.beat));
  for (const b of beats) assert.ok(known.has(b.beat), b.beat);
  const dir = mkdtempSync(join(tmpdir(), 'bnc-'));
  const file = join(dir, 'match.jsonl');
  writeFileSync(file, text);
  const out = execFileSync(process.execPath, [join(ROOT, 'bin/arbiter.js'), 'beats', file, '--json'], { encoding: 'utf8' });
  const lines = out.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, beats.length);
  assert.deepEqual(lines[0], JSON.parse(JSON.stringify(beats[0])));
});

test('`lock` writes the checkout HEAD into the manifest and the rules page', async () => {
  const { lockBnc } = await import('../../src/cli/commands/bnc.ts');
  const { mkdirSync, copyFileSync } = await import('node:fs');
  const dir = mkdtempSync(join(tmpdir(), 'bnc-lock-'));
  mkdirSync(join(dir, 'src/rulesets/bnc'), { recursive: true });
  mkdirSync(join(dir, 'docs/rules'), { recursive: true });
  copyFileSync(join(ROOT, 'src/rulesets/bnc/manifest.json'), join(dir, 'src/rulesets/bnc/manifest.json'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'x');
  const head = git('rev-parse', 'HEAD');
  assert.equal(lockBnc(dir), head);
  assert.equal(JSON.parse(readFileSync(join(dir, 'src/rulesets/bnc/manifest.json'), 'utf8')).engine_sha, head);
  assert.equal(readFileSync(join(dir, 'docs/rules/bnc.md'), 'utf8'), renderRulesPage(head));
});
