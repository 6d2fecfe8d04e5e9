// A record's page: its fields by type (GET /api/record/{object}/{id}), edited in place (PUT, only the
// fields changed), created (POST) and deleted (DELETE, after a second press). Lookups link to their
// target; what the role may not write stays text.

import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Field, ObjectDetail, RecordRow } from '../api.js';
import { useConsole } from '../context.js';
import { href, navigate } from '../router.js';
import { Confirm, ErrorBox, Loading, Notice, PageTitle, useAction, useAsking, useLoad } from '../ui.js';
import { useUnsavedEdits } from '../unsaved.js';
import { DataAs } from './objects.js';
import { nameFieldOf } from './records.js';
import { FieldInput, shownValue } from './values.js';
import { RecordHistory } from './history.js';

type Value = string | number | null;

export function RecordView({ object, id }: { object: string; id: string | null }) {
  const c = useConsole();
  const detail = useLoad((signal) => c.data<ObjectDetail>('GET', `/api/objects/${encodeURIComponent(object)}`, undefined, signal), [c.org.id, object]);
  const record = useLoad(
    (signal) => (id ? c.data<{ Record: RecordRow }>('GET', `/api/record/${encodeURIComponent(object)}/${encodeURIComponent(id)}`, undefined, signal).then((d) => d.Record) : Promise.resolve(null)),
    [c.org.id, object, id],
  );
  const error = detail.error ?? record.error;
  if (error) return <section><PageTitle>{object}</PageTitle><p><a href={href('data', object)}>Back to {object}</a></p><ErrorBox error={error} /></section>;
  if (!detail.value || record.value === undefined) return <Loading what="the record" />;
  return (
    <>
      <RecordForm key={`${object}/${id ?? 'new'}`} obj={detail.value} record={record.value} reload={record.reload} />
      {id && <RecordHistory obj={detail.value} id={id} version={record.version} />}
    </>
  );
}

function RecordForm({ obj, record, reload }: { obj: ObjectDetail; record: RecordRow | null; reload: () => void }) {
  const c = useConsole();
  const creating = record === null;
  // An edit is asked like a second press (ui.tsx): it opens on its first field (Edit goes, so the
  // focus would fall to the page), and put away by Cancel, Escape or a save gives the focus back to Edit.
  const opened = { get current() { return firstField ? document.getElementById(`field-${firstField.name}`) : null; } };
  const edit = useAsking(opened);
  const editing = creating || edit.asking;
  // What the last save did, said until the next edit or save.
  const [saved, setSaved] = useState<string | null>(null);
  const [draft, setDraft] = useState<Record<string, Value>>({});
  const [names, setNames] = useState<Record<string, string>>({});
  // Lookups whose text was typed and not picked: a save is refused (with a message by each) rather
  // than saving the value the lookup had.
  const [unpicked, setUnpicked] = useState<Record<string, string>>({});
  const [refused, setRefused] = useState(false);
  // A record read again (after a save) replaces what was typed.
  useEffect(() => {
    setDraft({});
    setNames({});
    setUnpicked({});
    setRefused(false);
  }, [record]);
  const save = useAction();
  const remove = useAction();
  // Unsaved edits: a link followed, the page left or signing out asks first (unsaved.ts).
  const dirty = editing && (Object.keys(draft).length > 0 || Object.keys(unpicked).length > 0);
  useUnsavedEdits(dirty, 'this record');
  const mayUpdate = obj.permissions.includes('update');
  const mayDelete = obj.permissions.includes('delete');
  const id = record ? String(record[obj.primaryKey]) : null;
  const base = `/api/record/${encodeURIComponent(obj.systemName)}`;

  // Name fields are shown beside their lookups; the key stays in the header.
  const shown = obj.fields.filter((f) => f.derivedFrom === undefined && f.name !== obj.primaryKey);
  const editable = (f: Field) => !f.readOnly && (creating || mayUpdate);
  const firstField = shown.find(editable);
  // A field the server fills on create (ownerid, statecode) may be left empty there, never on an edit.
  const asked = (f: Field): Field => (creating && f.hasDefault ? { ...f, required: false } : f);
  const valueOf = (f: Field): Value => (f.name in draft ? draft[f.name]! : (record?.[f.name] ?? null));
  const nameOf = (f: Field): Value => {
    if (f.name in names) return names[f.name]!;
    const nameField = nameFieldOf(obj, f);
    return nameField && record ? record[nameField.name] ?? null : null;
  };

  const submit = (e: Event) => {
    e.preventDefault();
    const first = Object.keys(unpicked)[0];
    if (first !== undefined) {
      setRefused(true);
      document.getElementById(`field-${first}`)?.focus();
      return;
    }
    setSaved(null);
    void save.run(async () => {
      if (creating) {
        const body = Object.fromEntries(Object.entries(draft).filter(([, v]) => v !== null));
        const made = await c.data<{ Record: RecordRow }>('POST', base, body);
        navigate('data', obj.systemName, String(made.Record[obj.primaryKey]));
      } else {
        const changes = Object.fromEntries(Object.entries(draft).filter(([k, v]) => v !== (record![k] ?? null)));
        const count = Object.keys(changes).length;
        if (count > 0) await c.data('PUT', `${base}/${id}`, changes);
        setSaved(count === 0 ? 'Nothing to save: no field was changed.' : `Saved: ${count === 1 ? '1 field' : `${count} fields`} changed.`);
        // The draft stays shown until the record is read again (below), not the old values meanwhile.
        edit.keep();
        reload();
      }
    });
  };
  const cancel = () => {
    setDraft({});
    setNames({});
    setUnpicked({});
    setRefused(false);
    save.clear();
    edit.keep();
  };
  const destroy = () => remove.run(async () => {
    await c.data('DELETE', `${base}/${id}`);
    navigate('data', obj.systemName);
  });

  const title = creating ? `New ${obj.name.toLowerCase()}` : String(record![obj.primaryField] ?? '(no name)');
  const actions: ComponentChildren = creating ? null : (
    <>
      {!editing && mayUpdate && <button type="button" class="primary" ref={edit.first} onClick={() => { setSaved(null); edit.ask(); }}>Edit</button>}
      {mayDelete && <Confirm label="Delete" ask="Confirm deletion" confirm="Delete for good" keep="Keep it" onConfirm={() => void destroy()} busy={remove.busy} />}
    </>
  );

  return (
    <section>
      <PageTitle actions={actions}><bdi>{title}</bdi></PageTitle>
      <DataAs />
      <p class="muted">
        <a href={href('data')}>Objects</a> › <a href={href('data', obj.systemName)}>{obj.collectionName}</a>
        {id && <> › <code>{id}</code></>}
      </p>
      <ErrorBox error={remove.error} />
      {/* At the top, by Edit, which has the focus after a save. */}
      {saved && <Notice>{saved}</Notice>}
      <form class="record" onSubmit={submit} aria-label={title} onKeyDown={(e) => {
        // Escape cancels an edit as Cancel does, unless a field used it (a lookup closing its list);
        // a key pressed by mistake asks first when there are changes, as leaving the page does.
        if (e.key !== 'Escape' || creating || !editing || e.defaultPrevented) return;
        e.preventDefault();
        if (!dirty || confirm('Drop the unsaved changes to this record?')) cancel();
      }}>
        <dl class="fields">
          {shown.map((f) => {
            const inputId = `field-${f.name}`;
            return (
              <div key={f.name} class="field-row" data-field={f.name}>
                <dt><label for={editing && editable(f) ? inputId : undefined}>{f.label}{asked(f).required && editing ? ' *' : ''}</label> <code class="muted small">{f.name}</code></dt>
                <dd>
                  {editing && editable(f) ? (
                    <>
                      <FieldInput
                        field={asked(f)} id={inputId} value={valueOf(f)} name={nameOf(f)}
                        onChange={(v, name) => {
                          setDraft((d) => ({ ...d, [f.name]: v }));
                          if (name !== undefined) setNames((n) => ({ ...n, [f.name]: name }));
                        }}
                        onUnpicked={(text) => setUnpicked(({ [f.name]: _, ...rest }) => (text === null ? rest : { ...rest, [f.name]: text }))}
                        problem={refused && unpicked[f.name] !== undefined ? `"${unpicked[f.name]}" was not picked: choose a record from the list, or clear the field.` : null}
                      />
                      {f.type === 'datetime' && <span id={`${inputId}-zone`} class="muted small"> UTC</span>}
                    </>
                  ) : (
                    <Shown field={f} value={valueOf(f)} name={nameOf(f)} />
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
        {editing && (
          <div class="form-actions">
            <button type="submit" class="primary" disabled={save.busy}>{creating ? 'Create' : 'Save'}</button>
            {creating
              ? <a class="button" href={href('data', obj.systemName)}>Cancel</a>
              : <button type="button" onClick={cancel}>Cancel</button>}
          </div>
        )}
        <ErrorBox error={save.error} />
      </form>
    </section>
  );
}

function Shown({ field, value, name }: { field: Field; value: Value; name: Value }) {
  if (field.type === 'lookup' && value !== null && field.target) {
    return <a href={href('data', field.target.systemName, String(value))}><bdi>{name === null ? String(value) : String(name)}</bdi></a>;
  }
  // Only a web address is a link: a javascript: or data: one would run or open something else.
  if (field.type === 'url' && value && /^https?:\/\//i.test(String(value))) return <a href={String(value)} rel="noreferrer noopener" target="_blank" dir="auto">{String(value)}</a>;
  if (field.type === 'textarea' || field.type === 'html') return <span class="pre" dir="auto">{shownValue(field, value)}</span>;
  return <span dir="auto">{shownValue(field, value)}</span>;
}
