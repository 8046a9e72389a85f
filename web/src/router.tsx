// A small path router over the History API: the server answers index.html for every page path, so
// deep links (/match/ID, /replay/ID) work on reload. Links are plain <a href> elements; clicks on
// same-origin links are turned into pushState navigations.
import { useEffect, useState } from 'preact/hooks';

export type RouteDef = { pattern: string; render: (params: Record<string, string>) => preact.ComponentChild };

function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) params[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return null;
  }
  return params;
}

export function resolve(routes: RouteDef[], path: string): { def: RouteDef; params: Record<string, string> } | null {
  for (const def of routes) {
    const params = match(def.pattern, path);
    if (params) return { def, params };
  }
  return null;
}

const listeners = new Set<() => void>();

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const l of listeners) l();
  if (!to.includes('#')) window.scrollTo(0, 0);
}

/** The current location path, re-rendering on navigation. */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return path;
}

/** Intercept clicks on internal links once, for the whole document. */
export function installLinkInterceptor(): void {
  document.addEventListener('click', (ev) => {
    if (ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    const a = (ev.target as Element | null)?.closest?.('a');
    if (!a || a.target || a.hasAttribute('download')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
    ev.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  });
}

/** The URL fragment as key=value pairs (seat tokens travel here, never in the query). */
export function fragment(): URLSearchParams {
  return new URLSearchParams(location.hash.replace(/^#/, ''));
}
