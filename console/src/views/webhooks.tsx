// Webhooks (GET/POST/DELETE /api/webhooks, the admin role): the organization's webhooks, a form that
// makes one (its signing secret shown once), each one's secret rotated (the new one shown once) and a
// test event sent to it, and each one's delivery log, read again every 5 s, where a test event can be
// sent too.

import { useRef, useState } from 'preact/hooks';
import { ApiError, type ObjectSummary } from '../api.js';
import { useConsole } from '../context.js';
import { href, navigate } from '../router.js';
import { Confirm, ErrorBox, formatInstant, Loading, Notice, PageTitle, Pager, useAction, useAsking, useLoad } from '../ui.js';
import { ShownOnce } from './admin.js';
import { DataAs } from './objects.js';

interface Webhook {
  id: string;
  event: 'created' | 'updated' | 'deleted';
  object: string | null;
  url: string;
  method: string;
  filter: string | null;
  headers: Record<string, string>;
  createdAt: string;
  status: 'active' | 'disabled';
  disabledAt: string | null;
  failures: number;
  failingSince: string | null;
  /** Until when the secret its last rotation replaced signs beside the new one; null when none does. */
  previousSecretExpiresAt: string | null;
}

/** A signing secret shown once: a new webhook's (by the form), or a rotation's (by the list, with when the one it replaced stops signing). */
interface ShownSecret {
  secret: string;
  url: string;
  rotation: { previousSecretExpiresAt: string | null } | null;
}

/** The overlap of a rotation, while the secret it replaced still signs. */
const overlapOf = (h: Webhook): string | null => (h.previousSecretExpiresAt ? `the replaced secret also signs until ${formatInstant(h.previousSecretExpiresAt)}` : null);

interface Delivery {
  id: string;
  /** A record's event, or 'test': a test event, of no record (its objectType, recordId and sequence are null). */
  event: string;
  objectType: number | null;
  recordId: string | null;
  sequence: number | null;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  durationMs: number | null;
  response: string | null;
}

/** A webhook's path: its id (from the route, for a delivery log) one segment of it, whatever it holds. */
const hookPath = (id: string): string => `/api/webhooks/${encodeURIComponent(id)}`;

export function WebhooksView({ id }: { id: string | null }) {
  return id ? <WebhookDetail id={id} /> : <WebhookList />;
}

function WebhookList() {
  const c = useConsole();
  const hooks = useLoad((signal) => c.data<Webhook[]>('GET', '/api/webhooks', undefined, signal), [c.org.id]);
  const objects = useLoad((signal) => c.data<ObjectSummary[]>('GET', '/api/objects', undefined, signal), [c.org.id]);
  const act = useAction();
  // The form's own: a refused webhook's error shows by the form, not above the list.
  const making = useAction();
  // Refused, the list may be older than the webhook's state (disabled since it was read); enabled, it is.
  const test = useTestEvent(act, (what) => {
    if (what !== 'sent') hooks.reload();
  });
  const [event, setEvent] = useState('created');
  const [object, setObject] = useState('account');
  const [url, setUrl] = useState('');
  const [method, setMethod] = useState('POST');
  const [filter, setFilter] = useState('');
  const [headers, setHeaders] = useState('');
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const create = (e: Event) => {
    e.preventDefault();
    setSecret(null);
    void making.run(async () => {
      const made = await c.data<Webhook & { secret: string }>('POST', '/api/webhooks', {
        event, url, method, ...(object !== '*' ? { object } : {}), ...(filter ? { filter } : {}),
        ...(headers.trim() ? { headers: headers.split('\n').map((l) => l.trim()).filter(Boolean) } : {}),
      });
      setSecret({ secret: made.secret, url: made.url, rotation: null });
      setUrl('');
      setFilter('');
      setHeaders('');
      hooks.reload();
    });
  };
  const remove = (id: string) => act.run(async () => {
    await c.data('DELETE', hookPath(id));
    hooks.reload();
  });
  const rotate = (h: Webhook, expiresInHours: number) => {
    setSecret(null);
    void act.run(async () => {
      const r = await c.data<Webhook & { secret: string }>('POST', `${hookPath(h.id)}/rotate-secret`, { expiresInHours });
      setSecret({ secret: r.secret, url: r.url, rotation: { previousSecretExpiresAt: r.previousSecretExpiresAt } });
      hooks.reload();
    });
  };

  return (
    <section>
      <PageTitle>Webhooks</PageTitle>
      <DataAs />
      <ErrorBox error={hooks.error ?? act.error} />
      <TestEventNotices test={test} busy={act.busy} />
      {!hooks.value ? (!hooks.error && <Loading what="webhooks" />) : hooks.value.length === 0 ? <p class="muted">No webhook yet.</p> : (
        <div class="table-wrap">
          <table class="grid stackable" aria-label="Webhooks">
            <thead><tr><th scope="col">When</th><th scope="col">Sent to</th><th scope="col">Filter</th><th scope="col">State</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {hooks.value.map((h) => (
                <tr key={h.id} data-webhook={h.url}>
                  <th scope="row"><a href={href('webhooks', h.id)}>{h.object ?? 'any object'} {h.event}</a></th>
                  <td><code>{h.method} {h.url}</code></td>
                  <td>{h.filter ? <code>{h.filter}</code> : <span class="muted">every record</span>}</td>
                  <td>
                    {h.status === 'active' ? (h.failures ? `active, ${h.failures} failures in a row` : 'active') : `disabled ${formatInstant(h.disabledAt)}`}
                    {overlapOf(h) && <div class="muted small">{overlapOf(h)}</div>}
                  </td>
                  <td class="actions-cell">
                    <a class="button" href={href('webhooks', h.id)}>Deliveries</a>
                    {h.status === 'disabled' && <button type="button" onClick={() => void test.enable(h.id)}>Enable</button>}
                    <SendTestEvent test={test} hook={h} />
                    <RotateSecret hook={h} busy={act.busy} onRotate={(hours) => rotate(h, hours)} />
                    <Confirm label="Delete" labelledAs={`Delete the webhook to ${h.url}`} ask={`Confirm deleting the webhook to ${h.url}`} confirm="Delete for good" onConfirm={() => void remove(h.id)} busy={act.busy} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {secret?.rotation && (
        <ShownOnce token={secret.secret} what={`the new signing secret of the webhook to ${secret.url}`}>
          {secret.rotation.previousSecretExpiresAt
            ? `The secret it replaced also signs each delivery until ${formatInstant(secret.rotation.previousSecretExpiresAt)}: give the receiver the new one before then.`
            : 'The secret it replaced no longer signs: each delivery carries the new one\'s signature alone.'}
        </ShownOnce>
      )}
      <h2>New webhook</h2>
      <form class="stack" onSubmit={create} aria-label="Make a webhook">
        <label>Event <select value={event} onChange={(e) => setEvent((e.target as HTMLSelectElement).value)}>
          {['created', 'updated', 'deleted'].map((v) => <option key={v} value={v}>{v}</option>)}
        </select></label>
        <label>Object <select value={object} onChange={(e) => setObject((e.target as HTMLSelectElement).value)}>
          <option value="*">every object</option>
          {(objects.value ?? []).map((o) => <option key={o.systemName} value={o.systemName}>{o.collectionName}</option>)}
        </select></label>
        <label>URL <input type="url" required value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} placeholder="https://hooks.example.com/orchard" /></label>
        <label>Method <select value={method} onChange={(e) => setMethod((e.target as HTMLSelectElement).value)}>
          {['POST', 'PUT', 'PATCH'].map((m) => <option key={m} value={m}>{m}</option>)}
        </select></label>
        <label>Filter (optional) <input type="text" value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} placeholder="statecode = 1" /></label>
        <label>Header fields (optional, one per line) <textarea rows={2} value={headers} onInput={(e) => setHeaders((e.target as HTMLTextAreaElement).value)} placeholder="X-Api-Key: k-1234" /></label>
        <button type="submit" class="primary" disabled={making.busy}>Make webhook</button>
        <ErrorBox error={making.error} />
      </form>
      {secret && !secret.rotation && <ShownOnce token={secret.secret} what={`the signing secret (Standard Webhooks) of the webhook to ${secret.url}`} />}
    </section>
  );
}

/** A webhook's "Send test event", in the list and on its delivery log (useTestEvent). */
interface TestEvent {
  /** The last one sent or refused, and which webhook it was for; null once that webhook is enabled. */
  readonly tried: { readonly hook: Webhook; readonly sent: boolean } | null;
  readonly testing: ReturnType<typeof useAction>;
  /** Refused as the webhook is disabled (409 WEBHOOK_DISABLED): that webhook, to offer enabling it. */
  readonly disabled: Webhook | null;
  /** Whether it is shown on the webhook's own delivery log, which needs no link to itself. */
  readonly inLog: boolean;
  send(hook: Webhook): Promise<void>;
  /** Enables a webhook with `act` (its error is the view's), after which a test event refused as it was disabled may be sent again. */
  enable(id: string): Promise<boolean>;
}

/**
 * The one implementation of "Send test event" (POST /api/webhooks/{id}/test): 202 says the test
 * event is on its way; refused for a disabled webhook (409 WEBHOOK_DISABLED), the server's message
 * comes with a button that enables it. `changed`: told after each send (sent or refused) and
 * enable, so the view reads again what shows the webhook and its log.
 */
function useTestEvent(act: ReturnType<typeof useAction>, changed: (what: 'sent' | 'refused' | 'enabled') => void, inLog = false): TestEvent {
  const c = useConsole();
  // Its own: refused for a disabled webhook, its error comes with the way to enable it.
  const testing = useAction();
  const [tried, setTried] = useState<{ hook: Webhook; sent: boolean } | null>(null);
  const send = async (hook: Webhook) => {
    setTried({ hook, sent: false });
    const sent = await testing.run(async () => {
      await c.data('POST', `${hookPath(hook.id)}/test`);
      setTried({ hook, sent: true });
    });
    changed(sent ? 'sent' : 'refused');
  };
  const enable = (id: string) => act.run(async () => {
    await c.data('POST', `${hookPath(id)}/enable`);
    if (tried?.hook.id === id) {
      testing.clear();
      setTried(null);
    }
    changed('enabled');
  });
  const disabled = testing.error instanceof ApiError && testing.error.code === 'WEBHOOK_DISABLED' ? tried?.hook ?? null : null;
  return { tried, testing, disabled, inLog, send, enable };
}

function SendTestEvent({ test, hook }: { test: TestEvent; hook: Webhook }) {
  return <button type="button" aria-label={`Send test event to ${hook.url}`} disabled={test.testing.busy} onClick={() => void test.send(hook)}>Send test event</button>;
}

/** A test event's refusal (with the button that enables a disabled webhook) or the notice that it is on its way. */
function TestEventNotices({ test, busy }: { test: TestEvent; busy: boolean }) {
  const { tried, disabled } = test;
  return (
    <>
      <ErrorBox error={test.testing.error} />
      {disabled && (
        <Notice>
          Enable it, then send the test event again:{' '}
          <button type="button" disabled={busy} onClick={() => void test.enable(disabled.id)}>Enable the webhook to {disabled.url}</button>
        </Notice>
      )}
      {tried?.sent && (test.inLog
        ? <Notice>A test event is on its way to <code>{tried.hook.url}</code>: its delivery shows in the log below.</Notice>
        : <Notice>A test event is on its way to <code>{tried.hook.url}</code>: see its delivery in <a href={href('webhooks', tried.hook.id)}>the delivery log</a>.</Notice>)}
    </>
  );
}

/**
 * A webhook's "Rotate secret": the first press asks how many hours the secret replaced keeps signing
 * beside the new one (0 to 168, 24 unless changed: docs/webhooks.md), focused; its Rotate makes it.
 */
function RotateSecret({ hook, busy, onRotate }: { hook: Webhook; busy: boolean; onRotate: (hours: number) => void }) {
  const [hours, setHours] = useState('24');
  const field = useRef<HTMLInputElement>(null);
  const q = useAsking(field);
  if (!q.asking) {
    return <button type="button" ref={q.first} aria-label={`Rotate secret of the webhook to ${hook.url}`} onClick={() => { setHours('24'); q.ask(); }}>Rotate secret</button>;
  }
  const submit = (e: Event) => {
    e.preventDefault();
    q.answered();
    onRotate(Number(hours));
  };
  return (
    <form class="confirm" onSubmit={submit} onKeyDown={q.onKeyDown} aria-label={`Rotate the secret of the webhook to ${hook.url}`}>
      <label>The old secret signs for <input ref={field} type="number" required min={0} max={168} step={1} size={4} value={hours} onInput={(e) => setHours((e.target as HTMLInputElement).value)} /> hours</label>
      <button type="submit" class="primary" disabled={busy}>Rotate</button>
      <button type="button" onClick={q.keep}>Keep</button>
    </form>
  );
}

function WebhookDetail({ id }: { id: string }) {
  const c = useConsole();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  // Each read of the log is a request of the organization, counted against its limits: every 5 s, while live.
  const [live, setLive] = useState(true);
  const hook = useLoad((signal) => c.data<Webhook>('GET', hookPath(id), undefined, signal), [c.org.id, id]);
  const log = useLoad(
    (signal) => c.data<{ deliveries: Delivery[]; isLastPage: boolean }>('GET', `${hookPath(id)}/deliveries?pagesize=25&pagenumber=${page}`, undefined, signal),
    [c.org.id, id, page],
    live ? 5000 : undefined,
  );
  const objects = useLoad((signal) => c.data<ObjectSummary[]>('GET', '/api/objects', undefined, signal), [c.org.id]);
  const act = useAction();
  // Sent, the log is read at once to show the test delivery (not at the next live read, nor never
  // when not live); refused or enabled, the webhook's state is read again.
  const test = useTestEvent(act, (what) => (what === 'sent' ? log.reload() : hook.reload()), true);
  const systemNameOf = (n: number) => objects.value?.find((o) => o.objectType === n)?.systemName ?? String(n);
  const h = hook.value;
  return (
    <section>
      <PageTitle>{h ? `${h.object ?? 'Any object'} ${h.event}` : 'Webhook'}</PageTitle>
      <p class="muted"><a href={href('webhooks')}>Webhooks</a>{h && <> › <code>{h.method} {h.url}</code></>}</p>
      <ErrorBox error={hook.error ?? log.error ?? act.error} />
      <TestEventNotices test={test} busy={act.busy} />
      {h && (
        <div class="title-row">
          <p>{h.status === 'active' ? 'Active' : `Disabled ${formatInstant(h.disabledAt)}`}{h.filter && <> · filter <code>{h.filter}</code></>}{overlapOf(h) && <> · {overlapOf(h)}</>}</p>
          <SendTestEvent test={test} hook={h} />
        </div>
      )}
      <div class="title-row">
        <h2>Delivery log</h2>
        <label class="choice"><input type="checkbox" checked={live} onChange={(e) => setLive((e.target as HTMLInputElement).checked)} /> Live (read every 5 s, counted as requests)</label>
      </div>
      {!log.value ? (!log.error && <Loading what="deliveries" />) : (
        <div class="table-wrap">
          <table class="grid stackable" aria-label="Deliveries, newest first">
            <thead><tr><th scope="col">Write</th><th scope="col">Record</th><th scope="col">State</th><th scope="col" class="num">Attempts</th><th scope="col">Last reply</th><th scope="col">Next attempt</th></tr></thead>
            <tbody>
              {log.value.deliveries.map((d) => (
                <tr key={d.id} data-state={d.state}>
                  <td>{formatInstant(d.createdAt)}{d.sequence !== null && <> <span class="muted small">#{d.sequence}</span></>}</td>
                  <td>{d.objectType !== null && d.recordId !== null ? <a href={href('data', systemNameOf(d.objectType), d.recordId)}>{d.event} {systemNameOf(d.objectType)}</a> : <span class="muted">test event</span>}</td>
                  <td class={`state ${d.state}`}>{d.state}</td>
                  <td class="num">{d.attempts}</td>
                  <td>
                    {d.lastStatus !== null ? <span class={`status s${String(d.lastStatus)[0]}`}>{d.lastStatus}</span> : d.lastError ? <span class="error-text">{d.lastError}</span> : '—'}
                    {d.durationMs !== null && <span class="muted small"> {d.durationMs.toFixed(0)} ms</span>}
                    {d.response && (
                      <>
                        {' '}<button type="button" class="link-button small" aria-expanded={open === d.id} onClick={() => setOpen(open === d.id ? null : d.id)}>reply</button>
                        {open === d.id && <pre class="body">{d.response}</pre>}
                      </>
                    )}
                  </td>
                  <td>{d.state === 'pending' ? formatInstant(d.nextAttemptAt) : '—'}</td>
                </tr>
              ))}
              {log.value.deliveries.length === 0 && <tr><td colSpan={6} class="muted">No delivery yet: a matching write makes one.</td></tr>}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Pages" page={page} last={log.latest?.isLastPage ?? true} busy={log.loading} onPage={setPage} previous="Newer" next="Older"><span>Page {page}</span></Pager>
      <p><button type="button" class="link-button" onClick={() => navigate('webhooks')}>Back to the webhooks</button></p>
    </section>
  );
}
