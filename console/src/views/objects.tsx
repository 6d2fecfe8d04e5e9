// Data: the organization's objects with their record counts (GET /api/objects), each a link to its
// record table.

import type { ObjectSummary } from '../api.js';
import { useConsole } from '../context.js';
import { href } from '../router.js';
import { ErrorBox, formatNumber, Loading, PageTitle, useLoad } from '../ui.js';

export function DataAs() {
  const c = useConsole();
  if (!c.admin) return null;
  return (
    <p class="muted small">
      Data of <bdi>{c.org.name}</bdi>, read with a token the console made for <bdi>{c.dataUser ?? 'the primary user'}</bdi> (role {c.role}; revoked when you sign out).
    </p>
  );
}

export function ObjectsView() {
  const c = useConsole();
  const objects = useLoad((signal) => c.data<ObjectSummary[]>('GET', '/api/objects', undefined, signal), [c.org.id]);
  return (
    <section>
      <PageTitle>Data</PageTitle>
      <DataAs />
      <ErrorBox error={objects.error} />
      {!objects.value ? (!objects.error && <Loading what="objects" />) : (
        <div class="table-wrap">
          <table class="grid stackable" aria-label="Objects">
            <thead>
              <tr><th scope="col">Object</th><th scope="col">System name</th><th scope="col" class="num">Records</th><th scope="col">You may</th></tr>
            </thead>
            <tbody>
              {objects.value.map((o) => (
                <tr key={o.objectType}>
                  <th scope="row">
                    {o.permissions.includes('read') ? <a href={href('data', o.systemName)}>{o.collectionName}</a> : o.collectionName}
                  </th>
                  <td><code>{o.systemName}</code> <span class="muted">({o.objectType})</span></td>
                  <td class="num" data-object={o.systemName}>{o.records === null ? '—' : formatNumber(o.records)}</td>
                  <td>{o.permissions.length ? o.permissions.join(', ') : <span class="muted">nothing</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
