// Proof the checks have teeth: each deliberately broken engine variant (a config flag, or a
// wrapper around apply) is caught by the explorer with a short trace naming the failed contract.
// The same configuration without the variant explores clean, so the catch is the variant's.

import type { Ruleset } from '../../packages/engine/src/kernel/index.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { duel } from '../../packages/engine/src/rulesets/duel/index.ts';
import { PRESETS } from '../../packages/engine/src/rulesets/duel/config.ts';
import { explore } from '../../src/runners/explore.ts';
import { resolve } from 'node:path';
import { checkTransitionBefore28, legacyCheckTransition } from '../../packages/engine/src/rulesets/duel/checks.ts';
import { findScenarioFiles, loadScenarioFile } from '../../src/runners/scenario-file.ts';
import { runScenario } from '../../src/runners/scenario.ts';
import type { Variant } from '../../packages/engine/src/rulesets/duel/state.ts';

const small = { ...PRESETS.ci, turns: 3 };

function caught(variant: Variant, extra: Record<string, unknown> = {}) {
  const r = explore(duel, { config: { ...small, ...extra, variant } });
  assert.equal(r.violations.length, 1, `${variant} was not caught`);
  return r.violations[0];
}

test('[TurnHandoff5] a handoff that resets begun counts is caught at the first handoff', () => {
  const v = caught('handoff_resets_counts');
  assert.equal(v.kind, 'transition');
  assert.equal(v.trace.length, 1);
  assert.match(v.messages[0], /^TurnHandoff5: conjunct "after = \[before EXCEPT.*begunCounts preserved/);
  assert.match(v.messages[0], /begunCounts\.0: expected 1, got 0/);
});

test('[TurnHandoff5] the begun-count invariant alone also catches the reset handoff', () => {
  const r = explore(duel, { config: { ...small, variant: 'handoff_resets_counts' }, checkTransitions: false });
  assert.equal(r.violations[0].kind, 'invariant');
  assert.ok(r.violations[0].messages.some((m) => m.startsWith('TurnHandoff5: begun counts total')));
  assert.equal(r.violations[0].trace.length, 1);
});

test('[ActionNestedReturn5] a return that accepts another child’s receipt is caught on the second run', () => {
  const v = caught('return_any_receipt');
  assert.match(
    v.messages[0],
    /^ActionNestedReturn5: conjunct "completedId = before.child" failed \(receipt (\d+), waiting on (\d+)\)/,
  );
  const [, got, want] = /receipt (\d+), waiting on (\d+)/.exec(v.messages[0])!;
  assert.notEqual(got, want);
  // the trace ends in a second run while the first run's receipt is still the last one
  const runs = v.trace.filter((t) => (t.action as { type: string }).type === 'run');
  assert.equal(runs.length, 2);
  assert.ok(v.trace.length <= 5, `trace of ${v.trace.length} steps`);
});

test('[DiscardStep, DoFatal, U-SKIP] a negative-limit check on a skipped discard step is caught', () => {
  const v = caught('neg_limit_before_skip');
  assert.match(v.messages[0], /^DoFatal: conjunct "condition negative_limit holds at its own boundary" failed/);
  const played = v.trace.map((t) => (t.action as { card?: string }).card);
  assert.ok(played.includes('burn') && played.includes('dayoff'), 'the trace burns the runner and plays dayoff');
  assert.ok(v.trace.length <= 5);
});

test('[ActionEffectsBegin5] effects that start before the cost checkpoint and reactions drain are caught', () => {
  const v = caught('effects_before_drain');
  assert.equal(v.trace.length, 1);
  // the new due-checkpoint obligation names it too; the seed contract's own conjunct is among them
  assert.ok(
    v.messages.some((m) => /^ActionEffectsBegin5: conjunct "costCheckpointAndReactionsDrained" failed/.test(m)),
    v.messages.join('\n'),
  );
});

test('[ActionEffectsBegin5, DUEL-REACT] effects that wait for the cost checkpoint but not for its reactions are caught', () => {
  const v = caught('effects_skip_reactions');
  assert.match(v.messages[0], /^ActionEffectsBegin5: conjunct "costCheckpointAndReactionsDrained" failed/);
  // the shortest way there: the corp installs toll, the runner pays for a run
  const acts = v.trace.map((t) => t.action as { type: string; card?: string });
  assert.ok(acts.some((a) => a.type === 'install' && a.card === 'toll'));
  assert.deepEqual(acts[acts.length - 1], { type: 'run' });
  assert.ok(v.trace.length <= 4, `trace of ${v.trace.length} steps`);
});

test('[DoCheckpoint, U-RETIRE] a checkpoint that drains pending abilities before testing winners is caught', () => {
  const v = caught('winners_after_drain');
  assert.match(
    v.messages[0],
    /^DoCheckpoint: conjunct "W # \{\} => after = \[before EXCEPT !\.result = OutcomeOf\(W\)/,
  );
  assert.ok(v.trace.length <= 5);
});

test('[PhaseEndDirected, PhaseEndComplete] a directed end that skips its ending checkpoint is caught', () => {
  const v = caught('directed_skips_checkpoint');
  assert.equal(v.trace.length, 1);
  assert.deepEqual(v.trace[0].action, { type: 'play', card: 'stop' });
  assert.match(v.messages[0], /^PhaseEndDirected: conjunct .* failed \(cpDue: expected true, got false\)/);
});

test('[DoFatal, U-DMG] a flatline on damage equal to the hand size is caught', () => {
  const v = caught('damage_not_strict', { hand: [5, 3], maxHand: [5, 5] });
  assert.equal(v.trace.length, 1);
  assert.match(v.messages[0], /^DoFatal: conjunct "condition damage holds at its own boundary" failed/);
});

test('[TurnFormalBegin5] an apply wrapper that also changes something else is caught (replay of the checked transition)', () => {
  // wrap apply: whenever a turn formally begins, also hand the corp a credit nobody paid for
  const leaky: typeof duel = {
    ...duel,
    apply(s, seat, action, events) {
      duel.apply(s, seat, action, events);
      if (events.some((e) => e.type === 'turn_begin')) s.p[0].credits++;
    },
  };
  const r = explore(leaky, { config: small });
  assert.equal(r.violations.length, 1);
  assert.ok(r.violations[0].messages.some((m) => m.startsWith('Replay:')));
  assert.equal(r.violations[0].trace.length, 1);
});

test('[DUEL-STEPS] an apply wrapper that leaves a seat nothing to do is reported as a deadlock', () => {
  const stuck: typeof duel = {
    ...duel,
    apply(s, seat, action, events) {
      duel.apply(s, seat, action, events);
      if (s.turn.owner === 1 && s.result === null) s.ask = null; // the runner is never asked
    },
    invariants: undefined,
  };
  const r = explore(stuck, { config: small, checkTransitions: false });
  assert.equal(r.violations[0].kind, 'deadlock');
  assert.equal(r.violations[0].trace.length, 1);
});

// Issue 10: the contract gaps. Each variant below passes the checker as it was before (the seed
// contracts' own frames, the invariants) and is caught only by the check that closed the gap.

const react = { ...PRESETS['ci-react'] };
const tiny = { ...small, turns: 2 };
const legacy: Ruleset = { ...duel, checkTransition: legacyCheckTransition };

function onlyNewCheck(variant: Variant, config: Record<string, unknown>, pattern: RegExp, maxTrace: number) {
  const before = explore(legacy, { config: { ...config, variant } });
  assert.deepEqual(
    before.violations.map((v) => v.messages),
    [],
    `${variant}: the old checker already caught it`,
  );
  assert.equal(before.complete, true);
  const r = explore(duel, { config: { ...config, variant } });
  assert.equal(r.violations.length, 1, `${variant} was not caught`);
  assert.ok(
    r.violations[0].messages.some((m) => pattern.test(m)),
    r.violations[0].messages.join('\n'),
  );
  assert.ok(r.violations[0].trace.length <= maxTrace, `trace of ${r.violations[0].trace.length}`);
  return r.violations[0];
}

test('[ActionComplete, ActionDone] dropping an action frame when its child completes (not when the action does) is caught by ActionDone', () => {
  const v = onlyNewCheck('done_without_complete', tiny, /^ActionDone: conjunct "before.status = "Complete"/, 3);
  assert.ok(v.trace.some((t) => (t.action as { type: string }).type === 'run'));
});

test('[DUEL-REACT, DUEL-RUN, DUEL-CHECKPOINT] a run stage that opens a reaction window itself (not through the queue) is caught by the step frame', () => {
  onlyNewCheck('steal_opens_window', tiny, /^Run: conjunct "frame: win unchanged"/, 4);
});

test('[DoCheckpoint, DUEL-REACT, DUEL-CHECKPOINT] serving an open window before the due checkpoint is caught by the due-checkpoint obligation', () => {
  onlyNewCheck(
    'windows_before_checkpoint',
    react,
    /^DUEL-CHECKPOINT: conjunct "(a due checkpoint runs before any other step|priority is given only after the due checkpoint ran)"/,
    6,
  );
});

test('[DoFatal, U-DRAW] a required draw from an empty deck that is skipped instead of losing is caught by the fatal obligation', () => {
  onlyNewCheck('decking_not_fatal', small, /^DoFatal: conjunct "a required draw from an empty deck fires"/, 8);
});

test('[DUEL-REACT] a reaction window that closes after its first ability is caught (every ability must resolve)', () => {
  onlyNewCheck(
    'react_window_closes_early',
    react,
    /^DUEL-REACT: conjunct "resolving removes exactly that one ability/,
    4,
  );
});

test('[DUEL-ACTION] an advance that costs no credit is caught by the cost check at action start', () => {
  onlyNewCheck('free_advance', tiny, /^DUEL-ACTION|^ActionStart: conjunct "cost paid: credits = @ - 1"/, 3);
});

test('[ObjectiveWinners, DoCheckpoint] an engine that forgets token points is caught by the checker’s own point count', () => {
  onlyNewCheck('points_ignore_tokens', tiny, /^DoCheckpoint: conjunct "W # \{\} => after/, 4);
});

test('[EncounterIce, DUEL-ICE] breaking ICE without paying its break cost is caught by the encounter contract', () => {
  const v = onlyNewCheck(
    'free_break',
    { ...PRESETS['ci-ice'] },
    /^EncounterIce: conjunct "break: after = \[before EXCEPT !\.credits = @ - Break\(c\)/,
    5, // install barb, a second corp click, gamble (4 credits are short of the barb's 5, U-BREAK), run, break
  );
  assert.ok(v.trace.some((t) => (t.action as { type: string }).type === 'break'));
});

// Issue 28: the two contracts the checker lacked. Each variant below passes every earlier check
// (the strict checker without PointsCheckpointDue and TurnBeginTriggers, and the invariants) and
// every duel scenario, and is caught only by the new contract, in the preset made to reach it.

const scoreCfg = { ...PRESETS['ci-score'] };
const before28: Ruleset = { ...duel, checkTransition: checkTransitionBefore28 };

/** Every duel scenario, run with `variant` added to its config: the failures (none means they all miss it). */
function scenarioFailures(variant: Variant): string[] {
  return findScenarioFiles([resolve('scenarios/duel')]).flatMap((f) => {
    const loaded = loadScenarioFile(f);
    const sc = loaded.scenario;
    const config = { ...((sc.setup.config ?? {}) as Record<string, unknown>), variant };
    const r = runScenario({ ...loaded, scenario: { ...sc, setup: { ...sc.setup, config } } }, duel);
    return r.ok ? [] : [`${sc.id}: ${r.failure}`];
  });
}

function onlyIssue28Check(variant: Variant, pattern: RegExp, maxTrace: number) {
  const missed = explore(before28, { config: { ...scoreCfg, variant } });
  assert.deepEqual(
    missed.violations.map((v) => v.messages),
    [],
    `${variant}: the checker without the issue-28 contracts already caught it`,
  );
  assert.equal(missed.complete, true);
  assert.deepEqual(scenarioFailures(variant), [], `${variant}: a scenario already catches it`);
  const r = explore(duel, { config: { ...scoreCfg, variant } });
  assert.equal(r.violations.length, 1, `${variant} was not caught`);
  assert.ok(
    r.violations[0].messages.some((m) => pattern.test(m)),
    r.violations[0].messages.join('\n'),
  );
  assert.ok(r.violations[0].trace.length <= maxTrace, `trace of ${r.violations[0].trace.length}`);
  return r.violations[0];
}

test('[PointsCheckpointDue, DUEL-PAID, DoCheckpoint] a score that makes a checkpoint due only when it wins is caught by PointsCheckpointDue (scenarios and earlier checks miss it)', () => {
  const v = onlyIssue28Check(
    'score_checkpoint_if_winning',
    /^PointsCheckpointDue: conjunct "points changed => after.cpDue" failed \(points 3\/0 -> 5\/0\) \[step A2, claim Score\]/,
    7, // install ledger, advance; the runner's turn; advance, advance; score
  );
  assert.deepEqual(v.trace[v.trace.length - 1].action, { type: 'score' });
});

test('[TurnBeginTriggers, TurnFormalBegin5, DUEL-REACT] a "when your turn begins" ability that also fires at the other seat’s turn begin is caught by TurnBeginTriggers (scenarios and earlier checks miss it)', () => {
  const v = onlyIssue28Check(
    'begin_trigger_second_copy',
    /^TurnBeginTriggers: conjunct .*failed \(0: expected undefined, got \{"src":"coffee","who":1\}\) \[step C4, claim TurnFormalBegin5\]/,
    4, // the corp's first turn, then the runner installs two coffees
  );
  const installs = v.trace.filter((t) => (t.action as { card?: string }).card === 'coffee');
  assert.equal(installs.length, 2);
});

test('[PointsCheckpointDue, TurnBeginTriggers] the unbroken engine satisfies both new contracts on every transition of ci-score', () => {
  const r = explore(duel, { config: scoreCfg, validateMenus: true });
  assert.deepEqual(r.violations, []);
  const reached = new Set(r.goals.filter((g) => g.reached).map((g) => g.id));
  assert.ok(reached.has('score_short_of_win') && reached.has('begin_beside_other_abilities'));
});
