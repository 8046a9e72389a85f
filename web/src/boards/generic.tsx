// The generic board: any ruleset is playable with no UI code. The view as a readable tree, every menu
// element as a button, and a form for each action family with free parameters, generated from the
// JSON Schema the server publishes (GET /api/rulesets/:id/actions).
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { api, type ActionSchemas, type Template } from '../api.ts';
import { initialValue, SchemaFields, type Schema } from '../forms.tsx';
import { JsonTree } from './tree.tsx';
import type { BoardProps, Json } from './types.ts';
import { actionLabel } from './words.ts';

/**
 * The templates of the current menu (families with free parameters and their JSON Schema), which the
 * match page provides from its state frame; without it the board asks the server's schema endpoint.
 */
export const TemplatesContext = createContext<Template[] | null>(null);

const cache = new Map<string, Promise<ActionSchemas | null>>();
function schemasOf(ruleset: string): Promise<ActionSchemas | null> {
  let p = cache.get(ruleset);
  if (!p) {
    p = api.actionSchemas(ruleset).catch(() => null);
    cache.set(ruleset, p);
  }
  return p;
}

const typeOf = (a: Json): string | null =>
  a !== null && typeof a === 'object' && !Array.isArray(a) && typeof a.type === 'string' ? a.type : null;

function TemplateForm({
  family,
  schema,
  example,
  submit,
  busy,
}: {
  family: string;
  schema: Schema;
  example: Json | undefined;
  submit: (a: Json) => void;
  busy: boolean;
}) {
  const [value, setValue] = useState<Json>(() => initialValue(schema, example));
  return (
    <form
      class="template"
      aria-label={`${family.replace(/_/g, ' ')} with parameters`}
      onSubmit={(e) => {
        e.preventDefault();
        const v =
          value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value, type: family } : value;
        submit(v);
      }}
    >
      <h4>{family.replace(/_/g, ' ')}</h4>
      <SchemaFields schema={schema} value={value} onChange={setValue} name={family} />
      <button type="submit" disabled={busy}>
        Send {family.replace(/_/g, ' ')}
      </button>
    </form>
  );
}

export function GenericBoard(props: BoardProps) {
  const { ruleset, view, menu, readOnly, act } = props;
  const templates = useContext(TemplatesContext);
  const [schemas, setSchemas] = useState<ActionSchemas | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  useEffect(() => {
    if (readOnly || templates !== null) return;
    let live = true;
    void schemasOf(ruleset).then((s) => live && setSchemas(s));
    return () => {
      live = false;
    };
  }, [ruleset, readOnly, templates]);

  const submit = async (a: Json) => {
    setBusy(true);
    setRefusal(null);
    const r = await act(a);
    setBusy(false);
    if (!r.ok) setRefusal(`${r.code}: ${r.reason}`);
  };

  const actions = menu ?? [];
  const families = new Set(actions.map(typeOf).filter((t): t is string => t !== null));
  const forms: [string, Json][] = templates
    ? templates.map((t) => [t.family, t.schema])
    : schemas
      ? Object.entries(schemas.actions).filter(([f]) => schemas.sources[f] === 'template' && families.has(f))
      : [];
  return (
    <div class="generic">
      <section class="panel" aria-labelledby="gv-h">
        <h3 id="gv-h">View</h3>
        <div class="view-tree">
          <JsonTree value={view} />
        </div>
      </section>
      {readOnly ? null : (
        <section class="panel" aria-labelledby="gm-h">
          <h3 id="gm-h">Your actions</h3>
          {menu === null ? (
            <p class="muted">Nothing to decide now.</p>
          ) : (
            <>
              <ul class="menu" aria-label="Legal actions">
                {actions.map((a, i) => (
                  <li key={String(i)}>
                    <button type="button" disabled={busy} onClick={() => void submit(a)}>
                      {actionLabel(a)}
                    </button>
                  </li>
                ))}
              </ul>
              {forms.map(([family, schema]) => (
                <TemplateForm
                  key={family}
                  family={family}
                  schema={schema as Schema}
                  example={actions.find((a) => typeOf(a) === family)}
                  submit={(a) => void submit(a)}
                  busy={busy}
                />
              ))}
            </>
          )}
          <p role="alert" class="refusal">
            {refusal ? `Refused: ${refusal}` : ''}
          </p>
        </section>
      )}
    </div>
  );
}
