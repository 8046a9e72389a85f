// A remote agent for `arbiter serve`: joins a match's seat (or uses a token it is given), connects
// to the match's WebSocket with protocol=arbiter-agent/1 and answers each decision_request with a
// menu action. Plain Node 20 and the `ws` package; any language with a WebSocket client works the
// same way.
//
//   node examples/remote-agent.mjs --server http://127.0.0.1:8080 --match ID [--token T | --name me] [--mode first]
//
// --mode chooses how it answers (the odd ones exist to show the server's failure policy):
//   first | last      a menu action, at once
//   slow:MS           the first menu action after MS milliseconds
//   hang              never answers
//   garbage           answers text that is not JSON
//   garbage-once      not JSON on the first attempt, the first menu action on the retry
//   stale             answers with the id of the previous request (an answer that came too late)
// On exit it prints one JSON line: the messages it received by type and the socket's close code.

import WebSocket from 'ws';

/** @param {string[]} argv @returns {Record<string, string | true>} */
function args(argv) {
  /** @type {Record<string, string | true>} */
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--')) out[argv[i].slice(2)] = argv[i + 1]?.startsWith('--') ? true : argv[++i];
  }
  return out;
}

const a = args(process.argv.slice(2));
const server = String(a.server ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const mode = String(a.mode ?? 'first');
if (!a.match) {
  process.stderr.write('--match ID is required\n');
  process.exit(2);
}

let token = a.token;
if (!token) {
  const r = await fetch(`${server}/api/matches/${a.match}/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      a.seat === undefined
        ? { name: a.name ?? 'remote-agent' }
        : { name: a.name ?? 'remote-agent', seat: Number(a.seat) },
    ),
  });
  const body = await r.json();
  if (r.status !== 201) {
    process.stderr.write(`join refused: ${JSON.stringify(body)}\n`);
    process.exit(1);
  }
  token = body.token;
}

const url = `${server.replace(/^http/, 'ws')}/api/matches/${a.match}/ws?token=${encodeURIComponent(token)}&protocol=arbiter-agent/1`;
const ws = new WebSocket(url);
/** @type {Record<string, number>} */
const seen = {};
/** @type {Record<number, number>} */
const attempts = { 1: 0, 2: 0 };
let previousId = 'never-asked';

/** @param {{ request: string }} req @param {unknown} action */
const answer = (req, action) => ws.send(JSON.stringify({ type: 'decision', request: req.request, action }));

ws.on('message', (data) => {
  const msg = JSON.parse(String(data));
  seen[msg.type] = (seen[msg.type] ?? 0) + 1;
  if (msg.type !== 'decision_request') return;
  attempts[msg.attempt] = (attempts[msg.attempt] ?? 0) + 1;
  const actions = msg.menu.actions;
  const id = previousId;
  previousId = msg.request;
  if (mode === 'first') answer(msg, actions[0]);
  else if (mode === 'last') answer(msg, actions[actions.length - 1]);
  else if (mode.startsWith('slow:')) setTimeout(() => answer(msg, actions[0]), Number(mode.slice(5)));
  else if (mode === 'hang') return;
  else if (mode === 'garbage') ws.send('this is not JSON');
  else if (mode === 'garbage-once') {
    if (msg.attempt === 1) ws.send('{"request": oops');
    else answer(msg, actions[0]);
  } else if (mode === 'stale') ws.send(JSON.stringify({ type: 'decision', request: id, action: actions[0] }));
});

ws.on('close', (code) => {
  process.stdout.write(JSON.stringify({ close: code, seen, attempts }) + '\n');
  process.exit(0);
});
ws.on('error', (err) => {
  process.stderr.write(`socket error: ${err.message}\n`);
});
