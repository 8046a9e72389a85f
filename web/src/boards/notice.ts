// A board's message about the player's latest action. A refusal stays up until the view changes
// (the next accepted action, anyone's); a confirmation ("Sent.") only while the moment it was sent
// in (the round and phase, the turn) lasts, so neither is left standing as if it were current.
import { useRef, useState } from 'preact/hooks';
import type { ActResult } from './types.ts';

export type Notice = { bad: boolean; text: string };

type Held = { notice: Notice; view: unknown; moment: string | null };

export function useNotice(
  view: unknown,
  moment: string,
): { notice: Notice | null; report: (r: ActResult, sentIn: string, ok: string | null) => void; clear: () => void } {
  const [held, setHeld] = useState<Held | null>(null);
  const latest = useRef(view);
  latest.current = view;
  const notice =
    held === null ? null : (held.moment === null ? held.view === view : held.moment === moment) ? held.notice : null;
  return {
    notice,
    report: (r, sentIn, ok) =>
      setHeld(
        r.ok
          ? ok === null
            ? null
            : { notice: { bad: false, text: ok }, view: null, moment: sentIn }
          : { notice: { bad: true, text: `Refused: ${r.reason}` }, view: latest.current, moment: null },
      ),
    clear: () => setHeld(null),
  };
}
