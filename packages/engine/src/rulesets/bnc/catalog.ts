// The bnc-1.1 rule catalog: every rule the engine enforces, with a stable id, in the project's
// own words, and the underdetermined points (U-items) with the engine's default and why.
// Coverage, `arbiter rules bnc` and docs/rules/bnc.md are all generated from this list.

import type { Catalog, RuleEntry, UItem } from '../../kernel/index.ts';
import { BEATS } from './beats.ts';

const M = 'Match';
const W = 'Stage Warden';
const E = 'Escape, end and placement';
const A = 'Actions and the menu';
const S = 'Talk, offers, alliances and reputation';
const G = 'Guilds and vaults';
const V = 'Views';
const B = 'Beats';

const rules: RuleEntry[] = [
  { id: 'BNC-M01', group: M, summary: 'Four contestants (seats 0–3) start in Intake Yard with 10 health each.' },
  {
    id: 'BNC-M02',
    group: M,
    summary: 'Six zones form a spine from Intake Yard (0) to Exit Vault (5); neighbouring zones are joined both ways.',
  },
  {
    id: 'BNC-M03',
    group: M,
    summary: 'One to three hidden shortcuts are drawn from the seed; each joins two zones that are not neighbours.',
  },
  {
    id: 'BNC-M04',
    group: M,
    summary: 'A hidden shortcut is shown to, and usable by, only the contestants who have discovered it.',
  },
  {
    id: 'BNC-M05',
    group: M,
    summary: 'Three access fragments and one survey chart are seeded in the four middle zones.',
  },
  {
    id: 'BNC-M06',
    group: M,
    summary:
      'The match lasts 45 completed turns; each turn every active contestant submits exactly one action, all at once.',
  },
  { id: 'BNC-M07', group: M, summary: 'A contestant reduced to 0 health is eliminated for good and never acts again.' },
  { id: 'BNC-W01', group: W, summary: 'The Stage Warden starts at Exit Vault with 20 health.' },
  {
    id: 'BNC-W02',
    group: W,
    summary: 'Each turn the Warden strikes at the lowest-numbered active contestant in its zone.',
  },
  { id: 'BNC-W03', group: W, summary: 'A landed Warden strike deals 1–3 damage drawn from the seed.' },
  { id: 'BNC-W04', group: W, summary: 'The Warden acts after the clock advances and before the escape check.' },
  {
    id: 'BNC-E01',
    group: E,
    summary: 'A living contestant at Exit Vault holding all three fragments escapes at the escape check.',
  },
  {
    id: 'BNC-E02',
    group: E,
    summary:
      "A guild member at Exit Vault may escape when its guild vault holds all three fragments; this opens the Exit once for one member, spends the guild's exit claim and leaves the fragments in the vault.",
  },
  {
    id: 'BNC-E03',
    group: E,
    summary:
      'The match ends at collapse (after the last turn) or as soon as every contestant has escaped or been eliminated.',
  },
  {
    id: 'BNC-E04',
    group: E,
    summary:
      'Placement: earlier escapes first, then surviving non-escapees tied, then eliminated contestants, later eliminations ahead of earlier.',
  },
  {
    id: 'BNC-A01',
    group: A,
    summary:
      'legal_actions is the authoritative menu: every listed action is accepted as is, and input not allowed now is refused as illegal with nothing changed.',
  },
  { id: 'BNC-A02', group: A, summary: 'wait is always on the menu.' },
  {
    id: 'BNC-A03',
    group: A,
    summary: 'move goes over one edge the contestant can see: a spine edge or a shortcut it discovered.',
  },
  { id: 'BNC-A04', group: A, summary: "pickup takes an item lying in the contestant's own zone." },
  { id: 'BNC-A05', group: A, summary: 'use_chart is on the menu exactly while the contestant holds the survey chart.' },
  { id: 'BNC-A06', group: A, summary: "attack is open only while the Warden shares the contestant's zone." },
  {
    id: 'BNC-A07',
    group: A,
    summary:
      'Every action has a JSON Schema generated from the definition the engine validates with; input failing it is refused as bad_request naming the failing path, with nothing changed.',
  },
  { id: 'BNC-S01', group: S, summary: 'say speaks to every contestant in the zone; at most 240 Unicode code points.' },
  {
    id: 'BNC-S02',
    group: S,
    summary: 'whisper speaks privately to one other active contestant; at most 240 Unicode code points.',
  },
  {
    id: 'BNC-S03',
    group: S,
    summary: 'An offer names at most five items on each side and stays open for at most 15 turns.',
  },
  {
    id: 'BNC-S04',
    group: S,
    summary: 'The parties to an offer may answer it with accept_offer or reject_offer; acceptance swaps the items.',
  },
  {
    id: 'BNC-S05',
    group: S,
    summary:
      'propose_alliance proposes a two-party pact of at most 30 turns, answered by accept_alliance or reject_alliance.',
  },
  { id: 'BNC-S06', group: S, summary: 'Either member of a pact may end it with break_alliance.' },
  {
    id: 'BNC-S07',
    group: S,
    summary: 'A pact honoured to the end of its term gives both members one reputation point.',
  },
  { id: 'BNC-S08', group: S, summary: 'Breaking a pact (a betrayal) costs the breaker one reputation point.' },
  {
    id: 'BNC-G01',
    group: G,
    summary:
      'A contestant outside any guild may found one at its current zone (its home), with a term of at most 30 turns.',
  },
  {
    id: 'BNC-G02',
    group: G,
    summary:
      'A member may invite another active contestant; only an unaligned one can accept (U25). The invitation is private to inviter and invitee and lasts 15 turns.',
  },
  { id: 'BNC-G03', group: G, summary: 'The invited contestant answers with accept_guild (joining) or reject_guild.' },
  { id: 'BNC-G04', group: G, summary: 'A member may leave_guild; when the last member leaves the guild dissolves.' },
  {
    id: 'BNC-G05',
    group: G,
    summary: 'At the home zone a member may deposit a held item into the vault or withdraw a vaulted item.',
  },
  {
    id: 'BNC-G06',
    group: G,
    summary: 'A guild that dissolves or reaches its term drops every vaulted item at its home zone.',
  },
  {
    id: 'BNC-G07',
    group: G,
    summary: 'A guild that reaches its term with two or more members gives each member one reputation point.',
  },
  {
    id: 'BNC-G08',
    group: G,
    summary:
      'Leaving or escaping after withdrawing more items than one deposited is a defection and costs one reputation point.',
  },
  { id: 'BNC-G09', group: G, summary: 'There is no deck, no rigging and no diary delay in bnc-1.1.' },
  {
    id: 'BNC-V01',
    group: V,
    summary:
      'A contestant sees its zone, its items, public speech it heard, its own whispers, offers, pacts and invitations, and only the shortcuts it discovered.',
  },
  { id: 'BNC-V02', group: V, summary: 'The spectator view shows the whole match.' },
  {
    id: 'BNC-V03',
    group: V,
    summary:
      "No private value of one contestant (whispers, unheard speech, undiscovered shortcuts, others' offers, pacts, invitations, guilds) appears in another contestant's view.",
  },
  ...BEATS.map((b) => ({ id: b.id, group: B, summary: `Beat ${b.beat}: ${b.definition}.` })),
];

// Who rules on each item: the owner of the published bnc-1.1 page (the seed) decides the rules of the
// match; the engine decides what only concerns running it (refused input, the variant label).
const RULES_OWNER = 'bnc-1.1 rules owner (Episode 2 public ruleset)';
const ENGINE_OWNED = new Set(['BNC-U11', 'BNC-U24']);
// raise dates from the repository history: the first commit naming each item
const RAISED: Record<string, string> = {
  'BNC-U25': '2026-12-01',
  'BNC-U26': '2026-12-01',
  'BNC-U27': '2026-12-01',
};

const u = (id: string, question: string, def: string, why: string, rules: string[]): UItem => ({
  id,
  question,
  default: def,
  why,
  rules,
  source: 'engine',
  state: 'default',
  owner: ENGINE_OWNED.has(id) ? 'engine (arbiter match harness)' : RULES_OWNER,
  raised: RAISED[id] ?? '2026-11-29',
});

const uItems: UItem[] = [
  u(
    'BNC-U01',
    'What are the four middle zones called?',
    'Sorting Floor, Pump Hall, Signal Gallery, Cold Store (zones 1–4).',
    'The seed names only the ends; stable names make logs and views readable.',
    ['BNC-M02'],
  ),
  u(
    'BNC-U02',
    'Which zones can a hidden shortcut join, and how many are there?',
    '1 + a uniform draw of 0–2 shortcuts; each joins a uniformly drawn pair of zones two or more steps apart, never Intake Yard to Exit Vault directly; shortcuts are two-way.',
    'A start-to-exit shortcut would make the spine pointless; two-way edges match the spine.',
    ['BNC-M03'],
  ),
  u(
    'BNC-U03',
    'How is a hidden shortcut discovered?',
    'Waiting in a zone discovers every shortcut with an end there; using the survey chart discovers them all. Discovery is personal.',
    'The seed lists no search action; waiting is the only action with no other effect, so it doubles as searching.',
    ['BNC-M04', 'BNC-A02'],
  ),
  u(
    'BNC-U04',
    'What does the survey chart do?',
    "Using it reveals every shortcut to its holder; it is not consumed and can change hands, so it may be read by several contestants. It stays on the menu while held, as the seed's menu enumerates use of a held chart; a reading that teaches nothing has no effect beyond a chart_used event.",
    'A chart that reveals the map is the natural reading; keeping it makes it tradeable, which gives offers something to trade.',
    ['BNC-A05', 'BNC-B06'],
  ),
  u(
    'BNC-U05',
    'How are the four items laid out?',
    'The three fragments and the chart are shuffled onto the four middle zones, one item per zone.',
    'Four items, four middle zones: one each spreads the search along the spine.',
    ['BNC-M05'],
  ),
  u(
    'BNC-U06',
    "What is the Warden's hit chance?",
    'A strike lands on 2 of 3 seeded draws.',
    '"On a landed strike" implies strikes can miss; two in three keeps the Exit dangerous.',
    ['BNC-W03'],
  ),
  u(
    'BNC-U07',
    "What does a contestant's attack do to the Warden?",
    'It always lands and deals 1–3 seeded damage.',
    "Symmetric with the Warden's damage; the seed gives no contestant hit chance.",
    ['BNC-A06', 'BNC-B09'],
  ),
  u(
    'BNC-U08',
    'What happens when the Warden falls?',
    'At 0 health it is down for the rest of the match: it no longer strikes and cannot be attacked. The escape rule is unchanged.',
    'The seed makes the fragments the key to the Exit; the Warden only guards it.',
    ['BNC-W02'],
  ),
  u(
    'BNC-U09',
    'Does the Warden move?',
    'No; it stays at Exit Vault.',
    'The seed only says where it begins; a guard at the Exit is the simplest reading.',
    ['BNC-W01'],
  ),
  u(
    'BNC-U10',
    'In what order do the simultaneous actions of a turn resolve?',
    'Ascending seat order, each against the state the previous ones left; an action no longer allowed then fizzles (no effect, a fizzled event).',
    "Deterministic and easy to explain; it matches the Warden's lowest-id rule.",
    ['BNC-M06'],
  ),
  u(
    'BNC-U11',
    'What becomes of an invalid submission or a timeout?',
    'The engine refuses invalid input with a typed reason and the seat stays pending; the match harness (subprocess agent) then submits the first menu action, wait, and records the failure.',
    'The engine never guesses; the fallback is the least consequential action.',
    ['BNC-A01', 'BNC-A02'],
  ),
  u(
    'BNC-U12',
    'What does "silence" measure?',
    'Five completed turns in a row with no say or whisper by anyone.',
    "Talk is the show's material; a run of turns without it is worth marking.",
    ['BNC-B12'],
  ),
  u(
    'BNC-U13',
    'How are items identified in offers and vaults?',
    'By fixed ids F1, F2, F3 (fragments) and chart.',
    'Items are unique, so a fixed id names each one exactly.',
    ['BNC-S03', 'BNC-G05'],
  ),
  u(
    'BNC-U14',
    'What are the finer terms of an offer?',
    'The offerer must hold every item it gives and not hold any it asks for; at least one item in all; at most three open offers per contestant; accepting needs both parties in one zone holding the items; the offerer may withdraw with reject_offer.',
    'Items are physical and change hands in person; the cap keeps state bounded.',
    ['BNC-S03', 'BNC-S04'],
  ),
  u(
    'BNC-U15',
    'What are the finer terms of an alliance?',
    'A proposal stays open 15 turns; one pact per pair at a time; a pact has no effect on play beyond reputation.',
    'The seed gives pacts only a reputation consequence; proposals lapse like invitations.',
    ['BNC-S05', 'BNC-S06'],
  ),
  u(
    'BNC-U16',
    "What happens to a contestant's things when it leaves the match?",
    'Escape by fragments spends the three fragments (they leave play); any other held item drops in the zone. Open offers, proposals and invitations to it lapse; its pacts end with no reputation change; it leaves its guild (defection judged on escape only).',
    'The seed contrasts the vault route, which does not consume fragments, with holding them, which therefore does.',
    ['BNC-E01', 'BNC-M07', 'BNC-G08'],
  ),
  u(
    'BNC-U17',
    'When do terms end?',
    'A term of k turns set during turn t ends when the clock reaches t + k, after all actions and before the Warden acts.',
    'Terms count completed turns, like the match clock.',
    ['BNC-S03', 'BNC-G06', 'BNC-G07'],
  ),
  u(
    'BNC-U18',
    'How are simultaneous escapes or eliminations placed?',
    'Contestants escaping (or eliminated) on the same turn share a place.',
    'Nothing in the seed separates them.',
    ['BNC-E04'],
  ),
  u(
    'BNC-U19',
    'What is public?',
    "Everyone's status, escape/elimination turn and reputation; positions and health only of contestants in your zone; the Warden's health only in its zone; held items, pacts and guild membership are private to those involved; an invitation only to its inviter and invitee; a whisper tells its recipient who spoke and what, not from where.",
    'The seed makes views zone-local; reputation is meaningless unless others can see it.',
    ['BNC-V01'],
  ),
  u(
    'BNC-U21',
    'Must the parties of a whisper, offer, proposal or invitation share a zone?',
    'No: all four reach an active contestant anywhere; only accepting an offer (the hand-over) needs one zone.',
    'The seed restricts say to the zone but sets no place for the private channels; items still change hands in person.',
    ['BNC-S02', 'BNC-S03', 'BNC-S05', 'BNC-G02'],
  ),
  u(
    'BNC-U20',
    'Where does the vault route open, and for whom when several members qualify?',
    'For a member standing at Exit Vault at the escape check (the vault itself stays at home); when several stand there, the lowest-numbered escapes and the claim is spent.',
    "The route is an alternative to holding the fragments, so it keeps the rest of the escape rule; lowest id matches the Warden's rule.",
    ['BNC-E02'],
  ),
  u(
    'BNC-U22',
    'Whose deposits count when judging a defection?',
    "The leaver's own: items it withdrew versus items it deposited since it joined this guild.",
    'Defection is personal ("the breaker" loses the point); counting the whole guild\'s deposits would punish members for others\' stashing.',
    ['BNC-G08'],
  ),
  u(
    'BNC-U23',
    'What does reputation do?',
    "Nothing on the board: it is public, reported as the outcome's scores and in metrics, and never used for placement.",
    'The seed awards and removes points but gives them no use; placement is defined without them.',
    ['BNC-S07', 'BNC-S08', 'BNC-E04'],
  ),
  u(
    'BNC-U24',
    'May a match have other than four contestants?',
    'bnc-1.1 is exactly the default config (four contestants, 45 turns, 10 health, Warden 20). Any other config (contestants 2–6, for focused scenarios and experiments) is a variant: its state, views, outcome and first setup event carry the label bnc-1.1-variant(field=value,...), never bnc-1.1.',
    'Small casts make rule scenarios short without changing any rule.',
    ['BNC-M01'],
  ),
  u(
    'BNC-U25',
    'May a member invite a contestant that is already in a guild?',
    'Yes: invite_guild is open towards every other active contestant, and an invitee in a guild simply cannot accept_guild until it has left its guild. A member may hold only one open invitation per invitee.',
    'Guild membership is private (U19); refusing the invitation, or leaving it off the menu, would tell the inviter who is in a guild. The seed\'s "unaligned" condition is kept where it matters, at joining.',
    ['BNC-G02', 'BNC-G03', 'BNC-V03'],
  ),
  u(
    'BNC-U26',
    'Is an empty say or whisper allowed?',
    'Yes: text is 0–240 code points. An empty message is delivered like any other and counts as talk for first_contact and silence.',
    'The seed sets only the maximum; refusing empty text would add a rule the seed does not have.',
    ['BNC-S01', 'BNC-S02', 'BNC-B12'],
  ),
  u(
    'BNC-U27',
    'What does each cut beat mark?',
    "The seed only names the beats; every definition in the beat table is the engine's. warden_engaged marks the start of a fight (a strike at a contestant not struck the turn before), not every strike; gate_unlocked marks the fragments coming together (escape becomes possible), not the escape; chart_read marks a reading that taught something.",
    'An editor cuts on beats: one that fires on every strike (up to 30 a match) or always next to escape carries no information of its own.',
    ['BNC-B06', 'BNC-B07', 'BNC-B10'],
  ),
  {
    id: 'BNC-LINEUP-01',
    question:
      'What does "scarcity stated" (the contestant policy llm-mixed-provider-scarcity-stated-v1) put in the prompt?',
    default:
      'Every seat\'s system prompt states, word for word: "Scarcity: there are exactly three access fragments and four contestants. Escaping at Exit Vault needs all three fragments held at once, or a guild vault holding all three, which opens the Exit once for one member. Not every contestant can escape." (lineups/bnc/llm-mixed-provider-scarcity-stated-v1.yaml).',
    why: 'The seed names the policy and says nothing of its text. This states only facts the public rules page already gives (three fragments, four contestants, the two escape routes) and their consequence, adds no strategy advice, and is the same for every seat, so providers compete on equal prompts.',
    rules: [],
    source: 'engine',
    state: 'default',
    owner: 'Episode 2 line-up owner (the contestant policy llm-mixed-provider-scarcity-stated-v1)',
    raised: '2026-12-01',
    reproduction: 'test/bnc/lineup.test.ts',
  },
];

export const catalog: Catalog = { rules, uItems };
