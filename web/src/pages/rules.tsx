// A ruleset's rules page: the markdown `arbiter rules ID` prints (the package's rulesPage()),
// served by GET /api/rulesets/:id/rules, with the game's goal on top.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Markdown } from '../rules/markdown.tsx';
import { GOALS } from '../rules/goals.ts';

export function RulesPage({ id }: { id: string }) {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setText(null);
    api.rules(id).then(
      (t) => live && setText(t),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [id]);
  const title = text ? (/^#\s+(.*)$/m.exec(text)?.[1] ?? id) : id;
  return (
    <article class="rules-page" data-ready={text ? 'yes' : undefined}>
      <p>
        <a href="/">← Lobby</a> ·{' '}
        <a href={`/?ruleset=${encodeURIComponent(id)}#create-h`}>Start a match of this game</a>
      </p>
      <h1>Rules: {title}</h1>
      {GOALS[id] ? (
        <p class="goal">
          <strong>How to win:</strong> {GOALS[id]}
        </p>
      ) : null}
      {error ? (
        <p role="alert" class="refusal">
          {error}
        </p>
      ) : null}
      {text ? (
        <Markdown text={text.replace(/^#\s+.*$/m, '')} shift={0} />
      ) : error ? null : (
        <p class="muted">Loading…</p>
      )}
    </article>
  );
}
