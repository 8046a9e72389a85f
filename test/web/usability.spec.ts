// Issue 26's browser specs (the page for people who have never heard of Arbiter), registered on
// the rig of test/web/browser-boards.test.ts; the functions live in usability.ts.

import { test } from 'node:test';
import { siteForSpecs, type Site } from './boards-support.ts';
import {
  lobbyTraps,
  noStaleMessages,
  paceFromTheLobby,
  replaySpectatorSeesWhatSpectatorsSee,
  revealAndWords,
  rulesEverywhere,
  tictactoeSpeaks,
} from './usability.ts';

let site: Site;
const missing = siteForSpecs((s) => {
  site = s;
});

test(
  '[WEB-PACE] issue 26 item 1: agents paced from the lobby; a spectator pauses, steps and catches up',
  {
    skip: missing ?? false,
  },
  () => paceFromTheLobby(site),
);

test(
  '[WEB-REPLAY-AUDIENCE] issue 26 item 2: the viewer shows a spectator what a spectator perceives, for every ruleset',
  {
    skip: missing ?? false,
  },
  () => replaySpectatorSeesWhatSpectatorsSee(site),
);

test(
  '[WEB-STALE] issue 26 item 3: refusals and confirmations are cleared by the next accepted action (mines, GROUND, bnc)',
  {
    skip: missing ?? false,
  },
  () => noStaleMessages(site),
);

test(
  '[WEB-RULES] issue 26 item 4: every ruleset’s rules one click from the lobby; every board says how to win and what to do now',
  {
    skip: missing ?? false,
  },
  () => rulesEverywhere(site),
);

test(
  '[WEB-LOBBY] issue 26 item 6: bad config refused in place, fixtures selectable, no fake 0, open seats and used invites said',
  {
    skip: missing ?? false,
  },
  () => lobbyTraps(site),
);

test(
  '[WEB-OUTCOME] [WEB-TTT-WORDS] [WEB-TTT-CELLS] issue 26 items 8 and 9: the loser reads it, the line and last move are marked, refused clicks say why, events name cells as the board does',
  {
    skip: missing ?? false,
  },
  () => tictactoeSpeaks(site),
);

test(
  '[WEB-GROUND-REVEAL] [WEB-EVENT-WORDS] issue 26 items 5 and 7: the reveal moment; events in words, ids and JSON behind details',
  {
    skip: missing ?? false,
  },
  () => revealAndWords(site),
);
