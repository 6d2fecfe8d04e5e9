// A record's history (GET /api/record/{object}/{id}/history): each create, update and delete, newest
// first, with who made it and each field's value before and after, by the field's label and type.

import { useState } from 'preact/hooks';
import type { Field, ObjectDetail, QueryPage } from '../api.js';
import { useConsole, type Console } from '../context.js';
import { href } from '../router.js';
import { ErrorBox, Loading, Pager, useLoad } from '../ui.js';
import { shownValue } from './values.js';

interface Entry {
  sequence: number;
  operation: 'create' | 'update' | 'delete';
  /** null when the role hides the record's modifiedon (createdon), whose value it is. */
  changedon: string | null;
  userid: string | null;
  fields: Record<string, { old: string | number | null; new: string | number | null }>;
}

const PAGE = 10;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids asked for in one query: 100 conditions and about 5,400 characters, inside the filter's bounds (200, 10,000). */
const BATCH = 100;

/** The users an entry names: who made it, and the values of its fields that are lookups to users. */
function usersOf(entries: readonly Entry[], fieldOf: (name: string) => Field | undefined): string[] {
  const ids = new Set<string>();
  const add = (v: unknown) => typeof v === 'string' && UUID.test(v) && ids.add(v.toLowerCase());
  for (const e of entries) {
    add(e.userid);
    for (const [name, change] of Object.entries(e.fields)) {
      const f = fieldOf(name);
      if (f?.type === 'lookup' && f.target?.systemName === 'crmuser') {
        add(change.old);
        add(change.new);
      }
    }
  }
  return [...ids];
}

/** The full names of these users (crmuser), by lowercase id, read in batches; none where the role or plan may not read users. */
async function userNames(c: Pick<Console, 'data'>, ids: readonly string[], signal: AbortSignal): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  try {
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH);
      const page = await c.data<QueryPage>('POST', '/api/query', {
        objecttype: 'crmuser', fields: 'crmuserid,fullname', page_size: batch.length, query: batch.map((u) => `crmuserid = '${u}'`).join(' OR '),
      }, signal);
      for (const u of page.Data) if (u.fullname !== null && u.fullname !== undefined && u.fullname !== '') names.set(String(u.crmuserid).toLowerCase(), String(u.fullname));
    }
  } catch (err) {
    if (signal.aborted) throw err;
  }
  return names;
}

export function RecordHistory({ obj, id, version }: { obj: ObjectDetail; id: string; version: number }) {
  const c = useConsole();
  const [page, setPage] = useState(1);
  const fieldOf = (name: string) => obj.fields.find((f) => f.name === name);
  // The page of entries, and the names of the users it shows (who made each change, and the values
  // of lookups to users): those ids only, looked up in the users mirror (crmuser), so every one is
  // named however many users the organization has; ids where the role may not read it.
  const history = useLoad(
    async (signal) => {
      const read = await c.data<{ Entries: Entry[]; IsLastPage: boolean }>('GET', `/api/record/${encodeURIComponent(obj.systemName)}/${encodeURIComponent(id)}/history?pagesize=${PAGE}&pagenumber=${page}`, undefined, signal);
      return { ...read, users: await userNames(c, usersOf(read.Entries, fieldOf), signal) };
    },
    [c.org.id, obj.systemName, id, page, version],
  );
  const users = history.value?.users;
  return (
    <section class="history" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <ErrorBox error={history.error} />
      {!history.value ? (!history.error && <Loading what="the history" />) : (
        <ol class="entries">
          {history.value.Entries.map((e) => (
            <li key={e.sequence} data-operation={e.operation}>
              <div>
                <strong>{e.operation === 'create' ? 'Created' : e.operation === 'update' ? 'Updated' : 'Deleted'}</strong>{' '}
                <span class="muted">{e.changedon === null ? '' : `${e.changedon.replace('T', ' ')} UTC`}{e.userid && <> by <bdi>{users?.get(e.userid.toLowerCase()) ?? e.userid}</bdi></>}</span>
              </div>
              {Object.keys(e.fields).length > 0 && (
                <table class="grid compact" aria-label={e.changedon === null ? 'Fields changed' : `Fields changed at ${e.changedon}`}>
                  <tbody>
                    {Object.entries(e.fields).map(([name, change]) => {
                      const f = fieldOf(name);
                      const show = (v: string | number | null) => {
                        // A lookup's id as a link to its record, named when it is a user.
                        if (f?.type === 'lookup' && f.target && v !== null) {
                          return <a href={href('data', f.target.systemName, String(v))}><bdi>{(f.target.systemName === 'crmuser' && users?.get(String(v).toLowerCase())) || String(v)}</bdi></a>;
                        }
                        return <bdi>{f ? shownValue(f, v) : v === null ? '—' : String(v)}</bdi>;
                      };
                      return (
                        <tr key={name} data-changed={name}>
                          <th scope="row">{f?.label ?? name}</th>
                          <td>{e.operation === 'create' ? '' : <del>{show(change.old)}</del>}</td>
                          <td>{e.operation === 'delete' ? '' : <ins>{show(change.new)}</ins>}</td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              )}
            </li>
          ))}
          {history.value.Entries.length === 0 && <li class="muted">No change kept (entries older than the retention are pruned).</li>}
        </ol>
      )}
      <Pager label="History pages" page={page} last={history.latest?.IsLastPage ?? true} busy={history.loading} onPage={setPage} previous="Newer" next="Older" />
    </section>
  );
}
