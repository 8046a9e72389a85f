// Drive under hostile input (issue 11): line cap enforced while reading, too_large answers, numbers
// JSON cannot hold, prototype keys, refused inputs not kept, backpressure, and a memory-bounded run
// of many refused 1 MB lines in a child process with a 128 MB heap.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { handleLine, runDrive, type DriveState } from '../../src/cli/drive.ts';
import { verifyLogText } from '../../src/runners/replay.ts';
import { REGISTRY } from '../../packages/engine/src/registry.ts';
import type { Ruleset } from '../../packages/engine/src/kernel/index.ts';

type Resp = {
  id: unknown;
  ok: boolean;
  error?: { code: string; reason: string; detail?: Record<string, unknown> };
  [k: string]: unknown;
};

/** Run drive over in-memory chunks; collect the answers. */
async function drive(chunks: (string | Buffer)[], maxLine?: number): Promise<Resp[]> {
  let out = '';
  const sink = new Writable({
    write(chunk, _enc, cb) {
      out += chunk.toString();
      cb();
    },
  });
  async function* input() {
    for (const c of chunks) yield typeof c === 'string' ? Buffer.from(c) : c;
  }
  await runDrive(input(), sink, { maxLine });
  return out.trim() === ''
    ? []
    : out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Resp);
}

test('[DRV-L01] an oversize line is skipped to its newline, answered too_large with its id, and the next line is served', async () => {
  const big = `{"id":41,"op":"act","seat":0,"action":{"cell":"${'x'.repeat(3000)}"}}`;
  // split the big line over many chunks, so the cap is hit mid-line
  const chunks = [
    '{"id":1,"op":"new","ruleset":"tictactoe"}\n',
    ...big.match(/.{1,700}/g)!,
    '\n{"id":2,"op":"act","seat":0,"action":{"type":"mark","cell":4}}\n',
    'x'.repeat(5000),
  ];
  const r = await drive(chunks, 1024);
  assert.equal(r.length, 4);
  assert.equal(r[0].ok, true);
  assert.equal(r[1].id, 41);
  assert.equal(r[1].error!.code, 'too_large');
  assert.match(r[1].error!.reason, /line 2 is \d+ bytes, over the limit of 1024 \(--max-line\)/);
  assert.equal(r[2].ok, true, JSON.stringify(r[2]));
  assert.equal(r[3].id, null);
  assert.equal(r[3].error!.code, 'too_large');
});

test('[DRV-L02] a number JSON cannot hold keeps the request id and names the field', () => {
  const ds: DriveState = { session: null };
  const r = handleLine(ds, '{"id":"q7","op":"new","ruleset":"tictactoe","seed":1e999}') as Resp;
  assert.equal(r.id, 'q7');
  assert.equal(r.error!.code, 'bad_request');
  assert.match(r.error!.reason, /the number at "seed" is too large for JSON/);
  handleLine(ds, '{"id":1,"op":"new","ruleset":"tictactoe"}');
  const a = handleLine(ds, '{"id":9,"op":"act","seat":0,"action":{"cell":-1e400,"k":[1,2e308]}}') as Resp;
  assert.equal(a.id, 9);
  assert.match(a.error!.reason, /"action.cell"/);
});

test('[DRV-L03] prototype keys anywhere in a request are refused before anything is touched', () => {
  const ds: DriveState = { session: null };
  for (const line of [
    '{"id":1,"op":"new","ruleset":"ground","config":{"__proto__":{"players":6}}}',
    '{"id":2,"op":"new","ruleset":"tictactoe","__proto__":{"op":"state"}}',
    '{"id":3,"op":"new","ruleset":"tictactoe","config":{"a":[{"constructor":{"prototype":1}}]}}',
  ]) {
    const r = handleLine(ds, line) as Resp;
    assert.equal(r.ok, false, line);
    assert.equal(r.error!.code, 'bad_request', line);
    assert.match(r.error!.reason, /is not allowed/, line);
    assert.equal(ds.session, null, 'no game was created');
  }
  assert.equal((handleLine(ds, '{"id":4,"op":"new","ruleset":"tictactoe"}') as Resp).ok, true);
  const before = JSON.stringify((handleLine(ds, '{"op":"state"}') as Resp).state);
  const r = handleLine(ds, '{"id":5,"op":"act","seat":0,"action":{"cell":4,"__proto__":{"cell":5}}}') as Resp;
  assert.equal(r.error!.code, 'bad_request');
  assert.equal(JSON.stringify((handleLine(ds, '{"op":"state"}') as Resp).state), before);
  assert.equal(({} as Record<string, unknown>).players, undefined, 'no prototype was written');
});

test('[DRV-L04] fuzz: oversize, prototype and junk payloads never crash drive; every line gets one typed answer, in order', async () => {
  const payload = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc
      .constantFrom('__proto__', 'constructor', 'prototype')
      .map((k) => `{"id":"p","op":"act","seat":0,"action":{"${k}":{"cell":1}}}`),
    fc
      .constantFrom('__proto__', 'constructor', 'prototype')
      .map((k) => `{"id":"c","op":"new","ruleset":"tictactoe","config":{"${k}":{"x":1}}}`),
    fc.nat({ max: 5000 }).map((n) => `{"id":"big","op":"act","seat":0,"action":{"cell":"${'y'.repeat(n)}"}}`),
    fc
      .constantFrom('1e999', '-1e999', '1e308', '2e308')
      .map((x) => `{"id":"n","op":"new","ruleset":"tictactoe","seed":${x}}`),
    fc.constant('{"id":1,"op":"new","ruleset":"tictactoe"}'),
    fc.constant('{"id":2,"op":"act","seat":0,"action":{"type":"mark","cell":4}}'),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(payload, { maxLength: 25 }), fc.integer({ min: 64, max: 4096 }), async (lines, max) => {
      const sent = lines.filter((l) => l.trim() !== '' && !l.includes('\n') && !l.includes('\r'));
      const answers = await drive([sent.join('\n') + '\n'], max);
      assert.equal(answers.length, sent.length);
      sent.forEach((l, i) => {
        const a = answers[i];
        assert.equal(typeof a.ok, 'boolean');
        if (Buffer.byteLength(l) > max) assert.equal(a.error?.code, 'too_large', l.slice(0, 60));
        else if (/__proto__|constructor|prototype/.test(l)) assert.equal(a.ok, false, l);
        if (!a.ok)
          assert.ok(
            ['bad_request', 'not_found', 'bad_config', 'illegal', 'out_of_turn', 'game_over', 'too_large'].includes(
              a.error!.code,
            ),
            a.error!.code,
          );
      });
      assert.equal(({} as Record<string, unknown>).x, undefined);
    }),
    { seed: 1101, numRuns: 120 },
  );
});

test('[DRV-L05] refused submissions are not kept; the session log holds accepted ones and verifies', async () => {
  const bad = `{"id":"b","op":"act","seat":0,"action":{"cell":"${'z'.repeat(20_000)}"}}\n`;
  const lines = [
    '{"id":1,"op":"new","ruleset":"tictactoe","seed":3}\n',
    bad,
    '{"id":2,"op":"act","seat":0,"action":{"type":"mark","cell":4}}\n',
    bad,
    '{"id":3,"op":"act","seat":1,"action":{"type":"mark","cell":0}}\n',
    '{"id":4,"op":"log"}\n',
  ];
  const r = await drive(lines);
  const log = r[5].log as Record<string, unknown>[];
  assert.equal(log.length, 4, 'header, two accepted submissions, footer');
  assert.ok(!JSON.stringify(log).includes('zzzz'));
  assert.ok(JSON.stringify(r[1]).length < 10_000, 'a refusal does not echo the large input back');
  const text = log.map((l) => JSON.stringify(l)).join('\n') + '\n';
  const v = verifyLogText(text, { resolve: (id) => REGISTRY.get(id)?.ruleset as Ruleset<unknown> | undefined });
  assert.equal(v.ok, true, v.message);
});

test('[DRV-L06] backpressure: drive stops reading while the answer stream is full', async () => {
  let pulled = 0;
  async function* input() {
    for (let i = 0; i < 10_000; i++) {
      pulled++;
      yield Buffer.from(`{"id":${i},"op":"rulesets"}\n`);
    }
  }
  let release: (() => void) | null = null;
  let answered = 0;
  const sink = new Writable({
    highWaterMark: 1024,
    write(_chunk, _enc, cb) {
      answered++;
      // the reader is stalled until released
      if (release === null && answered === 1) release = cb;
      else cb();
    },
  });
  const done = runDrive(input(), sink);
  await new Promise((r) => setTimeout(r, 200));
  assert.ok(pulled < 100, `drive kept reading while nobody read its answers (${pulled} lines pulled)`);
  (release as unknown as () => void)();
  await done;
  assert.equal(pulled, 10_000);
  assert.equal(answered, 10_000);
});

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Peak resident memory (VmHWM) of a live process, in MB; null off Linux. */
function peakMb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

// ARBITER_DRIVE_MEMTEST_LINES=10000 runs the full size of issue 11 (about 10 GB through a pipe).
const LINES = Number(process.env.ARBITER_DRIVE_MEMTEST_LINES ?? 150);

test(`[DRV-L07] ${LINES} refused 1 MB lines and oversize lines through drive under --max-old-space-size=128`, {
  timeout: 120_000 + LINES * 1000,
}, async () => {
  const child = spawn(process.execPath, ['--max-old-space-size=128', 'bin/arbiter.js', 'drive'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  let answers = 0;
  let tooLarge = 0;
  let refused = 0;
  let pending = '';
  child.stdout.on('data', (d: Buffer) => {
    pending += d.toString();
    let nl;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const a = JSON.parse(pending.slice(0, nl)) as Resp;
      pending = pending.slice(nl + 1);
      answers++;
      if (a.error?.code === 'too_large') tooLarge++;
      else if (!a.ok) refused++;
    }
  });
  const write = (b: Buffer | string) =>
    child.stdin.write(b) ? Promise.resolve() : new Promise<void>((r) => child.stdin.once('drain', () => r()));
  await write('{"id":0,"op":"new","ruleset":"tictactoe"}\n');
  // the idle driver's resident size (modules loaded, one session): growth is measured from here
  while (answers < 1 && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
  const base = peakMb(child.pid!);
  const body = Buffer.alloc(1_000_000 - 80, 'a');
  const over = Buffer.alloc(3 * 1024 * 1024, 'o');
  const started = Date.now();
  for (let i = 1; i <= LINES; i++) {
    // every 50th line is over the 1 MiB cap; the rest are 1 MB actions the ruleset refuses
    if (i % 50 === 0)
      await write(
        Buffer.concat([Buffer.from(`{"id":${i},"op":"act","seat":0,"action":{"cell":"`), over, Buffer.from('"}}\n')]),
      );
    else
      await write(
        Buffer.concat([Buffer.from(`{"id":${i},"op":"act","seat":0,"action":{"cell":"`), body, Buffer.from('"}}\n')]),
      );
  }
  await write('{"id":"end","op":"log"}\n');
  while (answers < LINES + 2 && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
  const peak = peakMb(child.pid!);
  child.stdin.end();
  const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `# drive memory test: ${LINES} lines of 1 MB (${Math.floor(LINES / 50)} of 3 MiB), ${seconds.toFixed(1)} s, peak RSS ${peak?.toFixed(1) ?? 'n/a'} MB (idle ${base?.toFixed(1) ?? 'n/a'} MB), exit ${code}`,
  );
  assert.equal(code, 0, err);
  assert.equal(answers, LINES + 2);
  assert.equal(tooLarge, Math.floor(LINES / 50));
  assert.equal(refused, LINES - Math.floor(LINES / 50));
  // keeping the refused lines would add 1 MB each (150 MB here); buffers of the line in hand and
  // the collector's slack stay well under that
  if (peak !== null && base !== null)
    assert.ok(
      peak - base < 100,
      `peak RSS ${peak} MB, ${(peak - base).toFixed(1)} MB over the idle driver (${base} MB)`,
    );
});
