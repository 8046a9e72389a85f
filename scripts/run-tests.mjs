// Runs every test file under test/ with node's test runner (Node 20 does not expand globs), and
// ends with a plain "N passed, N failed" line that any CI log reader understands.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.test.ts')) files.push(p);
  }
};
walk('test');
const only = process.argv.slice(2);
const chosen = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
const tap = join(mkdtempSync(join(tmpdir(), 'arbiter-tests-')), 'results.tap');
const r = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    ...chosen,
  ],
  { stdio: 'inherit' },
);
let summary = '';
try {
  const text = readFileSync(tap, 'utf8');
  const num = (k) => Number((text.match(new RegExp(`^# ${k} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
  summary = `${num('pass')} passed, ${num('fail') + num('cancelled')} failed, ${num('skipped')} skipped`;
} catch {
  summary = '0 passed, 1 failed (no test report was written)';
}
console.log(`\ntests: ${summary}`);
process.exit(r.status ?? 1);
