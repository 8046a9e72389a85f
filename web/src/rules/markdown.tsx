// A small reader for the generated rules pages (`arbiter rules`): headings, paragraphs, bullet
// lists, tables, **bold**, `code` and [links](…). It builds elements, never HTML strings, so
// nothing in a page can inject markup. Anything else shows as plain text.
import type { ComponentChild } from 'preact';

/** Inline marks: **bold**, `code`, [text](url) (http(s) and page paths only). */
function inline(text: string): ComponentChild[] {
  const out: ComponentChild[] = [];
  const re = /\*\*([^*]+)\*\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    if (m[1] !== undefined) out.push(<strong>{m[1]}</strong>);
    else if (m[2] !== undefined) out.push(<code>{m[2]}</code>);
    else if (/^(https?:\/\/|\/)/.test(m[4])) out.push(<a href={m[4]}>{m[3]}</a>);
    else out.push(m[3]);
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

const cells = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

/** The id a heading gets (for in-page links): lower case, words joined by dashes. */
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * The markdown as elements. Headings are shifted by `shift` levels (a page's own h1 stays the
 * page's title) and never skip a level after the first.
 */
export function Markdown({ text, shift = 0 }: { text: string; shift?: number }) {
  const lines = text.replace(/<!--[\s\S]*?-->/g, '').split('\n');
  const blocks: ComponentChild[] = [];
  let para: string[] = [];
  let lastLevel = 0;
  const flush = () => {
    if (para.length) blocks.push(<p>{inline(para.join(' '))}</p>);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      flush();
      let level = Math.min(6, h[1].length + shift);
      if (lastLevel && level > lastLevel + 1) level = lastLevel + 1;
      lastLevel = level;
      const Tag = `h${level}` as 'h2';
      blocks.push(<Tag id={slug(h[2])}>{inline(h[2])}</Tag>);
    } else if (/^\s*[-*]\s+/.test(line)) {
      flush();
      const items: string[] = [];
      while (i < lines.length && /^\s*[-*]\s+/.test(lines[i])) {
        let item = lines[i].replace(/^\s*[-*]\s+/, '');
        // continuation lines of the same item
        while (i + 1 < lines.length && /^\s{2,}\S/.test(lines[i + 1]) && !/^\s*[-*]\s+/.test(lines[i + 1]))
          item += ` ${lines[++i].trim()}`;
        items.push(item);
        i++;
      }
      i--;
      blocks.push(
        <ul>
          {items.map((t, k) => (
            <li key={String(k)}>{inline(t)}</li>
          ))}
        </ul>,
      );
    } else if (/^\s*\|/.test(line) && i + 1 < lines.length && /^\s*\|[\s|:-]+\|\s*$/.test(lines[i + 1])) {
      flush();
      const head = cells(line);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(cells(lines[i++]));
      i--;
      blocks.push(
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                {head.map((c, k) => (
                  <th key={String(k)} scope="col">
                    {inline(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r, k) => (
                <tr key={String(k)}>
                  {r.map((c, j) => (
                    <td key={String(j)}>{inline(c)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>,
      );
    } else if (line.trim() === '') flush();
    else para.push(line.trim());
  }
  flush();
  return <>{blocks}</>;
}
