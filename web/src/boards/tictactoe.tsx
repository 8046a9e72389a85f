// Tic-tac-toe: the 3×3 grid from the view's board string ("X.O......"). A cell is a button while
// this seat may mark it; marks are letters (X, O), so colour is never the only signal.
import { useState } from 'preact/hooks';
import type { BoardProps, Json } from './types.ts';

const cellOf = (a: Json): number | null =>
  a !== null && typeof a === 'object' && !Array.isArray(a) && a.type === 'mark' && typeof a.cell === 'number'
    ? a.cell
    : null;

export function TicTacToeBoard({ view, menu, readOnly, act }: BoardProps) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const v = view !== null && typeof view === 'object' && !Array.isArray(view) ? view : {};
  const board = typeof v.board === 'string' ? v.board : '.........';
  const legal = new Set((menu ?? []).map(cellOf).filter((c): c is number => c !== null));
  return (
    <div class="ttt-wrap">
      <fieldset class="ttt">
        <legend class="sr-only">Tic-tac-toe board</legend>
        {Array.from({ length: 9 }, (_, i) => {
          const r = Math.floor(i / 3);
          const c = i % 3;
          const mark = board[i] === '.' ? '' : board[i];
          const can = !readOnly && legal.has(i);
          return (
            <button
              key={String(i)}
              type="button"
              class={`ttt-cell${mark ? ` mark-${mark}` : ''}`}
              data-cell={i}
              aria-label={`row ${r + 1}, column ${c + 1}: ${mark || 'empty'}`}
              aria-disabled={can ? undefined : 'true'}
              onClick={async () => {
                if (!can) return;
                setRefusal(null);
                const res = await act({ type: 'mark', cell: i });
                if (!res.ok) setRefusal(res.reason);
              }}
            >
              {mark}
            </button>
          );
        })}
      </fieldset>
      <p role="alert" class="refusal">
        {refusal ? `Refused: ${refusal}` : ''}
      </p>
    </div>
  );
}
