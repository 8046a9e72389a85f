// Tic-tac-toe: the 3×3 grid from the view's board string ("X.O......"). A cell is a button while
// this seat may mark it; marks are letters (X, O), so colour is never the only signal. The last
// mark and a winning line are marked in shape and words; a click the rules would refuse says why.
import type { BoardProps, Json } from './types.ts';
import { useNotice } from './notice.ts';
import { LINES, type TicTacToeView } from '@arbiter/engine/rulesets/tictactoe';

const cellOf = (a: Json): number | null =>
  a !== null && typeof a === 'object' && !Array.isArray(a) && a.type === 'mark' && typeof a.cell === 'number'
    ? a.cell
    : null;

/** The cells of a completed line, if the board has one. */
function winningLine(board: string): readonly number[] {
  return LINES.find((l) => board[l[0]] !== '.' && l.every((c) => board[c] === board[l[0]])) ?? [];
}

/** The cell the latest mark went to, from the events of the latest change or the whole history. */
function lastMark(events: Json[]): number | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e !== null && typeof e === 'object' && !Array.isArray(e) && e.type === 'marked' && typeof e.cell === 'number')
      return e.cell;
  }
  return null;
}

const place = (i: number) => `row ${Math.floor(i / 3) + 1}, column ${(i % 3) + 1}`;

export function TicTacToeBoard({
  view,
  menu,
  readOnly,
  act,
  events,
  history,
  outcome,
  pending,
  seat,
}: BoardProps<TicTacToeView>) {
  const { notice, report, clear } = useNotice(view, '');
  // a view this board cannot read (another version's) draws an empty grid
  const board = view !== null && typeof view === 'object' && typeof view.board === 'string' ? view.board : '.........';
  const legal = new Set((menu ?? []).map(cellOf).filter((c): c is number => c !== null));
  const last = lastMark(history ?? events);
  const line = new Set(winningLine(board));
  const mine = seat === 0 ? 'X' : seat === 1 ? 'O' : null;
  /** Why a click on cell i would be refused (null: it would not be). */
  const why = (i: number): string | null => {
    if (outcome !== null) return 'the game is over';
    if (board[i] !== '.') return `${place(i)} is already marked ${board[i]}`;
    if (!legal.has(i))
      return pending.length > 0 ? `it is not your turn: wait for ${mine === 'X' ? 'O' : 'X'}` : 'not now';
    return null;
  };
  return (
    <div class="ttt-wrap">
      <p class="ttt-you">
        {mine ? (
          <>
            You play <strong>{mine}</strong>
            {legal.size > 0 ? ': your turn, click an empty cell.' : '.'}
          </>
        ) : null}
      </p>
      <fieldset class="ttt">
        <legend class="sr-only">Tic-tac-toe board</legend>
        {Array.from({ length: 9 }, (_, i) => {
          const mark = board[i] === '.' ? '' : board[i];
          const can = !readOnly && legal.has(i);
          const isLast = last === i && mark !== '';
          return (
            <button
              key={String(i)}
              type="button"
              class={`ttt-cell${mark ? ` mark-${mark}` : ''}${isLast ? ' ttt-last' : ''}${line.has(i) ? ' ttt-line' : ''}`}
              data-cell={i}
              data-last={isLast ? 'yes' : undefined}
              data-line={line.has(i) ? 'yes' : undefined}
              aria-label={`${place(i)}: ${mark || 'empty'}${isLast ? ', the last move' : ''}${line.has(i) ? ', in the winning line' : ''}`}
              aria-disabled={can ? undefined : 'true'}
              onClick={async () => {
                if (readOnly) return;
                const no = why(i);
                if (no) {
                  report({ ok: false, code: 'illegal', reason: no }, '', null);
                  return;
                }
                clear();
                report(await act({ type: 'mark', cell: i }), '', null);
              }}
            >
              {mark}
            </button>
          );
        })}
      </fieldset>
      <p role="alert" class="refusal">
        {notice?.bad ? notice.text : ''}
      </p>
    </div>
  );
}
