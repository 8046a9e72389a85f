// Inline SVG glyphs for the mines board (no icon font: the page must look the same on any machine).

export function FlagIcon({ cls }: { cls?: string }) {
  return (
    <svg class={cls} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M4 2v12" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" />
      <path d="M4.8 2.6 12.5 5.4 4.8 8.4Z" fill="currentColor" />
    </svg>
  );
}

export function MineIcon({ cls }: { cls?: string }) {
  return (
    <svg class={cls} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <g stroke="currentColor" stroke-width="1.4" stroke-linecap="round">
        <path d="M8 1.5v3M8 11.5v3M1.5 8h3M11.5 8h3M3.4 3.4l2 2M10.6 10.6l2 2M12.6 3.4l-2 2M5.4 10.6l-2 2" />
      </g>
      <circle cx="8" cy="8" r="3.6" fill="currentColor" />
    </svg>
  );
}

export function FigureIcon({ cls }: { cls?: string }) {
  return (
    <svg class={cls} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="4.2" r="2.6" fill="currentColor" />
      <path d="M3.2 14.5c.4-4 2.3-6 4.8-6s4.4 2 4.8 6Z" fill="currentColor" />
    </svg>
  );
}

export function PickIcon({ cls }: { cls?: string }) {
  return (
    <svg class={cls} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M2.5 5.5C5 2.5 9.5 2 13.5 3.5 10.5 3.6 7.5 4.6 5.4 6.6Z" fill="currentColor" />
      <path d="M6.2 5.8 13 13.5" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" />
    </svg>
  );
}

/** The refusal and voided marks: a cross and a slashed circle (shape, not colour, tells them apart). */
export function CrossIcon({ cls }: { cls?: string }) {
  return (
    <svg class={cls} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M3.5 3.5l9 9M12.5 3.5l-9 9" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" />
    </svg>
  );
}

export function VoidIcon({ cls }: { cls?: string }) {
  return (
    <svg class={cls} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="8" r="5.6" fill="none" stroke="currentColor" stroke-width="1.8" />
      <path d="M4 12 12 4" stroke="currentColor" stroke-width="1.8" />
    </svg>
  );
}

export function InfoIcon({ cls }: { cls?: string }) {
  return (
    <svg class={cls} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="8" r="6.2" fill="none" stroke="currentColor" stroke-width="1.6" />
      <path d="M8 7v4.5" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" />
      <circle cx="8" cy="4.7" r="1.1" fill="currentColor" />
    </svg>
  );
}

/** Cursor images per pre-committed intent (data URLs for CSS `cursor`). */
function cursorUrl(svg: string, hx: number, hy: number, fallback: string): string {
  return `url("data:image/svg+xml,${encodeURIComponent(svg)}") ${hx} ${hy}, ${fallback}`;
}

const WRAP = (inner: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">${inner}</svg>`;

export const CURSORS = {
  move: cursorUrl(
    WRAP(
      '<path d="M3 3l7 17 2.5-7 7-2.5Z" fill="#fff" stroke="#123" stroke-width="1.6" stroke-linejoin="round"/><circle cx="19" cy="19" r="3" fill="#1f6feb" stroke="#fff"/>',
    ),
    3,
    3,
    'pointer',
  ),
  dig: cursorUrl(
    WRAP(
      '<path d="M3 8C7 3 14 2 21 4.5 16 5 11.5 6.5 8 9.8Z" fill="#4a3b2a" stroke="#fff" stroke-width="1"/><path d="M9 9l11 12" stroke="#4a3b2a" stroke-width="3" stroke-linecap="round"/><path d="M9 9l11 12" stroke="#fff" stroke-width="1" stroke-linecap="round"/>',
    ),
    4,
    6,
    'crosshair',
  ),
  flag: cursorUrl(
    WRAP(
      '<path d="M5 3v18" stroke="#123" stroke-width="2.4" stroke-linecap="round"/><path d="M6 4l12 4.5L6 13Z" fill="#c62828" stroke="#fff"/>',
    ),
    5,
    21,
    'context-menu',
  ),
};
