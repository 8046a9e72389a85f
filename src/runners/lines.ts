// Splitting a byte stream into lines with a size cap enforced while reading: a line over the cap is
// never held whole, only counted until its newline, so one huge line costs a chunk of memory, not
// the line. Used by `drive` (requests) and by log replay (any size of file).

/** A complete line (without its newline), or a line over the cap, skipped to its end. */
export type LineItem =
  | { kind: 'line'; no: number; text: string; terminated: boolean }
  | { kind: 'too_large'; no: number; bytes: number; head: string; terminated: boolean };

/** Bytes of an oversize line kept for a look at its beginning (a drive request id, say). */
const HEAD_BYTES = 256;

export async function* splitLines(input: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<LineItem> {
  let pieces: Buffer[] = [];
  let held = 0;
  let skipping = false;
  let skipped = 0;
  let head: Buffer = Buffer.alloc(0);
  let no = 0;
  const finishLine = (terminated: boolean): LineItem => {
    no++;
    if (skipping) {
      const item: LineItem = { kind: 'too_large', no, bytes: skipped, head: head.toString('utf8'), terminated };
      skipping = false;
      skipped = 0;
      head = Buffer.alloc(0);
      return item;
    }
    let buf = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, held);
    pieces = [];
    held = 0;
    if (buf.length > 0 && buf[buf.length - 1] === 0x0d) buf = buf.subarray(0, buf.length - 1);
    return { kind: 'line', no, text: buf.toString('utf8'), terminated };
  };
  const add = (part: Buffer) => {
    if (part.length === 0) return;
    if (skipping) {
      skipped += part.length;
      return;
    }
    if (held + part.length > maxBytes) {
      // over the cap: keep only the first bytes for a look, drop the rest as it arrives
      const all = Buffer.concat([...pieces, part.subarray(0, Math.max(0, HEAD_BYTES - held))]);
      head = Buffer.from(all.subarray(0, HEAD_BYTES));
      skipping = true;
      skipped = held + part.length;
      pieces = [];
      held = 0;
      return;
    }
    // copy, so a chunk the stream reuses or a large chunk is not pinned by a short line
    pieces.push(part.length < 65536 ? Buffer.from(part) : part);
    held += part.length;
  };
  for await (const chunk of input) {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (;;) {
      const nl = buf.indexOf(0x0a);
      if (nl < 0) {
        add(buf);
        break;
      }
      add(buf.subarray(0, nl));
      yield finishLine(true);
      buf = buf.subarray(nl + 1);
    }
  }
  if (skipping || held > 0) yield finishLine(false);
}
