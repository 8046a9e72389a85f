// Observations a model can read: the seat's view in plain words (the ruleset's own `describeView`
// (`viewText`) when it has one, else a readable indented tree of the view), the events the seat saw, and the
// menu in words. Per-ruleset renderings belong to the ruleset owners; this is the fallback.

import type { GameEvent, Json, Menu, Ruleset, Seat } from '../kernel/index.ts';

/** Generic rendering: one line per scalar, nested objects indented, short scalar lists inline. */
function viewTree(value: Json, indent = ''): string {
  const lines: string[] = [];
  const scalar = (v: Json): boolean => v === null || typeof v !== 'object';
  const show = (v: Json): string => (typeof v === 'string' ? v : JSON.stringify(v));
  const walk = (v: Json, pad: string, label: string | null): void => {
    const head = label === null ? pad : `${pad}${label}: `;
    if (v === null || typeof v !== 'object') {
      lines.push(head + show(v));
    } else if (Array.isArray(v)) {
      if (v.length === 0) lines.push(head + '(none)');
      else if (v.every(scalar) && v.length <= 24) lines.push(head + v.map(show).join(', '));
      else {
        lines.push(label === null ? `${pad}-` : `${pad}${label}:`);
        v.forEach((item, i) => walk(item, pad + '  ', `${i + 1}`));
      }
    } else {
      const entries = Object.entries(v);
      if (entries.length === 0) {
        lines.push(head + '(empty)');
        return;
      }
      if (label !== null) lines.push(`${pad}${label}:`);
      const inner = label === null ? pad : pad + '  ';
      for (const [k, x] of entries) walk(x, inner, k.replace(/_/g, ' '));
    }
  };
  walk(value, indent, null);
  return lines.join('\n');
}

export function describeViewText(rs: Ruleset, view: Json, seat: Seat): string {
  if (rs.viewText) {
    try {
      return rs.viewText(view, seat);
    } catch {
      /* fall back to the generic tree */
    }
  }
  return viewTree(view);
}

export function describeEventText(rs: Ruleset, e: GameEvent): string {
  if (rs.describeEvent) {
    try {
      return rs.describeEvent(e);
    } catch {
      /* fall through */
    }
  }
  return JSON.stringify(e);
}

export function describeMenuText(rs: Ruleset, menu: Menu, seat: Seat): string {
  const lines = menu.actions.map((a, i) => {
    let words = '';
    if (rs.describeAction) {
      try {
        words = rs.describeAction(a, seat);
      } catch {
        /* JSON only */
      }
    }
    return `${i + 1}. ${JSON.stringify(a)}${words ? ` — ${words}` : ''}`;
  });
  for (const t of menu.templates ?? [])
    lines.push(`template ${t.family}: ${t.description ?? ''} (example ${JSON.stringify(t.example)})`);
  return lines.join('\n');
}
