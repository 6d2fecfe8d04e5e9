// Field values shown and edited by their type: picklists as their labels and as choices, dates and
// date-times as the browser's date inputs (UTC, as the API keeps them), numbers as numbers, lookups
// as a search of their target object.

import { useEffect, useRef, useState } from 'preact/hooks';
import type { Field, QueryPage } from '../api.js';
import { useConsole, type Console } from '../context.js';
import { href } from '../router.js';
import { messageOf } from '../ui.js';

type Value = string | number | null;

/** A value as text: a picklist's label, a date-time with its zone, '—' for none. */
export function shownValue(field: Field, value: Value | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field.type === 'picklist') return field.options?.find((o) => o.value === Number(value))?.label ?? String(value);
  if (field.type === 'datetime') return `${String(value).replace('T', ' ')} UTC`;
  return String(value);
}

/** The value an input holds, as the API takes it: numbers as numbers, empty as null, date-times with seconds. */
export function valueOfInput(field: Field, text: string): Value {
  if (text === '') return null;
  switch (field.type) {
    case 'number':
    case 'picklist':
      return Number(text);
    case 'datetime':
      return text.length === 16 ? `${text}:00` : text;
    default:
      return text;
  }
}

/** The text an input shows for a value. */
export function inputOfValue(value: Value | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

export interface InputProps {
  readonly field: Field;
  readonly id: string;
  readonly value: Value;
  /** For a lookup: the name of the record it points to. */
  readonly name?: Value;
  readonly onChange: (value: Value, name?: string) => void;
  /** For a lookup: the text typed and not picked from the list (null once picked or cleared). */
  readonly onUnpicked?: (text: string | null) => void;
  /** For a lookup: why the save was refused (its text was not picked), shown by the field. */
  readonly problem?: string | null;
}

export function FieldInput({ field, id, value, name, onChange, onUnpicked, problem }: InputProps) {
  const text = inputOfValue(value);
  const common = { id, name: field.name, required: field.required, 'aria-required': field.required };
  const onText = (e: Event) => onChange(valueOfInput(field, (e.target as HTMLInputElement).value));
  switch (field.type) {
    case 'picklist':
      return (
        <select {...common} dir="auto" value={text} onChange={onText}>
          <option value="">—</option>
          {(field.options ?? []).map((o) => <option key={o.value} value={String(o.value)} dir="auto">{o.label}</option>)}
        </select>
      );
    case 'lookup':
      return <LookupInput {...{ field, id, value, name: name ?? null, onChange, onUnpicked, problem }} />;
    case 'date':
      return <input {...common} type="date" value={text} onInput={onText} />;
    case 'datetime':
      return <input {...common} type="datetime-local" step={1} value={text.slice(0, 19)} onInput={onText} aria-describedby={`${id}-zone`} />;
    case 'number':
      return <input {...common} type="number" step={field.precision ? 10 ** -field.precision : 1} value={text} onInput={onText} />;
    case 'textarea':
    case 'html':
      return <textarea {...common} dir="auto" rows={4} maxLength={field.maxLength ?? undefined} value={text} onInput={onText} />;
    default: {
      const type = field.type === 'email' ? 'email' : field.type === 'url' ? 'url' : field.type === 'telephone' ? 'tel' : 'text';
      return <input {...common} type={type} dir="auto" maxLength={field.maxLength ?? undefined} value={text} onInput={onText} />;
    }
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A value in single quotes, as the query language writes it ('' is a quote). */
const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;

const LIST = 8;
/** Text with % or _ is searched with those as one-character wildcards, then kept where it truly holds them: this many rows a read, */
const WILDCARD_READ = 50;
/** at most this many reads. */
const WILDCARD_PAGES = 4;

/**
 * The records of `target` whose primary field holds `text` (without regard to case), first LIST by
 * name. The query language has no escape for its wildcards (docs/query.md: `%` and `_` in
 * `start-with`), so a typed `%` or `_` is sent as `_` (any one character: itself among them) and the
 * rows whose name does not hold the text as typed are dropped here, reading on until LIST are found,
 * the last row is read, or WILDCARD_PAGES reads were made (`partial` then says some may be missing).
 */
async function searchByName(c: Pick<Console, 'data'>, target: NonNullable<Field['target']>, text: string, signal: AbortSignal): Promise<{ found: Array<{ id: string; name: string }>; partial: boolean }> {
  const wild = /[%_]/.test(text);
  const folded = text.toLowerCase();
  const found: Array<{ id: string; name: string }> = [];
  for (let page = 1; ; page++) {
    const read = await c.data<QueryPage>('POST', '/api/query', {
      objecttype: target.systemName, fields: `${target.primaryKey},${target.primaryField}`, page_size: wild ? WILDCARD_READ : LIST, page_number: page,
      query: `${target.primaryField} start-with ${quoted(`%${text.replace(/%/g, '_')}`)}`, sort_by: target.primaryField,
    }, signal);
    for (const r of read.Data) {
      const name = r[target.primaryField];
      if (wild && !(typeof name === 'string' && name.toLowerCase().includes(folded))) continue;
      if (found.length < LIST) found.push({ id: String(r[target.primaryKey]), name: String(name ?? r[target.primaryKey]) });
    }
    if (!wild || found.length >= LIST || read.IsLastPage) return { found, partial: false };
    if (page === WILDCARD_PAGES) return { found, partial: true };
  }
}

/** A lookup: type part of a name to search the target object by its primary field; arrows and Enter choose. */
function LookupInput({ field, id, value, name, onChange, onUnpicked, problem }: InputProps) {
  const c = useConsole();
  const target = field.target!;
  const [text, setText] = useState(name === null || name === undefined ? inputOfValue(value) : String(name));
  const [found, setFound] = useState<Array<{ id: string; name: string }>>([]);
  const [error, setError] = useState<string | null>(null);
  /** The search read its most candidates and found fewer than a list's worth (text with % or _). */
  const [partial, setPartial] = useState(false);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const typed = useRef(false);

  useEffect(() => {
    if (!typed.current || text.trim() === '') {
      setFound([]);
      return undefined;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchByName(c, target, text.trim(), controller.signal).then((result) => {
        setFound(result.found);
        setPartial(result.partial);
        setError(null);
        setOpen(true);
      }, (err: unknown) => !controller.signal.aborted && setError(messageOf(err)));
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text]);

  const options = UUID.test(text.trim()) && !found.some((f) => f.id === text.trim().toLowerCase())
    ? [...found, { id: text.trim().toLowerCase(), name: `the ${target.systemName} with id ${text.trim()}` }]
    : found;
  const choose = (o: { id: string; name: string } | null) => {
    typed.current = false;
    setText(o ? o.name : '');
    setFound([]);
    setOpen(false);
    setActive(-1);
    onChange(o ? o.id : null, o?.name);
    onUnpicked?.(null);
  };
  const onType = (typedText: string) => {
    // Emptied: the lookup is cleared. Otherwise the text stays unpicked until a record is chosen.
    if (typedText.trim() === '') return choose(null);
    typed.current = true;
    setText(typedText);
    setActive(-1);
    onUnpicked?.(typedText);
  };
  const showing = open && options.length > 0;
  const listId = `${id}-options`;

  return (
    <div class="combo lookup">
      <input
        id={id} type="search" dir="auto" value={text} autoComplete="off" role="combobox" aria-autocomplete="list" required={field.required} aria-required={field.required}
        aria-expanded={showing} aria-controls={listId} aria-activedescendant={showing && active >= 0 ? `${listId}-${active}` : undefined}
        placeholder={`Search ${target.systemName} by ${target.primaryField}`}
        aria-invalid={problem ? true : undefined} aria-describedby={problem ? `${id}-problem` : undefined}
        onInput={(e) => onType((e.target as HTMLInputElement).value)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(true);
            const n = options.length;
            if (n) setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : (a - 1 + n) % n));
          } else if (e.key === 'Enter') {
            // Never the form's submit: Enter takes the option highlighted, or shows the list.
            e.preventDefault();
            if (showing && active >= 0) choose(options[active]!);
            else setOpen(true);
          } else if (e.key === 'Escape' && showing) {
            // The list closes; the form around it (a record's edit, which Escape cancels) is left be.
            e.preventDefault();
            setOpen(false);
          }
        }}
      />
      {value !== null && <a class="small" href={href('data', target.systemName, String(value))}>open</a>}
      {value !== null && !field.required && <button type="button" class="link-button small" onClick={() => choose(null)}>clear</button>}
      {showing && (
        <ul id={listId} role="listbox" class="suggestions" aria-label={`${target.systemName} records`}>
          {options.map((o, i) => (
            <li key={o.id} id={`${listId}-${i}`} role="option" aria-selected={i === active} class={i === active ? 'active' : undefined}
              onMouseDown={(e) => { e.preventDefault(); choose(o); }}>
              <bdi>{o.name}</bdi>
            </li>
          ))}
        </ul>
      )}
      {partial && open && <span class="muted small">The first {WILDCARD_READ * WILDCARD_PAGES} names like this were searched: type more to narrow it.</span>}
      {error && <span class="error small" role="alert">{error}</span>}
      {problem && <span id={`${id}-problem`} class="error small field-error" role="alert">{problem}</span>}
    </div>
  );
}
