// The app shell: header with navigation, and the page for the current path. Pages add one line to ROUTES.
import { Lobby } from './pages/lobby.tsx';
import { MatchPage } from './pages/match.tsx';
import { useEffect, useState } from 'preact/hooks';
import type { ComponentType } from 'preact';
import { type RouteDef, resolve, usePath } from './router.tsx';

/** A page loaded on first use (its own chunk), so the lobby's download stays small. */
function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let cached: ComponentType<P> | null = null;
  return (props: P) => {
    const [C, setC] = useState<ComponentType<P> | null>(() => cached);
    const [error, setError] = useState<string | null>(null);
    useEffect(() => {
      if (!C)
        load().then(
          (c) => setC(() => (cached = c)),
          (e: Error) => setError(e.message),
        );
    }, []);
    if (error) return <p role="alert">This page could not be loaded: {error}</p>;
    return C ? <C {...props} /> : <p class="muted">Loading…</p>;
  };
}

const Viewer = lazyPage(() => import('./pages/viewer.tsx').then((m) => m.Viewer));
const Rules = lazyPage(() => import('./pages/rules.tsx').then((m) => m.RulesPage));
const Report = lazyPage(() => import('./report/index.tsx').then((m) => m.ReportPage));

const ROUTES: RouteDef[] = [
  { pattern: '/', render: () => <Lobby /> },
  { pattern: '/match/:id', render: (p) => <MatchPage id={p.id} /> },
  { pattern: '/replay', render: () => <Viewer id={null} /> },
  { pattern: '/replay/:id', render: (p) => <Viewer id={p.id} /> },
  { pattern: '/report', render: () => <Report /> },
  { pattern: '/rules/:id', render: (p) => <Rules id={p.id} /> },
];

function NotFound({ path }: { path: string }) {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        There is no page at <code>{path}</code>. <a href="/">Back to the lobby</a>.
      </p>
    </section>
  );
}

export function App() {
  const path = usePath();
  const found = resolve(ROUTES, path);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/">
          Arbiter
        </a>
        <nav aria-label="Main">
          <a href="/" aria-current={path === '/' ? 'page' : undefined}>
            Lobby
          </a>
          <a href="/replay" aria-current={path.startsWith('/replay') ? 'page' : undefined}>
            Replay a log
          </a>
          <a href="/report" aria-current={path === '/report' ? 'page' : undefined}>
            Simulation report
          </a>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {found ? found.def.render(found.params) : <NotFound path={path} />}
      </main>
    </>
  );
}
