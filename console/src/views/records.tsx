// One object's records as a table (POST /api/query): chosen columns, sort by a column header, pages,
// and a filter in the query language. Each record opens its page; lookups link to their target.

import { useEffect, useState } from 'preact/hooks';
import type { Field, ObjectDetail, QueryPage, RecordRow } from '../api.js';
import { useConsole } from '../context.js';
import { href } from '../router.js';
import { loadPreference, savePreference } from '../session.js';
import { ErrorBox, formatNumber, Loading, PageTitle, Pager, useLoad } from '../ui.js';
import { FilterBox } from './filter-box.js';
import { DataAs } from './objects.js';
import { shownValue } from './values.js';

const PAGE_SIZE = 25;

/** The columns a table starts with: the primary field, a few data fields, the owner and the creation time. */
function defaultColumns(obj: ObjectDetail): string[] {
  const data = obj.fields.filter((f) => !f.readOnly && f.name !== obj.primaryField && f.type !== 'textarea' && f.type !== 'html').slice(0, 3).map((f) => f.name);
  const extra = ['ownerid', 'createdon'].filter((n) => obj.fields.some((f) => f.name === n));
  return [obj.primaryField, ...data, ...extra];
}

/** The name field of a lookup (ownerid → ownername), shown as the link's text. */
export const nameFieldOf = (obj: ObjectDetail, lookup: Field): Field | undefined => obj.fields.find((f) => f.derivedFrom === lookup.name);

export function RecordsView({ object }: { object: string }) {
  const c = useConsole();
  const detail = useLoad((signal) => c.data<ObjectDetail>('GET', `/api/objects/${encodeURIComponent(object)}`, undefined, signal), [c.org.id, object]);
  if (detail.error) return <section><PageTitle>{object}</PageTitle><ErrorBox error={detail.error} /></section>;
  if (!detail.value) return <Loading what={object} />;
  return <Table key={`${c.org.id}/${object}`} obj={detail.value} />;
}

interface Sort {
  readonly field: string;
  readonly desc: boolean;
}

interface TableView {
  readonly sort: Sort;
  readonly page: number;
  readonly filter: string;
}

function Table({ obj }: { obj: ObjectDetail }) {
  const c = useConsole();
  const prefKey = `columns-${c.org.id}-${obj.systemName}`;
  const fieldsByName = new Map(obj.fields.map((f) => [f.name, f]));
  const [columns, setColumns] = useState<string[]>(() => loadPreference<string[]>(prefKey, defaultColumns(obj)).filter((n) => fieldsByName.has(n)));
  // Sort, page and filter, kept for the tab like the columns: opening a record and coming back finds the table as it was.
  const viewKey = `table-${c.org.id}-${obj.systemName}`;
  const [view, setView] = useState<TableView>(() => loadPreference<TableView>(viewKey, { sort: { field: 'createdon', desc: true }, page: 1, filter: '' }));
  const { sort, page, filter } = view;
  const change = (next: Partial<TableView>) => setView((v) => {
    const changed = { ...v, ...next };
    savePreference(viewKey, changed);
    return changed;
  });

  const shown = columns.map((n) => fieldsByName.get(n)!).filter(Boolean);
  // The key to link each row, and the name field of each lookup shown, are asked for too.
  const names = shown.filter((f) => f.type === 'lookup').map((f) => nameFieldOf(obj, f)?.name).filter((n): n is string => n !== undefined);
  // Without the primary field's column, each row opens its record from a first column of its own.
  const opener = !columns.includes(obj.primaryField);
  const asked = [...new Set([obj.primaryKey, obj.primaryField, ...columns, ...names])];
  const rows = useLoad(
    (signal) => pageOrLast(page, (n) => c.data<QueryPage>('POST', '/api/query', {
      objecttype: obj.systemName, fields: asked.join(','), page_size: PAGE_SIZE, page_number: n,
      sort_by: sort.field, sort_type: sort.desc ? 'desc' : 'asc', ...(filter ? { query: filter } : {}),
    }, signal)),
    [obj.systemName, asked.join(','), page, sort.field, sort.desc, filter],
  );
  // A kept page found past the end shows the last one: the table (and what it keeps) moves there.
  const shownPage = rows.value?.PageNum;
  useEffect(() => {
    if (shownPage !== undefined && shownPage !== page) change({ page: shownPage });
  }, [shownPage]);

  const choose = (name: string, on: boolean) => {
    const next = on ? obj.fields.map((f) => f.name).filter((n) => n === name || columns.includes(n)) : columns.filter((n) => n !== name);
    setColumns(next);
    savePreference(prefKey, next);
  };
  const sortBy = (field: string) => change({ sort: { field, desc: sort.field === field ? !sort.desc : false }, page: 1 });
  const applyFilter = (text: string) => change({ filter: text, page: 1 });
  const writable = obj.permissions.includes('create');
  // The page shown until the next one is read: the rows and the pager stay (and the focus with them).
  const shownRows = rows.latest;

  return (
    <section>
      <PageTitle actions={writable && <a class="button primary" href={href('data', obj.systemName, 'new')}>New {obj.name.toLowerCase()}</a>}>
        {obj.collectionName}
      </PageTitle>
      <DataAs />
      <p class="muted">
        <a href={href('data')}>Objects</a> › <code>{obj.systemName}</code> · {obj.records === null ? '' : `${formatNumber(obj.records)} records in all`}
      </p>
      <FilterBox fields={obj.fields} value={filter} onSubmit={applyFilter} error={filter ? rows.error : null} />
      <details class="columns">
        <summary>Columns ({columns.length})</summary>
        <fieldset>
          <legend class="sr-only">Columns shown</legend>
          {obj.fields.map((f) => (
            <label key={f.name} class="choice">
              <input type="checkbox" checked={columns.includes(f.name)} onChange={(e) => choose(f.name, (e.target as HTMLInputElement).checked)} />
              {f.label} <code class="muted">{f.name}</code>
            </label>
          ))}
        </fieldset>
      </details>
      {!filter && <ErrorBox error={rows.error} />}
      {shown.length === 0 ? <p class="muted">No column chosen: tick at least one under Columns.</p> : (
        <div class="table-wrap">
          <table class="grid records" aria-label={`${obj.collectionName}, page ${page}`} aria-busy={rows.loading}>
            <thead>
              <tr>
                {opener && <th scope="col"><span class="sr-only">Record</span></th>}
                {shown.map((f) => {
                  const sorted = sort.field === f.name;
                  return (
                    <th key={f.name} scope="col" aria-sort={sorted ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
                      <button type="button" class="sort" onClick={() => sortBy(f.name)} title={`Sort by ${f.label}`}>
                        {f.label}<span aria-hidden="true">{sorted ? (sort.desc ? ' ▼' : ' ▲') : ''}</span>
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {(shownRows?.Data ?? []).map((row) => (
                <tr key={String(row[obj.primaryKey])}>
                  {opener && <td><a href={recordHref(obj, row)} aria-label={`Open ${nameOf(obj, row)}`}>Open</a></td>}
                  {shown.map((f) => <td key={f.name}><Cell obj={obj} field={f} row={row} /></td>)}
                </tr>
              ))}
              {shownRows && shownRows.Data.length === 0 && (
                <tr><td colSpan={shown.length + (opener ? 1 : 0)} class="muted">No records{filter ? ' match the filter' : ''}.</td></tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Pages" page={page} last={shownRows?.IsLastPage ?? true} busy={rows.loading} onPage={(p) => change({ page: p })}>
        <span aria-live="polite">Page {page}{obj.records !== null && !filter ? ` of ${Math.max(1, Math.ceil(obj.records / PAGE_SIZE))}` : ''}</span>
      </Pager>
    </section>
  );
}

/**
 * Page `page`, or when it has no rows (a kept page whose records were deleted since) the last page
 * that has some, found by halving as IsLastPage is exact; page 1 when none is left. PageNum says
 * which page it is.
 */
async function pageOrLast(page: number, read: (page: number) => Promise<QueryPage>): Promise<QueryPage> {
  const asked = await read(page);
  if (asked.Data.length > 0 || page === 1) return { ...asked, PageNum: page };
  let found: QueryPage | null = null;
  let low = 1;
  let high = page - 1;
  while (low <= high) {
    const middle = Math.ceil((low + high) / 2);
    const got = await read(middle);
    if (got.Data.length === 0 && middle > 1) {
      high = middle - 1;
      continue;
    }
    found = { ...got, PageNum: middle };
    if (got.IsLastPage) break;
    low = middle + 1;
  }
  // Page 1 is always read before the search ends without a page that has rows.
  return found!;
}

const recordHref = (obj: ObjectDetail, row: RecordRow): string => href('data', obj.systemName, String(row[obj.primaryKey]));

/** A record's name: its primary field's value. */
function nameOf(obj: ObjectDetail, row: RecordRow): string {
  const value = row[obj.primaryField];
  return value === null || value === undefined || value === '' ? '(no name)' : String(value);
}

function Cell({ obj, field, row }: { obj: ObjectDetail; field: Field; row: RecordRow }) {
  const value = row[field.name];
  if (field.name === obj.primaryField) return <a href={recordHref(obj, row)}><bdi>{nameOf(obj, row)}</bdi></a>;
  if (field.type === 'lookup' && value !== null && field.target) {
    const name = nameFieldOf(obj, field);
    const text = name ? row[name.name] : null;
    return <a href={href('data', field.target.systemName, String(value))}><bdi>{text === null || text === undefined ? String(value) : String(text)}</bdi></a>;
  }
  return <bdi>{shownValue(field, value)}</bdi>;
}
