// The lobby: rulesets, a create-match form (config from the ruleset's JSON Schema, each seat open or
// a named agent), open matches to join, running matches to watch, finished ones to replay.
import { useEffect, useState } from 'preact/hooks';
import {
  api,
  heldToken,
  rememberToken,
  type JsonObject,
  type MatchRecord,
  type OfferedLineup,
  type RulesetDetail,
  type RulesetSummary,
} from '../api.ts';
import type { Json } from '../boards/types.ts';
import { SchemaFields, type Schema } from '../forms.tsx';
import { navigate } from '../router.tsx';

const NAME_KEY = 'arbiter.name';
const savedName = (): string => {
  try {
    return localStorage.getItem(NAME_KEY) ?? '';
  } catch {
    return '';
  }
};
const saveName = (n: string) => {
  try {
    localStorage.setItem(NAME_KEY, n);
  } catch {
    // not kept: asked again next time
  }
};

/** How many seats a config gives, as far as the page can tell without running setup. */
function seatCount(r: RulesetSummary, config: JsonObject): number {
  for (const k of ['players', 'contestants', 'seats']) if (typeof config[k] === 'number') return config[k] as number;
  const s = r.gameType.seats;
  const min = s !== null && typeof s === 'object' && !Array.isArray(s) && typeof s.min === 'number' ? s.min : 2;
  return min;
}

function seatsText(m: MatchRecord): string {
  return m.seats
    .map(
      (s) => `${s.seat}: ${s.kind === 'open' ? 'open' : s.kind === 'agent' ? `agent ${s.name}` : (s.name ?? 'player')}`,
    )
    .join('; ');
}

async function joinAndGo(id: string, name: string, seat?: number): Promise<void> {
  const r = await api.join(id, name || 'player', seat);
  rememberToken(r.match, r.seat, r.token);
  navigate(`/match/${encodeURIComponent(r.match)}#token=${encodeURIComponent(r.token)}`);
}

/**
 * The config fields the person changed from the ruleset's defaults: the ruleset fills in the rest
 * itself, and fields that exclude each other (mines: a fixture board or generator fields) are not
 * all sent just because the form shows them.
 */
function changedFrom(defaults: JsonObject, config: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(config))
    if (v !== null && JSON.stringify(v) !== JSON.stringify(defaults[k])) out[k] = v;
  return out;
}

/** Pauses before each agent move the lobby offers, so a match of agents can be followed by eye. */
const PACES: { value: string; label: string }[] = [
  { value: 'auto', label: 'automatic: 0.5 s a move when only agents play, else at once' },
  { value: '0', label: 'at once (no pause)' },
  { value: '250', label: 'brisk: 0.25 s a move' },
  { value: '500', label: 'steady: 0.5 s a move' },
  { value: '1000', label: 'slow: 1 s a move' },
  { value: '2000', label: 'very slow: 2 s a move' },
];

function paceMs(pace: string, seats: string[]): number {
  if (pace !== 'auto') return Number(pace);
  return seats.length > 0 && seats.every((s) => s !== 'open') ? 500 : 0;
}

function CreateForm({
  rulesets,
  chosen,
  setChosen,
}: {
  rulesets: RulesetSummary[];
  chosen: string;
  setChosen: (id: string) => void;
}) {
  const [detail, setDetail] = useState<RulesetDetail | null>(null);
  const [config, setConfig] = useState<JsonObject>({});
  const [seats, setSeats] = useState<string[]>([]);
  const [mine, setMine] = useState<string>('0');
  const [name, setName] = useState(savedName);
  const [seed, setSeed] = useState('');
  const [pace, setPace] = useState('auto');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // line-ups of model (or other) agents the server offers for this ruleset; '' seats by hand
  const [lineups, setLineups] = useState<OfferedLineup[]>([]);
  const [lineup, setLineup] = useState('');

  useEffect(() => {
    let live = true;
    setLineups([]);
    setLineup('');
    api.lineups(chosen).then(
      (l) => live && setLineups(l.filter((x) => x.allowed)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [chosen]);
  const picked = lineups.find((l) => l.id === lineup) ?? null;

  useEffect(() => {
    let live = true;
    setDetail(null);
    api.ruleset(chosen).then(
      (d) => {
        if (!live) return;
        setDetail(d);
        setConfig({ ...d.defaultConfig });
      },
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [chosen]);

  const n = detail ? seatCount(detail, config) : 0;
  useEffect(() => {
    // seat 0 is yours by default, every other seat plays the first agent offered
    setSeats((old) => Array.from({ length: n }, (_, i) => old[i] ?? (i === 0 ? 'open' : 'random')));
  }, [n]);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!detail) return;
    // a field that does not read (JSON being typed) refuses the whole form, in place
    const form = e.currentTarget as HTMLFormElement;
    const invalid = form.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (invalid) {
      const box = invalid.closest('details');
      if (box) box.open = true;
      invalid.focus();
      setError(`Not created: ${invalid.getAttribute('data-invalid-reason') ?? 'a field is not valid'}.`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      saveName(name);
      const body = {
        ruleset: detail.id,
        config: changedFrom(detail.defaultConfig, config),
        // a line-up seats every seat itself: an episode to watch
        ...(picked ? { lineup: picked.id } : { seats: seats.map((s) => (s === 'open' ? {} : { agent: s })) }),
        ...(seed.trim() ? { seed: Number(seed) } : {}),
        agentDelayMs: paceMs(pace, picked ? picked.seats : seats),
      };
      const m = await api.create(body);
      const seat = Number(mine);
      if (!picked && mine !== 'none' && m.seats[seat]?.kind === 'open') await joinAndGo(m.id, name, seat);
      else navigate(`/match/${encodeURIComponent(m.id)}`);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const openSeats = picked ? [] : seats.map((s, i) => (s === 'open' ? i : -1)).filter((i) => i >= 0);
  return (
    <form class="panel create" onSubmit={submit} aria-labelledby="create-h">
      <h2 id="create-h">New match</h2>
      <div class="field">
        <label for="c-ruleset">Ruleset</label>
        <select id="c-ruleset" value={chosen} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
          {rulesets.map((r) => (
            <option key={r.id} value={r.id}>
              {r.title} ({r.id})
            </option>
          ))}
        </select>
      </div>
      {detail?.configSchema ? (
        <details class="config">
          <summary>Configuration</summary>
          <SchemaFields
            schema={detail.configSchema as Schema}
            value={config}
            onChange={(v: Json) => setConfig(v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {})}
          />
        </details>
      ) : null}
      {lineups.length > 0 ? (
        <div class="field">
          <label for="c-lineup">Line-up</label>
          <select id="c-lineup" value={lineup} onChange={(e) => setLineup((e.target as HTMLSelectElement).value)}>
            <option value="">none: choose each seat below</option>
            {lineups.map((l) => (
              <option key={l.id} value={l.id}>
                {l.id}: {l.seats.join(', ')}
              </option>
            ))}
          </select>
          {picked?.description ? <p class="muted">{picked.description}</p> : null}
        </div>
      ) : null}
      {picked ? (
        <fieldset class="seats">
          <legend>Seats (from the line-up)</legend>
          <ul data-testid="lineup-seats">
            {picked.seats.map((s, i) => (
              <li key={String(i)}>
                Seat {i}: {s}
              </li>
            ))}
          </ul>
        </fieldset>
      ) : (
        <fieldset class="seats">
          <legend>Seats</legend>
          {seats.map((s, i) => (
            <div class="field" key={String(i)}>
              <label for={`c-seat-${i}`}>Seat {i}</label>
              <select
                id={`c-seat-${i}`}
                value={s}
                onChange={(e) => {
                  const next = [...seats];
                  next[i] = (e.target as HTMLSelectElement).value;
                  setSeats(next);
                }}
              >
                <option value="open">open: a person joins</option>
                {(detail?.agents ?? []).map((a) => (
                  <option key={a.name} value={a.name}>
                    agent {a.name}: {a.description}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </fieldset>
      )}
      <div class="row">
        <div class="field">
          <label for="c-mine">You play</label>
          <select id="c-mine" value={mine} onChange={(e) => setMine((e.target as HTMLSelectElement).value)}>
            <option value="none">no seat (watch)</option>
            {openSeats.map((i) => (
              <option key={String(i)} value={String(i)}>
                seat {i}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="c-name">Your name</label>
          <input
            id="c-name"
            type="text"
            maxLength={64}
            value={name}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </div>
        <div class="field">
          <label for="c-pace">Pace of agent moves</label>
          <select id="c-pace" value={pace} onChange={(e) => setPace((e.target as HTMLSelectElement).value)}>
            {PACES.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="c-seed">Seed (optional)</label>
          <input
            id="c-seed"
            type="number"
            min={0}
            max={4294967295}
            value={seed}
            onInput={(e) => setSeed((e.target as HTMLInputElement).value)}
          />
        </div>
      </div>
      <button type="submit" class="primary" disabled={busy || !detail}>
        Create match
      </button>
      <p role="alert" class="refusal">
        {error ?? ''}
      </p>
    </form>
  );
}

function MatchList({
  title,
  id,
  matches,
  action,
}: {
  title: string;
  id: string;
  matches: MatchRecord[];
  action: (m: MatchRecord) => preact.ComponentChild;
}) {
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {matches.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul class="matches">
          {matches.map((m) => (
            <li key={m.id}>
              <span class="m-title">
                {m.title ?? m.ruleset} <code>{m.id}</code>
              </span>
              <span class="m-seats">{seatsText(m)}</span>
              <span class="m-actions">{action(m)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Lobby() {
  const [rulesets, setRulesets] = useState<RulesetSummary[] | null>(null);
  const [matches, setMatches] = useState<MatchRecord[]>([]);
  // "Play again" on a finished match links here with its ruleset chosen
  const [chosen, setChosen] = useState(() => new URLSearchParams(location.search).get('ruleset') ?? '');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const load = () =>
      api.matches({ limit: 50 }).then(
        (m) => live && setMatches(m),
        () => undefined,
      );
    api.rulesets().then(
      (r) => {
        if (!live) return;
        setRulesets(r);
        // the server lists its rulesets in registry order: the first is the default choice
        setChosen((c) => (r.some((x) => x.id === c) ? c : (r[0]?.id ?? '')));
      },
      (e: Error) => live && setError(e.message),
    );
    void load();
    const t = setInterval(load, 5000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, []);

  const join = async (m: MatchRecord, seat: number) => {
    try {
      const mine = heldToken(m.id);
      if (mine) navigate(`/match/${encodeURIComponent(m.id)}#token=${encodeURIComponent(mine.token)}`);
      else await joinAndGo(m.id, savedName(), seat);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <div class="lobby" data-ready={rulesets ? 'yes' : undefined}>
      <h1>Lobby</h1>
      <p class="intro">
        Arbiter plays turn-based games by their written rules: every rule is numbered and tested, and every match can be
        replayed step by step. Pick a game below (its rules are one click away), play it against people or computer
        agents, watch running matches, or replay finished ones.
      </p>
      <p role="alert" class="refusal">
        {error ?? ''}
      </p>
      <section class="panel" aria-labelledby="rs-h">
        <h2 id="rs-h">Rulesets</h2>
        {rulesets === null ? (
          <p class="muted">Loading…</p>
        ) : (
          <table class="rulesets">
            <thead>
              <tr>
                <th scope="col">Ruleset</th>
                <th scope="col">Rules</th>
                <th scope="col">Seats</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rulesets.map((r) => {
                const s = r.gameType.seats as { min?: number; max?: number } | undefined;
                return (
                  <tr key={r.id}>
                    <th scope="row">
                      {r.title} <code>{r.id}</code>
                    </th>
                    <td>
                      <a href={`/rules/${encodeURIComponent(r.id)}`}>
                        Rules<span class="sr-only"> of {r.title}</span>
                      </a>{' '}
                      <span class="muted">({r.rules} numbered)</span>
                    </td>
                    <td>{s ? (s.min === s.max ? s.min : `${s.min}–${s.max}`) : ''}</td>
                    <td>
                      <button
                        type="button"
                        onClick={() => {
                          setChosen(r.id);
                          document.getElementById('c-ruleset')?.focus();
                        }}
                      >
                        New match<span class="sr-only"> of {r.title}</span>
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      {rulesets ? <CreateForm rulesets={rulesets} chosen={chosen} setChosen={setChosen} /> : null}
      <MatchList
        title="Open matches"
        id="open-h"
        matches={matches.filter((m) => m.status === 'waiting')}
        action={(m) =>
          m.seats
            .filter((s) => s.kind === 'open')
            .map((s) => (
              <button key={String(s.seat)} type="button" onClick={() => void join(m, s.seat)}>
                Join seat {s.seat}
              </button>
            ))
        }
      />
      <MatchList
        title="Running matches"
        id="running-h"
        matches={matches.filter((m) => m.status === 'running')}
        action={(m) => <a href={`/match/${encodeURIComponent(m.id)}`}>Watch {m.id}</a>}
      />
      <MatchList
        title="Finished matches"
        id="finished-h"
        matches={matches.filter((m) => m.status === 'finished')}
        action={(m) => <a href={`/replay/${encodeURIComponent(m.id)}`}>Replay {m.id}</a>}
      />
    </div>
  );
}
