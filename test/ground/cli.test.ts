import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolIO } from '../../packages/engine/src/kernel/index.ts';
import { groundPackage } from '../../packages/engine/src/rulesets/ground/index.ts';
import { SAMPLE_EDITION, type Edition } from '../../packages/engine/src/rulesets/ground/edition.ts';
import { editionReport } from '../../packages/engine/src/rulesets/ground/tools.ts';
import { cli } from '../support/cli.ts';

function memoryIO(files: Record<string, string>): ToolIO & { stdout: string[] } {
  const stdout: string[] = [];
  return {
    cwd: '/',
    stdout,
    readText: (p) => {
      if (!(p in files)) throw new Error(`ENOENT ${p}`);
      return files[p];
    },
    writeText: (p, t) => void (files[p] = t),
    out: (t) => void stdout.push(t),
    err: () => {},
  };
}

test('[GR-E01] ground edition reports value in play against each threshold and flags an unreachable one', () => {
  const ok = editionReport(SAMPLE_EDITION);
  assert.match(ok, /kitchen-table .*2p 6\/5, 3p 9\/7, 4p 9\/7, 5p 12\/9, 6p 12\/9/);
  assert.doesNotMatch(ok, /UNREACHABLE/);
  const hard: Edition = JSON.parse(JSON.stringify(SAMPLE_EDITION));
  hard.scenarios[0].thresholds['2'] = 7;
  assert.match(editionReport(hard), /2p 6\/7 UNREACHABLE/);
});

test('[GR-E01] the edition tool runs through ToolIO: no path prints the SAMPLE edition, a path is checked', async () => {
  const tool = groundPackage.tools.find((t) => t.name === 'edition');
  assert.ok(tool);
  const hard: Edition = JSON.parse(JSON.stringify(SAMPLE_EDITION));
  hard.scenarios[0].thresholds['2'] = 7;
  const io = memoryIO({ 'hard.json': JSON.stringify(hard) });
  assert.equal(await tool.run([], {}, io), 0);
  assert.deepEqual(JSON.parse(io.stdout.join('')), SAMPLE_EDITION);
  io.stdout.length = 0;
  assert.equal(await tool.run(['hard.json'], {}, io), 0);
  assert.match(io.stdout.join(''), /2p 6\/7 UNREACHABLE/);
  assert.throws(() => tool.run(['missing.json'], {}, io), /bad_config|cannot read edition/);
});

test('[GR-E01] `arbiter ground edition` is a CLI verb', async () => {
  const r = await cli(['ground', 'edition']);
  assert.equal(r.code, 0, r.err);
  assert.equal(JSON.parse(r.out).id, SAMPLE_EDITION.id);
});
