// The goal of each shipped game in one or two sentences, for a person who has never played it
// (the full rules are the ruleset's rules page, /rules/ID). A ruleset without a line here shows
// only the link to its rules.
export const GOALS: Record<string, string> = {
  tictactoe: 'Get three of your marks in a row, column or diagonal. A full board with no line is a draw.',
  ground:
    'Together: claim Problems worth at least the scenario threshold by the end of round 5 (5, 7 or 9 points for 2, 3–4 or 5–6 players). ' +
    'Each round every player secretly picks one card; all are revealed at once and resolved.',
  mines:
    'Clear the board: open every safe cell before the rounds run out. Numbers count the mines around a cell; ' +
    'each dig costs action points, and stopping a round early banks the rest.',
  duel:
    'Reach 7 agenda points first. The corp scores agendas it advances in its remote server; the runner steals them by running on it. ' +
    'Damage beyond the runner’s hand, or a corp that must draw from an empty deck, loses at once.',
  bnc:
    'Escape: reach the Exit Vault holding all three access fragments (alone or through a guild vault) before the 45th turn, and stay alive. ' +
    'Earlier escapes place higher; talk, trade and ally with the others on the way.',
};

/** What the seat can do now, in words, from whether it owes a decision and what the ruleset is. */
export const NOW: Record<string, string> = {
  tictactoe: 'Click an empty cell to put your mark there.',
  ground: 'Answer the prompt on the board: pick a card (and a target) in Select, or choose in the step that asks you.',
  mines: 'Click a cell next to you to dig it, a far open cell to walk there; right-click (or the F key) to flag.',
  duel: 'Pick one of the offered actions under the board.',
  bnc: 'Pick this turn’s one action: move, pick up, talk, trade or fight. All contestants act at once when everyone has chosen.',
};
