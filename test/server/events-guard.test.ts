// The server's last guard on events: whatever a ruleset's eventView lets through, events that would
// show an audience one of its `secrets` are not sent to it, in a pushed frame or in the answer to
// the actor. A deliberately faulty GROUND (one of whose secrets every `committed` event names)
// stands in for a ruleset with a perception bug.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { GameEvent, Json, JsonObject } from '../../packages/engine/src/kernel/index.ts';
import { groundPackage } from '../../packages/engine/src/rulesets/ground/index.ts';
import { MatchService } from '../../src/server/service.ts';
import { SqliteStore } from '../../src/server/store-sqlite.ts';
import { tempDir } from './helpers.ts';

test('[SRV-EVENTS-GUARD] events holding a secret of their audience are sent to nobody who may not see them', async () => {
  const rs = groundPackage.ruleset;
  const faulty = {
    ...groundPackage,
    ruleset: { ...rs, secrets: (s: never, seat: number | null) => [...(rs.secrets?.(s, seat) ?? []), 'committed'] },
  };
  const dir = tempDir('guard');
  const store = new SqliteStore(join(dir, 'g.sqlite'));
  await store.init();
  const warnings: string[] = [];
  const svc = new MatchService({ store, packages: [faulty], warn: (msg) => warnings.push(msg) });
  try {
    const m = await svc.create({ ruleset: 'ground', seed: 3 });
    const seats = [];
    for (let i = 0; i < 4; i++) seats.push(await svc.join(m, undefined, `p${i}`));
    const frames: JsonObject[] = [];
    svc.subscribe(m, { seat: 1, send: (f) => frames.push(f) });
    const menu = svc.snapshot(m, 0).menu as { actions: Json[] };
    const r = await svc.submit(m, 0, menu.actions[0], null);
    assert.deepEqual(r.events, [], 'the answer to the actor carries none');
    const pushed = frames.at(-1);
    assert.equal(pushed?.seq, r.seq);
    assert.deepEqual(pushed?.events, [], 'the frame pushed to another seat carries none');
    assert.ok(warnings.includes('events would reveal a secret; sent without them'));
    // the unfaulty ruleset sends the commitment to both (it names no choice)
    const fine = new MatchService({ store, packages: [groundPackage] });
    const m2 = await fine.create({ ruleset: 'ground', seed: 3 });
    for (let i = 0; i < 4; i++) await fine.join(m2, undefined, `p${i}`);
    const menu2 = fine.snapshot(m2, 0).menu as { actions: Json[] };
    const r2 = await fine.submit(m2, 0, menu2.actions[0], null);
    assert.deepEqual(
      r2.events.map((e: GameEvent) => e.type),
      ['committed'],
    );
    await fine.close();
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
