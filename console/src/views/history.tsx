// A record's history (GET /api/record/{object}/{id}/history): each create, update and delete, newest
// first, with who made it and each field's value before and after, by the field's label and type.

import { useState } from 'preact/hooks';
import type { ObjectDetail, QueryPage } from '../api.js';
import { useConsole } from '../context.js';
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

export function RecordHistory({ obj, id, version }: { obj: ObjectDetail; id: string; version: number }) {
  const c = useConsole();
  const [page, setPage] = useState(1);
  const history = useLoad(
    (signal) => c.data<{ Entries: Entry[]; IsLastPage: boolean }>('GET', `/api/record/${encodeURIComponent(obj.systemName)}/${encodeURIComponent(id)}/history?pagesize=${PAGE}&pagenumber=${page}`, undefined, signal),
    [c.org.id, obj.systemName, id, page, version],
  );
  // Who made each change, by name: the users mirror (crmuser), read once; ids where the role may not read it.
  const users = useLoad(
    (signal) => c.data<QueryPage>('POST', '/api/query', { objecttype: 'crmuser', fields: 'crmuserid,fullname', page_size: 500 }, signal)
      .then((p) => new Map(p.Data.map((u) => [String(u.crmuserid), String(u.fullname)])), () => new Map<string, string>()),
    [c.org.id],
  );
  const fieldOf = (name: string) => obj.fields.find((f) => f.name === name);
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
                <span class="muted">{e.changedon === null ? '' : `${e.changedon.replace('T', ' ')} UTC`}{e.userid && <> by <bdi>{users.value?.get(e.userid) ?? e.userid}</bdi></>}</span>
              </div>
              {Object.keys(e.fields).length > 0 && (
                <table class="grid compact" aria-label={e.changedon === null ? 'Fields changed' : `Fields changed at ${e.changedon}`}>
                  <tbody>
                    {Object.entries(e.fields).map(([name, change]) => {
                      const f = fieldOf(name);
                      const show = (v: string | number | null) => {
                        // A lookup's id as a link to its record, named when it is a user.
                        if (f?.type === 'lookup' && f.target && v !== null) {
                          return <a href={href('data', f.target.systemName, String(v))}><bdi>{(f.target.systemName === 'crmuser' && users.value?.get(String(v))) || String(v)}</bdi></a>;
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
