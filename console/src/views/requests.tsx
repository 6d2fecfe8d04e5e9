// Requests: the organization's request journal (GET /_orchard/organizations/{id}/journal), newest first,
// read again every 2 s while live, filtered by method, path and status; a request opens to its
// header fields, query and both bodies.

import { useRef, useState } from 'preact/hooks';
import type { JournalEntry } from '../api.js';
import { useConsole } from '../context.js';
import { href, navigate } from '../router.js';
import { ErrorBox, formatInstant, Loading, Notice, PageTitle, useAction, useLoad } from '../ui.js';

interface Journal {
  items: JournalEntry[];
  size: number;
  bodyLimit: number;
}

const METHODS = ['', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function RequestsView({ requestId }: { requestId: string | null }) {
  const c = useConsole();
  const [method, setMethod] = useState('');
  const [path, setPath] = useState('');
  const [status, setStatus] = useState('');
  const [live, setLive] = useState(true);
  const clear = useAction();
  const query = new URLSearchParams({ limit: '200', ...(method ? { method } : {}), ...(path ? { path } : {}), ...(/^[1-5](\d\d|xx)$/i.test(status) ? { status } : {}) });
  const journal = useLoad(
    (signal) => c.control<Journal>('GET', `/organizations/${c.org.id}/journal?${query}`, undefined, signal),
    [c.org.id, query.toString()],
    live ? 2000 : undefined,
  );
  const entries = journal.value?.items ?? [];
  const chosen = requestId ? entries.find((e) => e.requestId === requestId) : undefined;
  // A detail closed (its Close link, Escape) gives the focus back to the link that opened it: marked
  // as what the route opened (app.tsx), it takes the focus rather than the view's heading.
  const lastOpened = useRef<string | null>(null);
  if (requestId) lastOpened.current = requestId;
  const returnTo = requestId ? null : lastOpened.current;

  return (
    <section>
      <PageTitle actions={
        <>
          <label class="choice"><input type="checkbox" checked={live} onChange={(e) => setLive((e.target as HTMLInputElement).checked)} /> Live</label>
          <button type="button" onClick={() => clear.run(async () => { await c.control('DELETE', `/organizations/${c.org.id}/journal`); journal.reload(); })}>Clear</button>
        </>
      }>Requests</PageTitle>
      <ErrorBox error={journal.error ?? clear.error} />
      {journal.value && journal.value.size === 0 && (
        <Notice>The journal is off: start the server with <code>JOURNAL_SIZE=1000</code> (or any number of requests to keep per organization) to see requests here.</Notice>
      )}
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter requests">
        <label>Method <select value={method} onChange={(e) => setMethod((e.target as HTMLSelectElement).value)}>
          {METHODS.map((m) => <option key={m} value={m}>{m || 'any'}</option>)}
        </select></label>
        <label>Path contains <input type="text" value={path} onInput={(e) => setPath((e.target as HTMLInputElement).value)} placeholder="/api/record" /></label>
        <label>Status <input type="text" value={status} size={5} onInput={(e) => setStatus((e.target as HTMLInputElement).value)} placeholder="4xx" aria-describedby="status-hint" /></label>
        <span id="status-hint" class="muted small">a status (404) or a class (4xx)</span>
      </form>
      <div class={chosen ? 'split' : undefined}>
        {!journal.value ? <Loading what="requests" /> : (
          <div class="table-wrap">
            <table class="grid requests stackable" aria-label="Requests, newest first">
              <thead><tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col" class="num">Status</th><th scope="col" class="num">ms</th></tr></thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e.requestId} class={e.requestId === requestId ? 'selected' : undefined}>
                    <td class="nowrap">{e.at.slice(11, 19)}</td>
                    <td>{e.method}</td>
                    <td><a href={href('requests', e.requestId)} aria-label={`${e.method} ${e.path}, ${e.status}`} data-opened={e.requestId === returnTo ? '' : undefined}>{e.path}</a></td>
                    <td class={`num status s${String(e.status)[0]}`}>{e.status}</td>
                    <td class="num">{e.durationMs.toFixed(1)}</td>
                  </tr>
                ))}
                {entries.length === 0 && <tr><td colSpan={5} class="muted">No request{method || path || status ? ' matches' : ' yet'}.</td></tr>}
              </tbody>
            </table>
          </div>
        )}
        {requestId && (chosen ? <RequestDetail entry={chosen} /> : journal.value && <p class="muted">Request {requestId} is no longer in the journal.</p>)}
      </div>
    </section>
  );
}

/** JSON text indented, or the text as it came (cut bodies are not JSON). */
function pretty(text: string | null): string {
  if (text === null) return '(none)';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function RequestDetail({ entry }: { entry: JournalEntry }) {
  return (
    <article class="detail" aria-label={`Request ${entry.requestId}`} onKeyDown={(e) => {
      // Escape closes it, as its Close link does.
      if (e.key !== 'Escape') return;
      e.preventDefault();
      navigate('requests');
    }}>
      <h2 tabIndex={-1} data-opened>{entry.method} {entry.path} <span class={`status s${String(entry.status)[0]}`}>{entry.status}</span></h2>
      <p class="muted small">{formatInstant(entry.at)} · {entry.durationMs.toFixed(1)} ms · id <code>{entry.requestId}</code>{entry.truncated ? ' · bodies cut at the journal\'s limit' : ''}</p>
      <p><a href={href('requests')}>Close</a></p>
      {Object.keys(entry.query).length > 0 && (
        <>
          <h3>Query</h3>
          <HeaderTable values={entry.query} label="Query parameters" />
        </>
      )}
      <h3>Request header fields</h3>
      <HeaderTable values={entry.headers} label="Request header fields" />
      <h3>Request body</h3>
      <pre class="body">{pretty(entry.body)}</pre>
      <h3>Reply body</h3>
      <pre class="body">{pretty(entry.reply)}</pre>
    </article>
  );
}

function HeaderTable({ values, label }: { values: Record<string, unknown>; label: string }) {
  return (
    <table class="grid compact" aria-label={label}>
      <tbody>
        {Object.entries(values).map(([k, v]) => <tr key={k}><th scope="row"><code>{k}</code></th><td><code>{Array.isArray(v) ? v.join(', ') : String(v)}</code></td></tr>)}
      </tbody>
    </table>
  );
}
