// The slot a protocol transport waits on: answers for no open request are kept as stale, but only
// the newest few, so an agent flooding its channel cannot grow the server's memory or the transcript.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnswerSlot, STALE_KEPT } from '../../packages/engine/src/agents/answer-slot.ts';
import { formatTranscript } from '../../src/agents/transcript.ts';

test('[AG-STALE-CAP] a flood of stale answers keeps the newest STALE_KEPT texts and counts them all', async () => {
  const slot = new AnswerSlot();
  for (let i = 0; i < 1000; i++) slot.receive(i % 2 ? `{"request":"old-${i}"}` : `not json ${i}`);
  const s = slot.takeStale();
  assert.equal(s.count, 1000);
  assert.equal(s.texts.length, STALE_KEPT);
  assert.equal(s.texts.at(-1), '{"request":"old-999"}', 'the newest is kept last');
  assert.equal(s.texts[0], `not json ${1000 - STALE_KEPT}`);
  assert.deepEqual(slot.takeStale(), { texts: [], count: 0 }, 'taking them starts the count again');
  // an open request still gets its own answer after a flood
  const ctl = new AbortController();
  const reply = slot.wait('r1', ctl.signal, () => {
    for (let i = 0; i < 100; i++) slot.receive('{"request":"r0"}');
    slot.receive('{"request":"r1","action":1}');
  });
  assert.deepEqual(await reply, {
    ok: true,
    message: { request: 'r1', action: 1 },
    raw: '{"request":"r1","action":1}',
  });
  assert.equal(slot.takeStale().count, 100);
});

test('[AG-STALE-CAP] the transcript says how many stale answers came when it shows only the last few', () => {
  const text = formatTranscript([
    { seat: 0, request: 'r1', attempt: 1, latency_ms: 3, ok: true, stale: ['a', 'b'], stale_count: 40 },
    { seat: 0, request: 'r2', attempt: 1, latency_ms: 3, ok: true, stale: ['c'] },
  ]);
  assert.match(text, /stale answers dropped: 40 \(the last 2 shown\)/);
  assert.match(text, /stale answers dropped: 1\n/);
});
