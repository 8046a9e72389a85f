// The rule catalog of GROUND v0.1 in the project's own words, the underdetermined points with the
// defaults the engine uses (U1–U10 from the seed, U11+ added here), and the findings register.

import type { Catalog, Finding, RuleEntry, UItem } from '../../kernel/index.ts';

const r = (group: string, list: [string, string][]): RuleEntry[] =>
  list.map(([id, summary]) => ({ id, summary, group }));

const rules: RuleEntry[] = [
  ...r('Objects and state', [
    ['GR-O01', 'A game seats 2 to 6 players for exactly 5 rounds with one Scenario card and one Mode card.'],
    [
      'GR-O02',
      'Each player has Stress 0–5, a Freedom token, a DARVO marker, a Focus/Blame token, 2 relation slots, a Solution hand, 5 Action cards, claimed Problems and Protection tokens.',
    ],
    [
      'GR-O03',
      'The table holds the Surface Problem, face-down Problems, Denied tokens, the Solution deck and discard, the Lead and Round markers, and relation tiles.',
    ],
    [
      'GR-O04',
      'A Problem has a required suit (Clarify, Repair, Boundary or Change), a point value, a face, a Denied flag and a claimant.',
    ],
    ['GR-O05', 'Two players share at most one relation, and it is either a Bond or a Rivalry.'],
  ]),
  ...r('Setup', [
    [
      'GR-S01',
      'The Scenario puts its Surface Problem face up and its hidden Problems face down, priorities 1–2 for 2 players, 1–3 for 3–4, 1–4 for 5–6.',
    ],
    [
      'GR-S02',
      'Players start at Stress 2, Freedom READY, DARVO OFF, an unplaced Focus token, two free slots and two dealt Solutions.',
    ],
    ['GR-S03', 'The Lead marker goes to a seeded random player; the Round marker starts at 1.'],
    ['GR-S04', 'The Solution deck is the 24 core cards (6 per suit) shuffled from the seed, less the dealt cards.'],
  ]),
  ...r('Round structure', [
    ['GR-R01', 'A round runs Select, Reveal, Resolve, End in that order.'],
    [
      'GR-R02',
      'At Select every player commits one Action (and its target) face down at the same time; nobody sees another choice before Reveal.',
    ],
    [
      'GR-R03',
      'At Stress 4–5 only ATTACK or GROUND may be selected, unless the READY Freedom token is spent at Select, which allows any Action and leaves the token SPENT.',
    ],
    ['GR-R04', 'Reveal turns all choices face up at once.'],
    [
      'GR-R05',
      'A player who revealed GROUND picks its mode (GR, OU, ND) and target after seeing every revealed Action, before resolution.',
    ],
    [
      'GR-R06',
      'Resolve runs the steps GROUND, Support, active DARVO stages, Investigate, Attack, Solve, in that order.',
    ],
    ['GR-R07', 'Inside one step, players resolve from the Lead player onwards, clockwise.'],
    [
      'GR-R08',
      'At End Stress is clamped, players at Stress 5 with DARVO OFF set it to DENY, the Lead passes clockwise and the Round marker advances.',
    ],
    ['GR-R09', 'The game ends after the End of round 5 and is scored.'],
  ]),
  ...r('Stress and Freedom', [
    ['GR-F01', 'Stress is always a whole number between 0 and 5.'],
    ['GR-F02', 'At Stress 0–3 every Action may be selected.'],
    ['GR-F03', 'Freedom is READY or SPENT; it can be spent only when READY and only at Select.'],
    [
      'GR-F04',
      "GROUND—GR readies its own player's Freedom; Support through an existing Bond readies the target's Freedom.",
    ],
  ]),
  ...r('Actions', [
    [
      'GR-A01',
      'INVESTIGATE reveals the chosen hidden, non-Denied Problem and then draws a Solution; with none hidden it only draws.',
    ],
    [
      'GR-A02',
      'SOLVE discards a matching Solution and claims the face-up, non-Denied target; if an earlier resolver already claimed it this round, nothing happens and the card is kept.',
    ],
    ['GR-A03', 'SUPPORT with no relation: the target loses 1 Stress, and a Bond may form (GR-L02).'],
    [
      'GR-A04',
      'SUPPORT through a Bond: the target loses 2 Stress, readies Freedom, and an active DARVO sequence of the target is cancelled and ended.',
    ],
    [
      'GR-A05',
      'SUPPORT through a Rivalry: the target loses 1 Stress and chooses to flip the relation to a Bond or break it.',
    ],
    ['GR-A06', 'ATTACK with no relation: the target gains 1 Stress and a Rivalry forms if both have a free slot.'],
    ['GR-A07', 'ATTACK through a Bond: the target gains 2 Stress and the Bond flips to a Rivalry.'],
    ['GR-A08', 'ATTACK through a Rivalry: the target gains 2 Stress and the relation breaks.'],
    ['GR-A09', 'Protection or GROUND—OU can cancel an Attack; a cancelled Attack changes no Stress and no relation.'],
    [
      'GR-A10',
      "GROUND—GR: own Stress −2 and Freedom READY; an active DARVO sequence still resolves this round's stage, then ends.",
    ],
    [
      'GR-A11',
      'GROUND—OU does one of: restore a Denied Problem face up, cancel one Attack on its player this round, or protect a face-up Problem from Deny this round.',
    ],
    [
      'GR-A12',
      'GROUND—ND does one of: remove a Blame token from its player, break a relation of its player, or reject a Reverse aimed at its player this round.',
    ],
    [
      'GR-A13',
      'SUPPORT and ATTACK target another player; INVESTIGATE a hidden Problem; SOLVE a face-up, non-Denied Problem.',
    ],
  ]),
  ...r('Relations', [
    [
      'GR-L01',
      'Each player has 2 relation slots and a relation takes one at each end; without free slots the Support/Attack effect still happens but no relation forms.',
    ],
    ['GR-L02', 'A Support with no relation makes a Bond only when both have a free slot and the target accepts.'],
    ['GR-L03', 'An Attack with no relation makes a Rivalry without consent when both have a free slot.'],
    [
      'GR-L04',
      "Relations flip or break: Attack through Bond flips it, Support through Rivalry flips or breaks by the target's choice, Attack through Rivalry breaks it, GROUND—ND breaks one.",
    ],
    [
      'GR-L05',
      "Only a Bond that existed before this round's Support step cancels DARVO; a Bond formed this round does not.",
    ],
  ]),
  ...r('DARVO sequence', [
    [
      'GR-D01',
      "At End a player at Stress 5 with marker OFF sets it to DENY; the DENY stage resolves in the next round's DARVO step.",
    ],
    [
      'GR-D02',
      'Once triggered the sequence moves DENY, ATTACK, REVERSE, one stage per round, whatever the later Stress, unless ended early.',
    ],
    [
      'GR-D03',
      'DENY: the owner turns a face-up, unclaimed, unprotected Problem face down with a Denied token; only GROUND—OU brings it back.',
    ],
    [
      'GR-D04',
      'ATTACK stage: the owner makes an extra Attack on another player under the normal rules, then places the Focus token by that target even if the Attack was cancelled; that target is the REVERSE target.',
    ],
    [
      'GR-D05',
      'REVERSE: unless the Focus holder rejects it with GROUND—ND, the Focus flips to Blame in front of them, they gain 1 Stress and the owner gains a Protection token; then the owner loses 2 Stress and the sequence ends.',
    ],
    [
      'GR-D06',
      'A sequence ends early by a Support through an older Bond (cancelling the stage) or by GROUND—GR (after the stage); a placed Focus token is then removed.',
    ],
    [
      'GR-D07',
      'A player whose marker is not OFF cannot trigger again; once it is OFF again a later End can trigger it.',
    ],
  ]),
  ...r('Problems and solving', [
    ['GR-P01', 'Only face-up, non-Denied Problems can be targeted by SOLVE or claimed.'],
    ['GR-P02', 'Hidden Problems are revealed only by INVESTIGATE; Denied ones only by GROUND—OU.'],
    ['GR-P03', 'A claimed Problem scores its value for its claimant and can be claimed only once.'],
    ['GR-P04', 'Several SOLVEs on one Problem in a round resolve in Lead order; the losers keep their Solution.'],
    [
      'GR-P05',
      'SOLVE is offered only on a face-up, non-Denied, unclaimed Problem whose suit the seat holds; a Problem claimed in an earlier round is no target.',
    ],
  ]),
  ...r('Protection, Focus and Blame', [
    [
      'GR-T01',
      'A Protection token cancels the next Attack on its holder (including a DARVO extra Attack) and is then spent.',
    ],
    ['GR-T02', 'A Blame token in front of a player costs them 1 personal point and stays until GROUND—ND removes it.'],
    [
      'GR-T03',
      'Each player owns one Focus/Blame token: unplaced, placed Focus-side during the own DARVO, or flipped to Blame before the REVERSE target.',
    ],
  ]),
  ...r('Game end and scoring', [
    [
      'GR-E01',
      'After round 5 the claimed values are summed; the Scenario threshold (5 / 7 / 9 for 2 / 3–4 / 5–6 players) decides group success.',
    ],
    [
      'GR-E02',
      'SHARED GROUND: one shared score, success iff the total reaches the threshold; mastery = successes − Blame tokens in play − Denied Problems.',
    ],
    [
      'GR-E03',
      'COMMON PROBLEM, PERSONAL EDGE: if the group meets the threshold, each scores claimed value − Blame held; highest wins; ties: lower Stress, more Bonds, then shared.',
    ],
    [
      'GR-E04',
      "BONDED COALITIONS: if the group meets the threshold, Bond networks (Rivalries do not connect) score their members' sum; highest wins; ties: lower combined Stress, fewer Blame, then shared.",
    ],
  ]),
];

// U1–U10 come from the seed's register: owner ground-game, raised 2026-07-31, ruled by
// GROUND-WP-0002 T05 on 2026-08-03 (every default confirmed). Applying a ruling means recording it
// and lifting the provisional flag from the scenarios that stood for the default; both are done,
// so they are 'applied'. U11 onwards are the engine's own reading of points the seed leaves open:
// raised to ground-game, 'open' until it rules. Every item names the scenario that reproduces its
// default; `arbiter register ground` and `arbiter coverage` report age and reproduction debt.
const SEED_RULING =
  'GROUND-WP-0002 T05 (2026-08-03): default confirmed; recorded and provisional flags lifted 2026-12-01';
const seedU = (
  id: string,
  rulesIds: string[],
  question: string,
  def: string,
  why: string,
  reproduction: string,
): UItem => ({
  id,
  question,
  default: def,
  why,
  rules: rulesIds,
  source: 'seed',
  state: 'applied',
  owner: 'ground-game',
  raised: '2026-07-31',
  reproduction,
  ruling: SEED_RULING,
});
const engineU = (
  id: string,
  rulesIds: string[],
  question: string,
  def: string,
  why: string,
  reproduction: string,
  raised = '2026-11-29',
): UItem => ({
  id,
  question,
  default: def,
  why,
  rules: rulesIds,
  source: 'engine',
  state: 'open',
  owner: 'ground-game',
  raised,
  reproduction,
});

const uItems: UItem[] = [
  seedU(
    'U1',
    ['GR-L02'],
    'When does the target of a no-relation Support accept a Bond?',
    "A decision of the target during that Support's resolution, with every revealed Action known.",
    'Ruled by ground-game (GROUND-WP-0002 T05).',
    'scenarios/ground/gr-a03-support-bond-accept.yaml',
  ),
  seedU(
    'U2',
    ['GR-F01', 'GR-D01'],
    'Is Stress clamped at every change or only at End?',
    'At every change; a spike to 5 that drops again before End does not trigger DARVO.',
    'Ruled; mats cap physically at 0–5.',
    'scenarios/ground/gr-d01-darvo-trigger.yaml',
  ),
  seedU(
    'U3',
    ['GR-D03'],
    'What if DENY has no legal target?',
    'The stage does nothing and the sequence still advances.',
    'Ruled.',
    'scenarios/ground/u3-deny-without-target.yaml',
  ),
  seedU(
    'U4',
    ['GR-A01'],
    'What happens when the Solution deck runs out?',
    'Shuffle the discard (seeded) into a new deck; with both empty the draw is skipped.',
    'Ruled.',
    'scenarios/ground/u4-deck-exhaustion.yaml',
  ),
  seedU(
    'U5',
    ['GR-D05', 'GR-A12'],
    'What does a rejected REVERSE still do?',
    'No Blame, no +1 Stress, no Protection; the owner still loses 2 Stress, the sequence ends and the Focus returns unflipped.',
    'Ruled.',
    'scenarios/ground/u5-rejected-reverse.yaml',
  ),
  seedU(
    'U6',
    ['GR-A04', 'GR-R06'],
    "Does a Bond Support in the same round cancel that round's DARVO stage?",
    'Yes: Support (step 2) resolves before DARVO stages (step 3).',
    'Ruled as the intended reading.',
    'scenarios/ground/u6-bond-support-cancels-darvo-stage.yaml',
  ),
  seedU(
    'U7',
    ['GR-D04', 'GR-D05'],
    'Can the Focus target be eliminated?',
    'No: there is no player elimination, so no rule is needed.',
    'Ruled.',
    'scenarios/ground/gr-d02-full-sequence.yaml',
  ),
  seedU(
    'U8',
    ['GR-A09', 'GR-T01', 'GR-A11'],
    'Which cancels first when Protection and GROUND—OU could both cancel one Attack?',
    'GROUND—OU (chosen at step 1) first; Protection is spent only if it actually cancels.',
    'Ruled.',
    'scenarios/ground/u8-protection-and-ground-ou.yaml',
  ),
  seedU(
    'U9',
    ['GR-R08', 'GR-D01'],
    'What if two players reach Stress 5 at the same End?',
    'Both trigger; their stages resolve in Lead order in later rounds.',
    'Ruled.',
    'scenarios/ground/u9-two-triggers-same-end.yaml',
  ),
  seedU(
    'U10',
    ['GR-O02'],
    'Is there a hand limit?',
    'No hand limit.',
    'Ruled.',
    'scenarios/ground/u10-no-hand-limit.yaml',
  ),
  engineU(
    'U11',
    ['GR-E02'],
    'What are the "successes" of the SHARED GROUND mastery rating?',
    'The number of Problems claimed in the game.',
    'A single game has one group result; counting claims makes the rating vary with play and stay comparable to the Blame/Denied penalties.',
    'scenarios/ground/u11-mastery-rating.yaml',
  ),
  engineU(
    'U12',
    ['GR-E03', 'GR-E04'],
    'How are "more Bonds" and "shared victory" computed, and who wins when the group misses the threshold?',
    'More Bonds = Bonds the player is part of at game end; shared victory = every seat (or coalition) still tied wins; a missed threshold in PERSONAL EDGE or COALITIONS means nobody wins.',
    'The text says the group "must" meet the threshold and lists tiebreaks without a last resort; sharing the win is the least arbitrary end.',
    'scenarios/ground/u12-edge-tiebreak-bonds.yaml',
  ),
  engineU(
    'U13',
    ['GR-R07', 'GR-R08'],
    'What is "clockwise" for numbered seats?',
    'The next seat number, wrapping from n−1 to 0; the Lead passes to seat lead+1.',
    'Seats are numbered around the table; any fixed direction is equivalent.',
    'scenarios/ground/gr-r07-lead-order.yaml',
  ),
  engineU(
    'U14',
    ['GR-A01', 'GR-A13'],
    "When is INVESTIGATE's Problem chosen, and what if it is no longer hidden or none is hidden?",
    'It is named at Select; if an earlier investigator revealed it this round, only the draw happens; with no hidden Problem it is selected without a target and only draws; it is not offered when nothing could be drawn either.',
    'GR-R02 puts targets at Select; GR-A01 says "draw only" when none remain; GR-P05 asks the menu to offer only what can act.',
    'scenarios/ground/u14-investigate-without-hidden.yaml',
  ),
  engineU(
    'U15',
    ['GR-R05', 'GR-R02'],
    "Do GROUND players see each other's mode choices?",
    'No: GROUND choices are simultaneous and hidden until resolution begins.',
    'Mirrors the commit/reveal of Select; choosing in Lead order would give later GROUND players information the rules do not grant.',
    'scenarios/ground/u15-ground-choices-hidden.yaml',
  ),
  engineU(
    'U16',
    ['GR-A11', 'GR-A09'],
    "Which Attack does GROUND—OU cancel, given the DARVO extra Attack's target is chosen later?",
    "OU names an attacker (any other seat, U23); it cancels that seat's first Attack on this player this round, a revealed ATTACK or a DARVO extra Attack alike, and does nothing if that seat makes none.",
    'The choice is made at Reveal, before the DARVO target is known; naming the attacker is the only handle available then.',
    'scenarios/ground/u16-ou-cancels-darvo-extra-attack.yaml',
  ),
  engineU(
    'U17',
    ['GR-P01', 'GR-D03'],
    'What happens to a SOLVE whose Problem was Denied earlier the same round?',
    'Nothing: the Problem is not claimed and the Solution stays in hand.',
    'GR-P01 forbids claiming a Denied Problem; keeping the card matches the lost race of GR-A02.',
    'scenarios/ground/u17-solve-after-deny.yaml',
  ),
  engineU(
    'U18',
    ['GR-R03', 'GR-F03'],
    'May Freedom be spent when the stress gate does not apply, or for ATTACK/GROUND?',
    'No: Freedom is spent only to select a gated Action (INVESTIGATE, SOLVE, SUPPORT at Stress 4–5); the spend takes effect at Reveal.',
    'Spending otherwise has no effect (GR-P05 spirit), and spending before Reveal would betray the hidden choice.',
    'scenarios/ground/u18-freedom-only-for-gate.yaml',
  ),
  engineU(
    'U19',
    ['GR-L05', 'GR-A04'],
    'Does Support through a Bond formed earlier this round still give −2 Stress and Freedom?',
    'Yes, it is a Support through a Bond for Stress and Freedom, but it does not cancel DARVO.',
    'GR-L05 withholds only the DARVO regulation.',
    'scenarios/ground/gr-l05-new-bond-does-not-regulate.yaml',
  ),
  engineU(
    'U20',
    ['GR-D03', 'GR-D04', 'GR-R05'],
    'Must a player be asked when a decision has exactly one option?',
    "No: a DENY target or DARVO Attack target with a single legal option is taken automatically (its event says auto); GROUND's mode is always asked (GR, OU and ND are always on the menu, U23); Bond acceptance and flip-or-break are always asked.",
    'A forced choice carries no information; the two relation choices always have two options.',
    'scenarios/ground/gr-a10-ground-gr-ends-darvo.yaml',
  ),
  engineU(
    'U21',
    ['GR-T03', 'GR-D04', 'GR-D05'],
    "What if a new sequence reaches ATTACK while the owner's token still lies as Blame elsewhere?",
    'The Blame stays where it is; the ATTACK stage only remembers its target, and REVERSE gives +1 Stress and the Protection but places no new Blame.',
    'GR-T02 keeps a Blame until GROUND—ND removes it, and each player owns one token (GR-T03).',
    'scenarios/ground/u21-token-lies-as-blame.yaml',
  ),
  engineU(
    'U22',
    ['GR-O02', 'GR-R02'],
    'What is hidden from other players?',
    "Solution hands (others see only the count), unrevealed choices, and everything about Problems never face up (they lie in a seeded random order and show only their slot); a Denied Problem stays known. Public: who each active sequence's REVERSE will target (reverseTarget in every view), since the ATTACK stage that chose it was made in the open — also in the U21 case, where the Focus token does not move.",
    'GR-P05\'s ruling says the player "always knows their hand"; Problems once seen cannot be unseen.',
    'scenarios/ground/u22-hidden-information.yaml',
  ),
  engineU(
    'U23',
    ['GR-R05', 'GR-A11', 'GR-A12'],
    'What may GROUND—OU and GROUND—ND name when nothing they could act on is coming?',
    "Every mode is always on the menu. Options that act on something already on the table name such a thing (restore: a Denied Problem; remove Blame: a Blame token in front of the player; break: one of the player's relations). The watching options are offered against every candidate, whether or not it comes: OU cancel names any other seat, OU protect any face-up unclaimed Problem, ND reject any other seat; if nothing comes they do nothing.",
    'GR-R05 lets the player choose GR, OU or ND; filtering modes by effect forced GROUND—GR (and with GR-A10 the end of a DARVO sequence) where the seed allows keeping it, and a menu that lists only threats that will come tells the player what it cannot know (U22). Consequence: a GROUND player can always keep an active DARVO sequence by choosing OU or ND.',
    'scenarios/ground/gr-r05-darvo-keeps-sequence.yaml',
    '2026-12-01',
  ),
];

const findings: Finding[] = [
  {
    id: 'F11',
    kind: 'inert',
    state: 'applied',
    reproduction: 'scenarios/ground/gr-p05-solve-legality.yaml',
    role: 'counterexample',
    raised: '2026-08-02',
    owner: 'clay-borg',
    summary:
      'SOLVE was offered where it could not act (face-down Problem, or no matching suit in hand); ruled into GR-P05, which the menu now enforces.',
  },
  {
    id: 'F12',
    kind: 'degenerate',
    state: 'note',
    reproduction: null,
    role: null,
    raised: '2026-08-01',
    owner: 'clay-borg',
    summary:
      'The seed files it as GR-A13 "wasted SOLVE"; the text is GR-A02 (see F15). A SOLVE on a Problem claimed earlier the same round is wasted (GR-A02); the engine keeps the card and emits solve_lost. scenarios/ground/gr-p04-solve-race.yaml now isolates the line and simulation counts it (about 3.7 per 4-player game under purposeful play); the state stays note until the owner re-files it.',
  },
  {
    id: 'F13',
    kind: 'inconsistent',
    state: 'withdrawn',
    reproduction: 'scenarios/ground/gr-e01-threshold-reachable-2p.yaml',
    role: 'counterexample',
    raised: '2026-08-01',
    owner: 'clay-borg',
    summary:
      'Thresholds 5/7/9 against Problems in play: withdrawn after measuring 6/9/12 in play; the sample edition is built to those totals and the 2-player threshold is shown reachable.',
  },
  {
    id: 'F14',
    kind: 'unplayed',
    state: 'note',
    reproduction: null,
    role: null,
    raised: '2026-08-01',
    owner: 'clay-borg',
    summary:
      'PERSONAL EDGE and BONDED COALITIONS had never been played to the end; the engine plays them to the end in simulation (figures in rules.md).',
  },
  {
    id: 'F15',
    kind: 'mis-citation',
    state: 'open',
    reproduction: 'scenarios/ground/gr-p04-solve-race.yaml',
    role: 'counterexample',
    raised: '2026-12-01',
    owner: 'ground-game',
    summary:
      'Against the seed, not the engine: the seed\'s register entry F12 calls the wasted SOLVE on an already-claimed Problem a "GR-A13" line, but that text is GR-A02 (with GR-P04); GR-A13 only says what each Action targets. The engine cites GR-A02/GR-P04 (event solve_lost) and keeps F12 as the seed wrote it; ground-game should correct the citation.',
  },
];

export const catalog: Catalog = { rules, uItems, findings };
