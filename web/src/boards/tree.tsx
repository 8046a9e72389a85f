// Any JSON as a readable, collapsible tree: objects and arrays as nested lists, keys in words.
import type { Json } from './types.ts';
import { scalar } from './words.ts';

function Leaf({ v }: { v: Json }) {
  const cls = v === null ? 'j-null' : typeof v === 'string' ? 'j-str' : typeof v === 'number' ? 'j-num' : 'j-bool';
  return <span class={cls}>{scalar(v)}</span>;
}

export function JsonTree({ value, name, depth = 0 }: { value: Json; name?: string; depth?: number }) {
  const key = name === undefined ? null : <span class="j-key">{name.replace(/_/g, ' ')}</span>;
  if (value === null || typeof value !== 'object') {
    return (
      <li>
        {key}
        {key ? ': ' : null}
        <Leaf v={value} />
      </li>
    );
  }
  const entries: [string, Json][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const count = Array.isArray(value)
    ? `${value.length} item${value.length === 1 ? '' : 's'}`
    : `${entries.length} field${entries.length === 1 ? '' : 's'}`;
  // short arrays of scalars read best on one line
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object') && value.length <= 16)
    return (
      <li>
        {key}
        {key ? ': ' : null}
        <span class="j-inline">[{value.map((v) => scalar(v)).join(', ')}]</span>
      </li>
    );
  const body = (
    <ul class="j-tree">
      {entries.map(([k, v]) => (
        <JsonTree key={k} name={k} value={v} depth={depth + 1} />
      ))}
    </ul>
  );
  if (name === undefined) return body;
  return (
    <li>
      <details open={depth < 3}>
        <summary>
          {key} <span class="hint">({count})</span>
        </summary>
        {body}
      </details>
    </li>
  );
}
