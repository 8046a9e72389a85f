// bnc-1.1 is released as the seed asks: the directory rulesets/bnc-1.1/ (its manifest with the
// pinned engine commit, and the published page) together with that commit identify the ruleset.
// `arbiter lock bnc` writes it; `arbiter lock bnc --check` (and this test) verifies it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ToolIO } from '../../packages/engine/src/kernel/index.ts';
import { checkRelease, MANIFEST } from '../../packages/engine/src/rulesets/bnc/tools.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** The repository's files, read-only. */
function repoIO(): ToolIO {
  return {
    cwd: ROOT,
    readText: (p) => readFileSync(resolve(ROOT, p), 'utf8'),
    writeText: () => assert.fail('a check writes nothing'),
    out: () => {},
    err: () => {},
  };
}

test('[BNC-RELEASE] the committed rulesets/bnc-1.1/ is the locked release of this engine', () => {
  assert.deepEqual(checkRelease(repoIO()), []);
  const locked = JSON.parse(readFileSync(resolve(ROOT, 'rulesets/bnc-1.1/manifest.json'), 'utf8'));
  assert.equal(locked.version, MANIFEST.version);
  assert.equal(MANIFEST.engine_sha, null, 'the working manifest stays unreleased; the release lives in its directory');
  let shallow = 'unknown';
  try {
    shallow = execFileSync('git', ['rev-parse', '--is-shallow-repository'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    /* not a git checkout */
  }
  if (shallow !== 'false') {
    console.log('skipped: the pinned commit is checked only in a full git checkout');
    return;
  }
  // the pinned engine commit is part of this repository's history
  execFileSync('git', ['cat-file', '-e', `${locked.engine_sha}^{commit}`], { cwd: ROOT });
});

test('[BNC-RELEASE] a release page or manifest that differs from the engine is refused', () => {
  const files = new Map<string, string>();
  const io: ToolIO = {
    cwd: '/',
    readText: (p) => {
      const t = files.get(p);
      if (t === undefined) throw new Error(`cannot read ${p}`);
      return t;
    },
    writeText: (p, t) => void files.set(p, t),
    out: () => {},
    err: () => {},
  };
  assert.match(checkRelease(io)[0], /not released/);
  const real = repoIO();
  files.set('rulesets/bnc-1.1/manifest.json', real.readText('rulesets/bnc-1.1/manifest.json'));
  files.set('rulesets/bnc-1.1/rules.md', real.readText('rulesets/bnc-1.1/rules.md'));
  assert.deepEqual(checkRelease(io), []);
  files.set(
    'rulesets/bnc-1.1/rules.md',
    real.readText('rulesets/bnc-1.1/rules.md').replace('Four contestants', 'Five contestants'),
  );
  assert.match(checkRelease(io).join('\n'), /differs from the page/);
  files.set(
    'rulesets/bnc-1.1/manifest.json',
    JSON.stringify({ ...MANIFEST, seed: 'other', engine_sha: 'a'.repeat(40) }),
  );
  assert.match(checkRelease(io).join('\n'), /seed is "other"/);
});
