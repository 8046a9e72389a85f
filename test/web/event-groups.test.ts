// The match page's event list: the log's history (what happened before the page opened) merged with
// the socket's frames, each submission once, in order.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupsFromLog, mergeGroups } from '../../web/src/event-groups.ts';

const LOG = [
  '{"ruleset":"bnc","version":"x","partial":true,"setup_events":[{"type":"beat","beat":"opening"}]}',
  '{"seq":1,"seat":0,"input":null,"hidden":true,"result":"accepted","events":[{"type":"moved","seat":0}]}',
  '{"seq":2,"seat":1,"input":null,"hidden":true,"result":"accepted","events":[]}',
  '{"seq":3,"seat":2,"input":null,"hidden":true,"result":"accepted","events":[{"type":"said","seat":2}]}',
  '{"seq":4,"seat":3,"input":nu', // a line cut short is skipped
  '',
].join('\n');

test('[WEB-EVENTS-HISTORY] a log gives the setup and each submission that shows the caller an event', () => {
  const g = groupsFromLog(LOG);
  assert.deepEqual(
    g.map((x) => [x.seq, x.events.length]),
    [
      [0, 1],
      [1, 1],
      [3, 1],
    ],
  );
  assert.deepEqual(groupsFromLog('not a log\n[1,2]\n{"seq":"x","events":[1]}'), []);
});

test('[WEB-EVENTS-HISTORY] history and frames merge in seq order, each seq once, the frame’s copy kept', () => {
  const history = groupsFromLog(LOG);
  const frame = { seq: 3, who: null, events: [{ type: 'said', seat: 2, text: 'hi' }] };
  const later = { seq: 5, who: null, events: [{ type: 'moved', seat: 0 }] };
  const merged = mergeGroups(history, [later, frame]);
  assert.deepEqual(
    merged.map((x) => x.seq),
    [0, 1, 3, 5],
  );
  assert.equal(merged[2], frame);
  const many = Array.from({ length: 250 }, (_, i) => ({ seq: i + 1, who: null, events: [i] }));
  const kept = mergeGroups(many, []);
  assert.equal(kept.length, 200);
  assert.equal(kept[0].seq, 51, 'the oldest go first');
});
