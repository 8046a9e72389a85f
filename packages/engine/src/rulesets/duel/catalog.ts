// The duel catalog: the seed's contracts (by their seed names), the profile's own rules, and the
// points the seed leaves open with the default the engine uses.

import type { Catalog } from '../../kernel/index.ts';

export const catalog: Catalog = {
  rules: [
    {
      id: 'TurnFrameValid5',
      summary:
        "A turn frame has one of the two seats as owner, a phase from that owner's sequence, a positive id, Boolean begin/end flags and non-negative begun counts for both seats.",
      group: 'Seed contracts',
    },
    {
      id: 'TurnFormalBegin5',
      summary:
        "The formal begin happens once per frame at its own step: it emits the begin event carrying the frame id, sets the begun flag and adds one to the owner's begun count, nothing else.",
      group: 'Seed contracts',
    },
    {
      id: 'ActionEffectsBegin5',
      summary:
        'An action leaves CostReactions for Effects only once the checkpoint after its cost and the reactions to it have drained.',
      group: 'Seed contracts',
    },
    {
      id: 'ActionNestedReturn5',
      summary:
        'An action waiting on a nested child returns to Effects only on the completion receipt of that exact child id.',
      group: 'Seed contracts',
    },
    {
      id: 'ActionComplete',
      summary:
        'An action becomes Complete only from Effects with all its effects resolved; its caller advances only then.',
      group: 'Seed contracts',
    },
    {
      id: 'ActionDone',
      summary:
        'A finished action frame is dropped, and its caller (the action window, or a pending directed end) goes on, only from status Complete: completing a child, running out of clicks or a pass is no proof of completion.',
      group: 'Seed contracts',
    },
    {
      id: 'PhaseEndOrdinary',
      summary:
        'The action phase ends the ordinary way when its owner has no click left at the action-window step; the ending checkpoint becomes due.',
      group: 'Seed contracts',
    },
    {
      id: 'PhaseEndDirected',
      summary:
        'A directed (terminal) end closes the remaining action opportunities and open windows and makes the ending checkpoint due.',
      group: 'Seed contracts',
    },
    {
      id: 'PhaseEndComplete',
      summary:
        'Either ending enters the discard phase only after its ending checkpoint and reaction window have drained.',
      group: 'Seed contracts',
    },
    {
      id: 'DiscardStep',
      summary:
        'At the discard step the effective maximum hand size is an input: a skipped step changes nothing but the skip flag; otherwise the owner discards exactly the excess, chosen by that seat, with one event when the batch is not empty.',
      group: 'Seed contracts',
    },
    {
      id: 'TurnFormalEnd5',
      summary:
        'The formal end happens once per frame at its own step, after the formal begin, emitting the end event with the frame id.',
      group: 'Seed contracts',
    },
    {
      id: 'TurnHandoff5',
      summary:
        "Handoff needs a formally begun and ended turn whose procedure is complete; it opens the other seat's frame with a fresh id and cleared flags and keeps the begun counts.",
      group: 'Seed contracts',
    },
    {
      id: 'ObjectiveWinners',
      summary:
        'The seats whose score-area objects total 7 or more points are the objective winners (fixed threshold 7).',
      group: 'Seed contracts',
    },
    {
      id: 'DoCheckpoint',
      summary:
        'A ready checkpoint first tests objective winners (plus supplied simultaneous winners) and records the outcome; only with no winner does it retire pending abilities into a reaction window. Two winners at once is a draw.',
      group: 'Seed contracts',
    },
    {
      id: 'DoFatal',
      summary:
        "Three immediate losses, each only at its own boundary: more damage than cards in the runner's hand, a negative runner maximum hand size at the start of a discard step that is not skipped, and the corp's required draw from an empty deck.",
      group: 'Seed contracts',
    },
    {
      id: 'DUEL-SEATS',
      summary:
        "Seat 0 is the corp and owns the first turn frame; seat 1 is the runner. The corp's turn has draw, action and discard phases; the runner's action and discard.",
      group: 'Profile',
    },
    {
      id: 'DUEL-STEPS',
      summary:
        'Each turn runs its steps in order: gain clicks, paid-ability window, formal begin (corp: then the mandatory draw), action phase, discard step, paid-ability window, lose clicks, formal end, handoff.',
      group: 'Profile',
    },
    {
      id: 'DUEL-ACTION',
      summary:
        "Actions start only at the owner's action window while clicks remain (no pass); gaining a credit is always on the menu; each action costs one click plus its credit cost.",
      group: 'Profile',
    },
    {
      id: 'DUEL-PAID',
      summary:
        'Paid-ability windows start with the active seat and close after two passes in a row; the corp scores a fully advanced agenda as a paid ability.',
      group: 'Profile',
    },
    {
      id: 'DUEL-REACT',
      summary:
        'Triggered abilities wait for the next checkpoint, which places them in a reaction window; the active seat resolves its abilities first; every ability in the pool is mandatory.',
      group: 'Profile',
    },
    {
      id: 'DUEL-CHECKPOINT',
      summary:
        'A due checkpoint runs before any other step and before any seat is given priority; every micro-step changes only the state it is declared to change and emits only its own events.',
      group: 'Profile',
    },
    {
      id: 'DUEL-RUN',
      summary:
        'A run is the nested child of its action: fresh id, approach (continue or jack out), success, breach that steals the remote agenda, completion receipt with its id.',
      group: 'Profile',
    },
    {
      id: 'DUEL-ICE',
      summary:
        'ICE installed to protect the remote is met outermost first during a run; at each the runner breaks it by paying its break cost or lets its subroutine fire (wall: end the run; barb: 2 net damage); the run approaches the server only past every ICE.',
      group: 'Profile',
    },
    {
      id: 'PointsCheckpointDue',
      summary:
        "A step that changes any seat's objective points (a score in a paid-ability window, a steal, a token) leaves a checkpoint due at once, so the win test never waits for a later checkpoint; points are counted by the checker from what each score item is.",
      group: 'Profile',
    },
    {
      id: 'TurnBeginTriggers',
      summary:
        'The formal begin queues exactly the "when your turn begins" abilities of the cards the seat whose turn begins has installed, each held by that seat; the other seat\'s begin abilities never fire on it.',
      group: 'Profile',
    },
    {
      id: 'EncounterIce',
      summary:
        'An encounter changes exactly what its choice says: a break pays the break cost and moves the run inward (or to the approach); an end-the-run subroutine ends the run unsuccessful; a damage subroutine queues its damage and moves on.',
      group: 'Profile',
    },
    {
      id: 'DUEL-DMG',
      summary:
        "Net damage trashes that many random cards from the runner's hand; core damage also lowers the runner's maximum hand size by one per point.",
      group: 'Profile',
    },
    {
      id: 'DUEL-CARDS',
      summary:
        'The pool: ledger (agenda 2 points, advance 3), spike (3 net), burn (1 core), stop (terminal), venture (synthetic, 2 points to each seat), toll, bell, wall and barb (ICE), dayoff, coffee, gamble.',
      group: 'Profile',
    },
    {
      id: 'DUEL-VIEW',
      summary:
        'A seat sees its own hand; the other hand, deck order, the face-down remote card and face-down archives stay hidden.',
      group: 'Profile',
    },
    {
      id: 'DUEL-INPUT',
      summary:
        "Input that is not a JSON object is refused as bad_request; any object that is not exactly an element of the current menu (the kernel's menu-membership validation) as illegal; the state is unchanged.",
      group: 'Profile',
    },
    {
      id: 'DUEL-LOG',
      summary:
        'The readable log numbers turns 1, 2, 3 … (frame ids in brackets), prints the standing (points, credits, hand sizes) at every turn end, prints the damage that flatlines the runner, and never names a face-down card.',
      group: 'Profile',
    },
  ],
  uItems: [
    {
      id: 'U-ROLES',
      question: 'Which seat has which role and who owns frame 1?',
      default: 'Seat 0 is the corp (three phases) and owns frame 1; seat 1 is the runner.',
      why: 'The source game gives the first turn to the corp.',
      rules: ['DUEL-SEATS', 'TurnFrameValid5'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-IDS',
      question: 'Do frame ids and child ids share a counter?',
      default: 'Yes: one counter numbers frames, actions and runs, starting at 1 for frame 1.',
      why: "One counter makes every id unique, so no receipt can be confused with another structure's.",
      rules: ['TurnHandoff5', 'ActionNestedReturn5'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-START',
      question: 'Initial begun counts, setup and mulligans?',
      default:
        "Begun counts start at 0 for both seats; opening hands are drawn at setup; no mulligan. Setup runs automatically to the first decision; those steps' events are the log's setup events (header `setup_events`).",
      why: 'The seed defines no setup; a mulligan would add nothing to the contracts.',
      rules: ['TurnFrameValid5', 'DUEL-STEPS'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-STEPS',
      question: 'Which step vocabulary is used?',
      default:
        "The source game's steps, without the recurring-credit refill (no card in the pool has recurring credits).",
      why: 'A refill with nothing to refill is a no-op.',
      rules: ['DUEL-STEPS'],
      source: 'engine',
      owner: 'engine (arbiter duel profile)',
      raised: '2026-11-29',
    },
    {
      id: 'U-PAID',
      question: 'How real are paid-ability windows?',
      default:
        "Real windows with priority passing, but a seat with no usable paid ability passes automatically; only the corp's score is a paid ability.",
      why: 'Asking a seat that can only pass adds states without decisions.',
      rules: ['DUEL-PAID'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-REACT',
      question: 'Order and nesting of reaction windows?',
      default:
        'Active seat first; a seat holding nothing passes; all abilities are mandatory; abilities triggered while a window is open wait for the next checkpoint, which opens a nested window.',
      why: "Follows the source game's reaction-window rules.",
      rules: ['DUEL-REACT'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-RETIRE',
      question: 'What is the "pending-retirement branch" of DoCheckpoint?',
      default: 'Placing the queued pending abilities into a reaction window, done only when no seat wins.',
      why: 'The only reading consistent with the source game, where the win test precedes the reaction window.',
      rules: ['DoCheckpoint'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-SIMUL',
      question: 'What are the supplied simultaneous winners, and how do a fatal loss and a points win combine?',
      default:
        'No card supplies alternative winners (the set is empty); fatal losses end the game at once at their own boundary, so they precede any later checkpoint.',
      why: 'Nothing in the pool wins other than by points; fatal conditions are immediate in the source game.',
      rules: ['DoCheckpoint', 'DoFatal'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-DMG',
      question: 'Is the damage flatline strict?',
      default:
        'Strict: the runner loses when damage exceeds the cards in hand; equal damage empties the hand and the game goes on.',
      why: 'The source game flatlines only when more damage is dealt than cards in hand.',
      rules: ['DoFatal', 'DUEL-DMG'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-SKIP',
      question: 'Order of the skip branch and the negative-limit check?',
      default: 'Skip first: a skipped discard step performs neither the hand-size check nor the negative-limit check.',
      why: 'The seed keeps the branches apart; the source game says a skipped step performs neither.',
      rules: ['DiscardStep', 'DoFatal'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-DRAW',
      question: 'Which draws are "required"?',
      default:
        "Only the corp's mandatory draw at the start of its turn; the click draw is not offered from an empty deck.",
      why: 'An optional draw cannot be forced on an empty deck.',
      rules: ['DoFatal'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-DIRECTED',
      question: 'Does a directed end satisfy a pending child wait?',
      default:
        'No: the directed end is taken only after the terminal action completes, so no child wait is ever pending when it happens.',
      why: 'Completing the action is the only proof of completion the seed accepts.',
      rules: ['PhaseEndDirected', 'ActionComplete'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-EMPTYDISCARD',
      question: 'Is there a discard event when nothing is discarded?',
      default: 'No event.',
      why: 'The seed records the event only for a nonempty batch.',
      rules: ['DiscardStep'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-HANDOFF',
      question: 'Where does the handoff sit relative to the last reaction window?',
      default:
        'After the formal end, its checkpoint and reaction window drain; then handoff opens the next frame; clicks and a paid window come before the next formal begin.',
      why: 'There is never a time between turns, and the handoff needs a complete procedure.',
      rules: ['TurnHandoff5', 'TurnFormalEnd5'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-AFTERWIN',
      question: 'What happens after a winner?',
      default: 'The game stops at once: no further steps, no menus, every input is refused as game_over.',
      why: 'An outcome is final.',
      rules: ['DoCheckpoint', 'DoFatal'],
      source: 'engine',
      owner: "duel seed's designer (reference profile, input revision 2)",
      raised: '2026-11-29',
    },
    {
      id: 'U-BOUND',
      question: 'How do games end without a winner?',
      default: 'After the configured number of turn frames (default 40) the game is a draw by the turn bound.',
      why: 'Bounds exploration and simulation; the seed does not establish termination.',
      rules: ['DUEL-STEPS'],
      source: 'engine',
      owner: 'engine (arbiter duel profile)',
      raised: '2026-11-29',
    },
    {
      id: 'U-SERVER',
      question: 'How are cards installed?',
      default:
        'The remote server holds one face-down agenda; installing another trashes the old one face down. Assets and resources install face up and are active at once (no rez).',
      why: 'The smallest install model that keeps every branch reachable.',
      rules: ['DUEL-CARDS', 'DUEL-RUN'],
      source: 'engine',
      owner: 'engine (arbiter duel profile)',
      raised: '2026-11-29',
    },
    {
      id: 'U-ICE',
      question: "How much of the source game's ICE does the profile need?",
      default:
        'ICE installs face up and active (no rez, no strength, no icebreakers): the runner breaks a piece by paying its break cost (U-BREAK) or lets its one subroutine fire; no jack out while at ICE; any number of ICE protect the one remote, the newest outermost.',
      why: 'The smallest encounter that gives the corp a defence (F-1) and adds the branches break, end the run and damage during a run.',
      rules: ['DUEL-ICE', 'EncounterIce'],
      source: 'engine',
      owner: 'engine (arbiter duel profile)',
      raised: '2026-12-01',
    },
    {
      id: 'U-BREAK',
      question: 'What does breaking a piece of ICE cost the runner (F-1: the balance of heuristic play)?',
      default:
        'Wall 6 credits, barb 5, paid at every encounter (0.2 had wall 4, barb 3). Heuristic against heuristic, default profile, seeds 1-1200: runner wins 67.4% before (95% interval 64.7-70.0), 55.3% after (52.5-58.1); seeds 1-2400 after: 53.4%.',
      why: "The profile has no icebreakers, so the break cost is the whole price of getting past a piece. In the source game ICE is what makes a run into a scoring server expensive; at 4 and 3 a typical two-piece remote (7) cost little more than one turn of the runner's income (about 5.4 credits a turn, measured), and at the start of a runner turn with an agenda installed the runner held 18 credits on average. At about one turn of income per piece (end the run dearer than a subroutine the runner can survive) the runner must save for a run; meanwhile the corp scores twice as often (0.84 agendas a game, was 0.41) and more games last until the runner's deck is spent. The smallest change that reaches 40-60%: one number per ICE, no new card, no rule.",
      rules: ['DUEL-ICE', 'EncounterIce', 'DUEL-CARDS'],
      source: 'engine',
      owner: 'engine (arbiter duel profile)',
      state: 'open',
      raised: '2026-12-01',
      reproduction: 'scenarios/duel/duel-18-break-cost.yaml',
    },
    {
      id: 'U-FORCED',
      question: "Is a mandatory reaction that is its seat's only option still a decision?",
      default:
        'Yes: every ability in a reaction window is resolved by a submission of the seat holding it, even when its menu has one element.',
      why: "The seed's reaction window resolves abilities one at a time with the active seat first; keeping each a decision keeps the order among several abilities a choice and the contracts per resolution checkable; agents answer one-element menus at once.",
      rules: ['DUEL-REACT', 'DUEL-LOG'],
      source: 'engine',
      owner: 'engine (arbiter duel profile)',
      raised: '2026-12-01',
    },
    {
      id: 'U-DONE',
      question: 'Which step hands control back after an action (the seed names only its condition)?',
      default:
        'A separate ActionDone step drops the Complete action frame and returns to the action window, or to a requested directed end.',
      why: 'Makes the seed\'s "complete is the advance condition for its caller" a checkable step of its own.',
      rules: ['ActionDone', 'ActionComplete'],
      source: 'engine',
      owner: 'engine (arbiter duel profile)',
      raised: '2026-12-01',
    },
    {
      id: 'U-PROFILE',
      question: 'Which reference profile does a game use, and how do logs of an earlier one replay?',
      default:
        'Config field `profile` ("0.4" by default, or "0.3") supplies the defaults of every field not given; the ruleset version names the default profile (duel-refprofile-0.4). The package keeps 0.3 as an earlier version (the same engine with profile 0.3 as default), so `arbiter replay` re-executes a duel-refprofile-0.3 log as it was played.',
      why: 'Only the default decks and the heuristics changed from 0.3 to 0.4 (no card, cost or rule), so one engine serves both; a log records its version and its config as given, not the defaults.',
      rules: ['DUEL-CARDS'],
      source: 'engine',
      owner: 'engine (arbiter duel profile)',
      raised: '2026-12-02',
      state: 'open',
      reproduction: 'test/duel/profile.test.ts',
    },
    {
      id: 'U-DECKS',
      question: 'Which default decks make heuristic play look like its source game (issue 28)?',
      default:
        'Profile 0.4: corp 7 ledger, 1 spike, 2 burn, 1 stop, 1 venture, 1 bell, 3 wall, 2 barb (18); runner 3 dayoff, 5 coffee, 11 gamble (19). Heuristic against heuristic, seeds 1-1200 (`arbiter sim duel --games 1200 --seed 1 --agents heuristic,heuristic --threads 1 --json`): runner wins 45.7% (95% interval 42.9-48.5); the corp wins 652 games, 475 of them on points (72.9%); 15.2% of games end on a deck clock (6 corp decked, 176 runner flatlines on an empty deck). 0.3, same command: runner 55.3%, corp points wins 2 of 536, deck clock 75.0%.',
      why: "In 0.3 the corp won on points in 2 of 1,200 games (8 agenda points against a threshold of 7: it needed every ledger) and 75% of games ended on a deck clock (the runner's 12-card deck ran dry and a spike flatlined it, or the corp decked). More agendas give the corp a points race it can win; one more ICE (five, was four) pays for them; a runner deck about as long as the corp's (19 cards, was 12) keeps the runner's clock from ending most games; one spike (was two) leaves the flatline a threat, not the usual end.",
      rules: ['DUEL-CARDS', 'ObjectiveWinners'],
      source: 'engine',
      owner: 'engine (arbiter duel profile)',
      raised: '2026-12-02',
      state: 'open',
      reproduction: 'test/duel/balance.test.ts',
    },
    {
      id: 'U-SPEND',
      question: 'How do the heuristic seats spend their credits?',
      default:
        'Corp: scores, flatlines a runner holding under three cards, keeps up to four ICE, advances, installs an agenda in an empty remote, installs assets, plays burn only with 4 credits or more, else takes a credit. Runner: draws below four cards, runs when it can pay through every ICE, plays a gamble once it holds four cards (0.3: five) and draws up to five (0.3: six).',
      why: "Profile 0.3's heuristics held credits back: at the end of a game the corp held 21.2 credits on average and the runner 32.6 (seeds 1-1200); with 0.4's they hold 1.8 and 12.4 (sim metrics corp_credits_end, runner_credits_end). Credits go into advancing and defending agendas and into runs; the runner keeps enough cards to survive a spike and no more.",
      rules: ['DUEL-CARDS'],
      source: 'engine',
      owner: 'engine (arbiter duel profile)',
      raised: '2026-12-02',
      state: 'open',
      reproduction: 'test/duel/balance.test.ts',
    },
  ],
};
