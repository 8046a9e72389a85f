// Forms generated from JSON Schema: the lobby's config form and the generic board's action forms.
// Handles what our schemas use (objects, enums, integers/numbers with bounds, booleans, strings, arrays
// of scalars); anything else is edited as JSON text, checked on submit.
import { useState } from 'preact/hooks';
import type { Json } from './boards/types.ts';

export type Schema = { [k: string]: Json };

const obj = (v: Json | undefined): v is { [k: string]: Json } =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

let uid = 0;
const nextId = (p: string) => `${p}-${++uid}`;

/** A starting value for `schema`: its default, its example, else the simplest legal value. */
export function initialValue(schema: Schema, given?: Json): Json {
  if (given !== undefined) return given;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const t = schema.type;
  if (t === 'object' || obj(schema.properties)) {
    const out: { [k: string]: Json } = {};
    const req = Array.isArray(schema.required) ? schema.required : [];
    for (const [k, s] of Object.entries(obj(schema.properties) ? schema.properties : {}))
      if (obj(s) && (req.includes(k) || s.default !== undefined || s.const !== undefined))
        out[k] = initialValue(s as Schema);
    return out;
  }
  if (t === 'integer' || t === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 0;
  if (t === 'boolean') return false;
  if (t === 'array') return [];
  if (t === 'string') return '';
  return null;
}

type FieldProps = { name: string; schema: Schema; value: Json; onChange: (v: Json) => void; required?: boolean };

function label(name: string, schema: Schema): string {
  return typeof schema.title === 'string' ? schema.title : name;
}

function Field({ name, schema, value, onChange, required }: FieldProps) {
  const [id] = useState(() => nextId('f'));
  const [text, setText] = useState<string | null>(null);
  const desc = typeof schema.description === 'string' ? schema.description : null;
  const descId = desc ? `${id}-d` : undefined;
  const Help = () =>
    desc ? (
      <small id={descId} class="help">
        {desc}
      </small>
    ) : null;
  if (schema.const !== undefined) return null;
  // a name from a list or a value of another kind (a mines fixture board by name, or a board
  // object): the names as a choice, "none" leaves the field out, "other" edits JSON text
  const t0 = schema.type;
  // a declared union (`anyOf`) of a names enum and something else reads the same
  const namesOrOther =
    (Array.isArray(t0) && t0.includes('string')) ||
    (Array.isArray(schema.anyOf) && schema.anyOf.some((b) => obj(b) && Array.isArray(b.enum)));
  if (
    Array.isArray(schema.examples) &&
    namesOrOther &&
    (text === null || value === null || typeof value === 'string')
  ) {
    const names = schema.examples.filter((x): x is string => typeof x === 'string');
    const chosen = typeof value === 'string' && names.includes(value) ? value : value === null ? '' : '\u0000other';
    if (chosen !== '\u0000other')
      return (
        <div class="field">
          <label for={id}>{label(name, schema)}</label>
          <select
            id={id}
            aria-describedby={descId}
            value={chosen}
            onChange={(e) => {
              const v = (e.target as HTMLSelectElement).value;
              if (v === '\u0000other') setText('{}');
              onChange(v === '' ? null : v === '\u0000other' ? {} : v);
            }}
          >
            <option value="">none (the default)</option>
            {names.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
            <option value={'\u0000other'}>other (JSON)</option>
          </select>
          <Help />
        </div>
      );
  }
  if (Array.isArray(schema.enum)) {
    const options = schema.enum;
    return (
      <div class="field">
        <label for={id}>{label(name, schema)}</label>
        <select
          id={id}
          aria-describedby={descId}
          value={String(options.findIndex((o) => JSON.stringify(o) === JSON.stringify(value)))}
          onChange={(e) => onChange(options[Number((e.target as HTMLSelectElement).value)])}
        >
          {options.map((o, i) => (
            <option key={String(i)} value={String(i)}>
              {typeof o === 'string' ? o : JSON.stringify(o)}
            </option>
          ))}
        </select>
        <Help />
      </div>
    );
  }
  const t = schema.type;
  if (t === 'integer' || t === 'number')
    return (
      <div class="field">
        <label for={id}>{label(name, schema)}</label>
        <input
          id={id}
          type="number"
          aria-describedby={descId}
          required={required}
          step={t === 'integer' ? 1 : 'any'}
          min={typeof schema.minimum === 'number' ? schema.minimum : undefined}
          max={typeof schema.maximum === 'number' ? schema.maximum : undefined}
          value={typeof value === 'number' ? String(value) : ''}
          placeholder={value === null ? 'default' : undefined}
          onInput={(e) => {
            const raw = (e.target as HTMLInputElement).value;
            onChange(raw === '' ? null : Number(raw));
          }}
        />
        <Help />
      </div>
    );
  if (t === 'boolean')
    return (
      <div class="field check">
        <input
          id={id}
          type="checkbox"
          aria-describedby={descId}
          checked={value === true}
          onChange={(e) => onChange((e.target as HTMLInputElement).checked)}
        />
        <label for={id}>{label(name, schema)}</label>
        <Help />
      </div>
    );
  if (t === 'string')
    return (
      <div class="field">
        <label for={id}>{label(name, schema)}</label>
        <input
          id={id}
          type="text"
          aria-describedby={descId}
          required={required}
          maxLength={typeof schema.maxLength === 'number' ? schema.maxLength : undefined}
          value={typeof value === 'string' ? value : ''}
          onInput={(e) => onChange((e.target as HTMLInputElement).value)}
        />
        <Help />
      </div>
    );
  // an optional object nobody filled (GROUND's edition) is JSON text, empty: drawn as fields, its
  // own required members would block the whole form
  if (
    (t === 'object' || obj(schema.properties)) &&
    obj(schema.properties) &&
    (required || (value !== undefined && value !== null))
  )
    return (
      <fieldset class="field">
        <legend>{label(name, schema)}</legend>
        <ObjectFields schema={schema} value={value} onChange={onChange} />
        <Help />
      </fieldset>
    );
  // anything else (arrays, unions, free objects): JSON text, parsed as it is typed
  // an optional field nobody filled shows empty (its default is the ruleset's), not "null"
  const shown = text ?? (value === undefined || (value === null && !required) ? '' : JSON.stringify(value));
  let bad = false;
  try {
    if (shown.trim() !== '') JSON.parse(shown);
  } catch {
    bad = true;
  }
  return (
    <div class="field">
      <label for={id}>
        {label(name, schema)} <span class="hint">(JSON)</span>
      </label>
      <textarea
        id={id}
        rows={2}
        aria-describedby={descId}
        aria-invalid={bad ? 'true' : undefined}
        data-invalid-reason={bad ? `${label(name, schema)} is not valid JSON` : undefined}
        value={shown}
        onInput={(e) => {
          const raw = (e.target as HTMLTextAreaElement).value;
          setText(raw);
          try {
            // emptied: the field is unset again (null drops an optional field)
            onChange(raw.trim() === '' ? null : (JSON.parse(raw) as Json));
          } catch {
            // kept as text until it parses
          }
        }}
      />
      {bad ? <small class="error">not valid JSON: the match cannot be created until it is</small> : null}
      <Help />
    </div>
  );
}

function ObjectFields({ schema, value, onChange }: { schema: Schema; value: Json; onChange: (v: Json) => void }) {
  const props = obj(schema.properties) ? schema.properties : {};
  const req = Array.isArray(schema.required) ? schema.required : [];
  const cur = obj(value) ? value : {};
  return (
    <>
      {Object.entries(props).map(([k, s]) =>
        obj(s) ? (
          <Field
            key={k}
            name={k}
            schema={s as Schema}
            required={req.includes(k)}
            // an optional field with no default stays empty (the ruleset's own default applies), not 0
            value={
              cur[k] ?? (req.includes(k) || (s as Schema).default !== undefined ? initialValue(s as Schema) : null)
            }
            onChange={(v) => {
              const next = { ...cur };
              if (v === null && !req.includes(k)) delete next[k];
              else next[k] = v;
              onChange(next);
            }}
          />
        ) : null,
      )}
    </>
  );
}

/** The fields of one schema (an object's properties, or a single field), controlled by the caller. */
export function SchemaFields({
  schema,
  value,
  onChange,
  name = 'value',
}: {
  schema: Schema;
  value: Json;
  onChange: (v: Json) => void;
  name?: string;
}) {
  if (obj(schema.properties)) return <ObjectFields schema={schema} value={value} onChange={onChange} />;
  return <Field name={name} schema={schema} value={value} onChange={onChange} />;
}
