// Toolkit: the integrator's tools of the control API for the organization — its clock (freeze, move,
// set, back to real time), fault rules (add, remove, clear), reset ("clear all data") and snapshots
// (take, restore, delete).

import { useState } from 'preact/hooks';
import type { ClockState, FaultRule, Snapshot } from '../api.js';
import { useConsole } from '../context.js';
import { Confirm, ErrorBox, formatBytes, formatInstant, Loading, Notice, PageTitle, useAction, useLoad } from '../ui.js';

export function ToolkitView() {
  return (
    <section>
      <PageTitle>Toolkit</PageTitle>
      <ClockPanel />
      <FaultsPanel />
      <SnapshotsPanel />
    </section>
  );
}

function ClockPanel() {
  const c = useConsole();
  const base = `/organizations/${c.org.id}/clock`;
  const clock = useLoad((signal) => c.control<ClockState>('GET', base, undefined, signal), [c.org.id], 1000);
  const act = useAction();
  const [by, setBy] = useState('1h');
  const [at, setAt] = useState('');
  const move = (path: string, method: 'POST' | 'DELETE', body?: object) => act.run(async () => {
    await c.control(method, `${base}${path}`, body);
    clock.reload();
  });
  const s = clock.value;
  return (
    <section class="panel" aria-labelledby="clock-title">
      <h2 id="clock-title">Clock</h2>
      {!s ? <Loading what="the clock" /> : (
        <p>
          <strong data-clock-now>{formatInstant(s.now)}</strong>{' '}
          <span class="badge">{s.inherited ? `the server's clock (${s.mode})` : s.mode}</span>
          {s.offsetMs !== 0 && <span class="muted"> · {s.offsetMs > 0 ? '+' : ''}{Math.round(s.offsetMs / 1000)} s from real time</span>}
        </p>
      )}
      <div class="controls">
        <button type="button" onClick={() => move('/freeze', 'POST', {})}>Freeze</button>
        <form class="inline" onSubmit={(e) => { e.preventDefault(); void move('/advance', 'POST', { by }); }}>
          <label>Advance by <input type="text" value={by} size={6} onInput={(e) => setBy((e.target as HTMLInputElement).value)} aria-describedby="by-hint" /></label>
          <button type="submit">Advance</button>
          <span id="by-hint" class="muted small">90s, 25h, 1d2h, -1h</span>
        </form>
        <form class="inline" onSubmit={(e) => { e.preventDefault(); if (at) void move('/set', 'POST', { at: at.length === 16 ? `${at}:00Z` : `${at}Z` }); }}>
          <label>Set to <input type="datetime-local" step={1} value={at} onInput={(e) => setAt((e.target as HTMLInputElement).value)} /> UTC</label>
          <button type="submit">Set</button>
        </form>
        <button type="button" onClick={() => move('', 'DELETE')}>Real time</button>
      </div>
      <ErrorBox error={clock.error ?? act.error} />
    </section>
  );
}

const STATUSES = ['503', '500', '429', '408', ''];
const FAMILIES = ['records', 'query', 'metadata', 'v2', 'v3'];

function FaultsPanel() {
  const c = useConsole();
  const rules = useLoad((signal) => c.control<{ items: FaultRule[] }>('GET', `/faults?orgId=${c.org.id}`, undefined, signal), [c.org.id], 3000);
  const act = useAction();
  const [status, setStatus] = useState('503');
  const [family, setFamily] = useState('');
  const [object, setObject] = useState('');
  const [count, setCount] = useState('');
  const [probability, setProbability] = useState('');
  const [latency, setLatency] = useState('');
  const run = (method: 'POST' | 'DELETE', path: string, body?: object) => act.run(async () => {
    await c.control(method, path, body);
    rules.reload();
  });
  const add = (e: Event) => {
    e.preventDefault();
    void run('POST', '/faults', {
      orgId: c.org.id,
      ...(status ? { status: Number(status) } : {}),
      ...(family ? { families: [family] } : {}),
      ...(object ? { object } : {}),
      ...(count ? { count: Number(count) } : {}),
      ...(probability ? { probability: Number(probability) } : {}),
      ...(latency ? { latencyMs: Number(latency) } : {}),
    });
  };
  return (
    <section class="panel" aria-labelledby="faults-title">
      <h2 id="faults-title">Faults</h2>
      <p class="muted small">Matching requests of this organization fail (or wait) as the real service may, so a client's retries can be tested.</p>
      <form class="inline wrap" onSubmit={add} aria-label="Add a fault rule">
        <label>Reply <select value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value)}>
          {STATUSES.map((s) => <option key={s} value={s}>{s || 'none (wait only)'}</option>)}
        </select></label>
        <label>Routes <select value={family} onChange={(e) => setFamily((e.target as HTMLSelectElement).value)}>
          <option value="">all</option>{FAMILIES.map((f) => <option key={f} value={f}>{f}</option>)}
        </select></label>
        <label>Object <input type="text" size={10} value={object} onInput={(e) => setObject((e.target as HTMLInputElement).value)} placeholder="any" /></label>
        <label>Times <input type="number" min={1} size={4} value={count} onInput={(e) => setCount((e.target as HTMLInputElement).value)} placeholder="∞" /></label>
        <label>Probability <input type="number" min={0} max={1} step={0.05} value={probability} onInput={(e) => setProbability((e.target as HTMLInputElement).value)} placeholder="1" /></label>
        <label>Wait ms <input type="number" min={0} value={latency} onInput={(e) => setLatency((e.target as HTMLInputElement).value)} placeholder="0" /></label>
        <button type="submit" class="primary">Add rule</button>
      </form>
      <ErrorBox error={rules.error ?? act.error} />
      {rules.value && (rules.value.items.length === 0 ? <p class="muted">No fault rule.</p> : (
        <div class="table-wrap">
          <table class="grid stackable" aria-label="Fault rules">
            <thead><tr><th scope="col">Reply</th><th scope="col">Matches</th><th scope="col" class="num">Matched / fired</th><th scope="col">Left</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {rules.value.items.map((r, i) => {
                const reply = `${r.status ?? 'wait'}${r.latencyMs ? ` after ${r.latencyMs} ms` : ''}`;
                const matches = [r.families?.join(', ') ?? 'all routes', r.object, r.methods?.join(', '), r.probability !== undefined ? `p=${r.probability}` : ''].filter(Boolean).join(' · ');
                return (
                  <tr key={r.id}>
                    <td>{reply}</td>
                    <td>{matches}</td>
                    <td class="num">{r.matched} / {r.fired}</td>
                    <td>{r.remaining ?? '∞'}</td>
                    {/* Named after its row (rules have no name: their number, reply and routes). */}
                    <td><button type="button" aria-label={`Remove rule ${i + 1}: ${reply} on ${matches}`} onClick={() => run('DELETE', `/faults/${r.id}`)}>Remove</button></td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <button type="button" onClick={() => run('DELETE', `/faults?orgId=${c.org.id}`)}>Remove all</button>
        </div>
      ))}
    </section>
  );
}

function SnapshotsPanel() {
  const c = useConsole();
  const base = `/organizations/${c.org.id}`;
  const snapshots = useLoad((signal) => c.control<{ items: Snapshot[] }>('GET', `${base}/snapshots`, undefined, signal), [c.org.id]);
  const act = useAction();
  const [name, setName] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const run = (method: 'POST' | 'DELETE', path: string, what: string, body?: object) => act.run(async () => {
    await c.control(method, `${base}${path}`, body);
    setDone(what);
    snapshots.reload();
  });
  return (
    <section class="panel" aria-labelledby="snapshots-title">
      <h2 id="snapshots-title">Reset and snapshots</h2>
      <p class="muted small">Reset clears every record and custom object (or goes back to the fixture the organization was loaded from); users, roles, tokens and plan stay.</p>
      <Confirm label="Clear all data…" ask="Confirm reset" confirm={`Reset ${c.org.name}`} keep="Keep the data" onConfirm={() => void run('POST', '/reset', 'The organization was reset.')} />
      <form class="inline" onSubmit={(e) => { e.preventDefault(); if (name) void run('POST', '/snapshots', `Snapshot ${name} taken.`, { name }); }}>
        <label>Snapshot name <input type="text" value={name} pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,63}" onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
        <button type="submit">Take snapshot</button>
      </form>
      {done && <Notice>{done}</Notice>}
      <ErrorBox error={snapshots.error ?? act.error} />
      {snapshots.value && (snapshots.value.items.length === 0 ? <p class="muted">No snapshot.</p> : (
        <div class="table-wrap">
          <table class="grid stackable" aria-label="Snapshots">
            <thead><tr><th scope="col">Name</th><th scope="col">Taken</th><th scope="col" class="num">Size</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {snapshots.value.items.map((s) => (
                <tr key={s.name}>
                  <td><code>{s.name}</code></td><td>{formatInstant(s.createdAt)}</td><td class="num">{formatBytes(s.bytes)}</td>
                  <td class="actions-cell">
                    {/* Restoring replaces every record with the snapshot's: both ask a second press. */}
                    <Confirm label="Restore" labelledAs={`Restore ${s.name}`} ask={`Confirm restoring ${s.name}`} confirm={`Replace the data with ${s.name}`} keep="Keep the data" onConfirm={() => void run('POST', `/snapshots/${encodeURIComponent(s.name)}/restore`, `Snapshot ${s.name} restored.`)} />
                    <Confirm label="Delete" labelledAs={`Delete snapshot ${s.name}`} ask={`Confirm deleting ${s.name}`} confirm={`Delete ${s.name} for good`} onConfirm={() => void run('DELETE', `/snapshots/${encodeURIComponent(s.name)}`, `Snapshot ${s.name} deleted.`)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
