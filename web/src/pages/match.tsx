// A live match over its WebSocket: the board for the ruleset (or the generic one), who owes what,
// the outcome, the event list in words, and the seats with a share link each.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  api,
  forgetToken,
  heldToken,
  MatchSocket,
  rememberToken,
  type MatchRecord,
  type SocketStatus,
  type StateFrame,
} from '../api.ts';
import { GenericBoard, TemplatesContext } from '../boards/generic.tsx';
import { boardFor } from '../boards/index.ts';
import type { ActResult, Json } from '../boards/types.ts';
import { EventList, useNarrow, usePackage } from '../events.tsx';
import { groupsFromLog, mergeGroups, type EventGroup } from '../event-groups.ts';
import { fragment, navigate } from '../router.tsx';
import { outcomeText } from '../boards/words.ts';
import { GOALS, NOW } from '../rules/goals.ts';

/** How fast frames that waited during a pause are shown once the spectator resumes. */
const REPLAY_MS = 400;

/** Who a seat is, in words: "you", the player's name, or the agent. */
function seatName(record: MatchRecord | null, s: number, me: number | null): string {
  if (s === me) return 'you';
  const r = record?.seats[s];
  if (!r) return `seat ${s}`;
  if (r.kind === 'agent') return `seat ${s} (agent ${r.name ?? ''})`;
  if (r.kind === 'player') return `seat ${s} (${r.name ?? 'a player'})`;
  return `seat ${s} (open)`;
}

function pendingText(pending: Json[], seat: number | null, record: MatchRecord | null): string {
  if (pending.length === 0) return 'nobody';
  return pending
    .map((p) => {
      const o = p !== null && typeof p === 'object' && !Array.isArray(p) ? p : {};
      return `${seatName(record, Number(o.seat), seat)}: ${String(o.kind ?? 'decision').replace(/_/g, ' ')}`;
    })
    .join('; ');
}

function CopyLink({ label, href }: { label: string; href: string }) {
  const [done, setDone] = useState(false);
  return (
    <span class="copy">
      <a href={href}>{label}</a>{' '}
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(href).then(
            () => setDone(true),
            () => setDone(false),
          );
        }}
      >
        {done ? 'Copied' : 'Copy'}
        <span class="sr-only"> {label}</span>
      </button>
    </span>
  );
}

function JoinForm({ id, seat, onJoined }: { id: string; seat: number | null; onJoined: (token: string) => void }) {
  const [name, setName] = useState(() => {
    try {
      return localStorage.getItem('arbiter.name') ?? '';
    } catch {
      return '';
    }
  });
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      class="panel join"
      aria-label="Join this match"
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          const r = await api.join(id, name || 'player', seat ?? undefined);
          rememberToken(r.match, r.seat, r.token);
          onJoined(r.token);
        } catch (err) {
          setError((err as Error).message);
        }
      }}
    >
      <h2>Join {seat === null ? 'this match' : `seat ${seat}`}</h2>
      <div class="field">
        <label for="j-name">Your name</label>
        <input
          id="j-name"
          type="text"
          maxLength={64}
          value={name}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
      </div>
      <button type="submit" class="primary">
        Join
      </button>
      <p role="alert" class="refusal">
        {error ?? ''}
      </p>
    </form>
  );
}

export function MatchPage({ id }: { id: string }) {
  const [token, setToken] = useState<string | null>(() => fragment().get('token') ?? heldToken(id)?.token ?? null);
  const joinSeat = fragment().get('join');
  const [frame, setFrame] = useState<StateFrame | null>(null);
  const [record, setRecord] = useState<MatchRecord | null>(null);
  const [status, setStatus] = useState<{ s: SocketStatus; why?: string }>({ s: 'connecting' });
  const [groups, setGroups] = useState<EventGroup[]>([]);
  const sock = useRef<MatchSocket | null>(null);
  const pkg = usePackage(record?.ruleset ?? null);

  // A spectator may pause the live match: frames wait in `queued` (shown later, one at a time, or all
  // at once), and the page says how many moves it is behind the match.
  const queued = useRef<StateFrame[]>([]);
  const [paused, setPaused] = useState(false);
  const [behind, setBehind] = useState(0);
  const pausedRef = useRef(false);
  const shownSeq = useRef(0);
  const show = (f: StateFrame) => {
    shownSeq.current = f.seq;
    setFrame(f);
    if (f.events.length > 0)
      setGroups((g) =>
        g.some((x) => x.seq === f.seq) ? g : mergeGroups(g, [{ seq: f.seq, who: null, events: f.events }]),
      );
  };
  const countBehind = () => {
    const q = queued.current;
    setBehind(q.length === 0 ? 0 : Math.max(0, q[q.length - 1].seq - shownSeq.current));
  };
  const showNext = () => {
    const f = queued.current.shift();
    if (f) show(f);
    countBehind();
  };
  // "Catch up" means back to live: every waiting frame is shown and the pause ends. Staying paused
  // would put the page behind again with the match's next move, a fraction of a second later.
  const catchUp = () => {
    while (queued.current.length > 0) showNext();
    pausedRef.current = false;
    setPaused(false);
  };

  useEffect(() => {
    setGroups([]);
    queued.current = [];
    setBehind(0);
    const s = new MatchSocket(
      id,
      token,
      (f) => {
        if (pausedRef.current || queued.current.length > 0) {
          queued.current.push(f);
          countBehind();
        } else show(f);
      },
      (st, why) => setStatus({ s: st, why }),
    );
    sock.current = s;
    // the socket brings what happens from now on; what happened before comes from the log, cut to
    // what this seat (or a spectator) may see
    let live = true;
    api.log(id, token).then(
      (text) => live && setGroups((g) => mergeGroups(groupsFromLog(text), g)),
      () => undefined,
    );
    return () => {
      live = false;
      s.close();
    };
  }, [id, token]);

  // after a pause, the waiting frames are shown one every REPLAY_MS until the page has caught up
  useEffect(() => {
    if (paused || behind === 0) return;
    const t = setTimeout(showNext, REPLAY_MS);
    return () => clearTimeout(t);
  }, [paused, behind, frame]);

  // the public record (seats, title) follows the frames while seats can still be taken, and each
  // change of status; a running match's record does not change with its moves, and fetching it
  // after every move redrew the whole page once more, often while the next click waited
  const st = frame?.status;
  const seq = st === 'waiting' ? frame?.seq : null;
  useEffect(() => {
    let live = true;
    api.match(id).then(
      (r) => live && setRecord(r),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [id, seq, st]);

  const act = useMemo(
    () =>
      (a: Json): Promise<ActResult> =>
        sock.current?.act(a) ?? Promise.resolve({ ok: false, code: 'closed', reason: 'not connected' }),
    [],
  );

  const ruleset = record?.ruleset ?? null;
  const [generic, setGeneric] = useState(false);
  const drawn = ruleset ? boardFor(ruleset) : null;
  // the generic view stays one switch away on drawn boards (the raw view and menu, for checking)
  const Board = drawn && generic ? GenericBoard : drawn;
  const seat = frame?.seat ?? null;
  const base = `${location.origin}/match/${encodeURIComponent(id)}`;
  const owes = frame?.menu !== null && frame?.menu !== undefined;
  const narrow = useNarrow();
  const openSeats = (record?.seats ?? []).filter((s) => s.kind === 'open').map((s) => s.seat);

  return (
    <div class="match" data-seq={frame?.seq ?? ''} data-status={frame?.status ?? ''}>
      <h1>
        {record?.title ?? ruleset ?? 'Match'} <code>{id}</code>
      </h1>
      {ruleset ? (
        <section class="panel guide" aria-label="How to play">
          {narrow ? (
            // on a phone the goal folds to one line, so the turn and the board start on the first screen
            <details class="goal-fold">
              <summary>
                <strong>How to win</strong> (and the rules)
              </summary>
              <p>
                {GOALS[ruleset] ?? 'see the rules.'}{' '}
                <a href={`/rules/${encodeURIComponent(ruleset)}`}>Rules of {record?.title ?? ruleset}</a>
              </p>
            </details>
          ) : (
            <p>
              <strong>How to win:</strong> {GOALS[ruleset] ?? 'see the rules.'}{' '}
              <a href={`/rules/${encodeURIComponent(ruleset)}`}>Rules of {record?.title ?? ruleset}</a>
            </p>
          )}
          {frame && frame.outcome === null ? (
            <p data-testid="now">
              <strong>What you can do now:</strong>{' '}
              {owes
                ? (NOW[ruleset] ?? 'choose one of the actions the board offers.')
                : seat === null
                  ? 'watch: you are a spectator (take an open seat from its invite link to play).'
                  : `wait: ${pendingText(frame.pending, seat, record)}.`}
            </p>
          ) : null}
        </section>
      ) : null}
      <p class="jump">
        {/* buttons, not #links: the fragment carries the seat token */}
        Jump to:{' '}
        <button type="button" class="linkish" onClick={() => document.getElementById('events')?.scrollIntoView()}>
          events
        </button>{' '}
        ·{' '}
        <button type="button" class="linkish" onClick={() => document.getElementById('seats')?.scrollIntoView()}>
          seats
        </button>
      </p>
      <p class="status-line" aria-live="polite">
        <span class={`conn conn-${status.s}`}>
          {status.s === 'open' ? 'connected' : status.s}
          {status.why ? ` (${status.why})` : ''}
        </span>
        {' · '}
        {seat === null ? 'watching as a spectator' : `you play seat ${seat}`}
        {frame ? ` · ${frame.status} · step ${frame.seq}` : ''}
      </p>
      {frame && seat === null && frame.status !== 'finished' ? (
        <fieldset class="controls pace" aria-label="Watching">
          <legend class="sr-only">Watching</legend>
          <button
            type="button"
            onClick={() => {
              pausedRef.current = !paused;
              setPaused(!paused);
            }}
          >
            {paused ? 'Resume' : 'Pause'}
          </button>
          <button type="button" onClick={showNext} disabled={behind === 0}>
            Next move
          </button>
          <button type="button" onClick={catchUp} disabled={behind === 0}>
            Catch up
          </button>
          <span class="behind" aria-live="polite" data-behind={behind}>
            {paused ? 'Paused. ' : ''}
            {behind > 0 ? `${behind} ${behind === 1 ? 'move' : 'moves'} behind the match` : 'Live'}
          </span>
        </fieldset>
      ) : null}
      {!token && joinSeat !== null && record && record.seats[Number(joinSeat)]?.kind !== 'open' ? (
        <p role="alert" class="refusal seat-taken">
          Seat {joinSeat} is taken
          {record.seats[Number(joinSeat)]?.name ? ` (by ${record.seats[Number(joinSeat)]?.name})` : ''}: this invite
          link has been used. You are watching as a spectator
          {openSeats.length > 0
            ? `; seat ${openSeats.join(', ')} ${openSeats.length === 1 ? 'is' : 'are'} still open.`
            : '.'}
        </p>
      ) : null}
      {!token && joinSeat !== null && record?.seats[Number(joinSeat)]?.kind === 'open' ? (
        <JoinForm
          id={id}
          seat={Number(joinSeat)}
          onJoined={(t) => {
            navigate(`/match/${encodeURIComponent(id)}#token=${encodeURIComponent(t)}`, true);
            setToken(t);
          }}
        />
      ) : null}
      {frame ? (
        <>
          <p class="turn" aria-live="polite">
            {frame.outcome !== null ? (
              <>
                <strong>{outcomeText(frame.outcome, seat, record?.seats.length)}</strong>{' '}
                <a class="again" href={`/?ruleset=${encodeURIComponent(ruleset ?? '')}#create-h`}>
                  Play again
                </a>
              </>
            ) : (
              <>
                {owes ? <strong>Your move. </strong> : null}
                {frame.status === 'waiting' && openSeats.length > 0
                  ? `Waiting for players to take ${openSeats.length === 1 ? 'the open seat' : 'the open seats'}: ${openSeats.join(', ')} (send them the invite links below).`
                  : frame.status === 'waiting' && !record
                    ? // the first frame can arrive before the match record that names the open seats
                      'Waiting for players to join.'
                    : `Waiting for: ${pendingText(frame.pending, seat, record)}`}
              </>
            )}
          </p>
          <div class="match-grid">
            <div class="board-area">
              <h2 class="sr-only">Board</h2>
              {Board && ruleset ? (
                <TemplatesContext.Provider value={frame.menu ? (frame.menu.templates ?? []) : []}>
                  <Board
                    ruleset={ruleset}
                    seat={seat}
                    view={frame.view}
                    menu={frame.menu ? frame.menu.actions : null}
                    pending={frame.pending}
                    events={frame.events}
                    outcome={frame.outcome}
                    readOnly={seat === null || frame.status === 'finished'}
                    act={act}
                  />
                </TemplatesContext.Provider>
              ) : null}
              {/* a checking aid, after the board: on a phone the board starts on the first screen */}
              {drawn && drawn !== GenericBoard ? (
                <div class="field check board-mode">
                  <input
                    id="board-generic"
                    type="checkbox"
                    checked={generic}
                    onChange={(e) => setGeneric((e.target as HTMLInputElement).checked)}
                  />
                  <label for="board-generic">Show the generic view (the raw view and menu)</label>
                </div>
              ) : null}
            </div>
            <aside class="side">
              {/* seats first: on a phone they come right after the board, the events fold below them */}
              {record ? (
                <section class="panel" aria-labelledby="seats-h" id="seats">
                  <h2 id="seats-h">Seats</h2>
                  <ul class="seat-list">
                    {record.seats.map((s) => (
                      <li key={String(s.seat)}>
                        <span>
                          Seat {s.seat}:{' '}
                          {s.kind === 'open' ? 'open' : s.kind === 'agent' ? `agent ${s.name}` : (s.name ?? 'player')}
                          {s.seat === seat ? ' (you)' : ''}
                        </span>{' '}
                        {s.kind === 'open' ? (
                          <CopyLink label={`Invite link for seat ${s.seat}`} href={`${base}#join=${s.seat}`} />
                        ) : s.seat === seat && token ? (
                          <CopyLink
                            label={`Your private link for seat ${s.seat}`}
                            href={`${base}#token=${encodeURIComponent(token)}`}
                          />
                        ) : null}
                      </li>
                    ))}
                  </ul>
                  <p>
                    <CopyLink label="Spectator link" href={base} />
                  </p>
                  {token && frame.status !== 'finished' ? (
                    <button
                      type="button"
                      onClick={async () => {
                        try {
                          await api.leave(id, token);
                        } finally {
                          forgetToken(id);
                          navigate(`/match/${encodeURIComponent(id)}`, true);
                          setToken(null);
                        }
                      }}
                    >
                      Leave my seat
                    </button>
                  ) : null}
                  {frame.status === 'finished' ? (
                    <p>
                      <a href={`/replay/${encodeURIComponent(id)}`}>Replay this match step by step</a>
                    </p>
                  ) : null}
                  {frame.status === 'finished' ? <Transcripts id={id} /> : null}
                </section>
              ) : null}
              <EventList pkg={pkg} groups={groups} collapsible />
            </aside>
          </div>
        </>
      ) : (
        <p class="muted">Connecting…</p>
      )}
    </div>
  );
}

/**
 * Links to each seat's transcript (models and programs the server played), offered once the match
 * is over: what each seat was asked, what it answered, its tokens.
 */
function Transcripts({ id }: { id: string }) {
  const [seats, setSeats] = useState<number[]>([]);
  useEffect(() => {
    let live = true;
    api.transcripts(id).then(
      (r) => live && setSeats(r.seats),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [id]);
  if (seats.length === 0) return null;
  return (
    <p class="transcripts">
      Transcripts:{' '}
      {seats.map((s, i) => (
        <span key={String(s)}>
          {i > 0 ? ', ' : ''}
          <a href={`/api/matches/${encodeURIComponent(id)}/transcripts/${s}?format=text`}>seat {s}</a>
        </span>
      ))}
    </p>
  );
}
