// Usage: the rolling minute and the UTC day against their limits, read every 2 s (GET /api/usage, or
// the control API's copy for the admin key; neither read is counted), the requests of the last 30
// days as a chart, and the usage notices sent.

import type { Usage, Window } from '../api.js';
import { useConsole } from '../context.js';
import { ErrorBox, formatInstant, formatNumber, Loading, PageTitle, useLoad } from '../ui.js';

const EVERY_MS = 2000;

export function UsageView() {
  const c = useConsole();
  const usage = useLoad((signal) => c.usage(signal), [c.org.id], EVERY_MS);
  const u = usage.value;
  return (
    <section>
      <PageTitle>Usage</PageTitle>
      <p class="muted"><bdi>{c.org.name}</bdi> · plan {c.org.plan} · read every {EVERY_MS / 1000} s; reading it counts against nothing.</p>
      <ErrorBox error={usage.error} />
      {!u ? <Loading what="usage" /> : !u.counted ? (
        <p>This server counts nothing: it runs with <code>RATE_LIMITS=off</code>.</p>
      ) : (
        <>
          <div class="meters">
            {u.minute && <Meter id="minute" label="Rolling minute" window={u.minute} reset={`gives quota back in ${u.minute.resetSeconds} s`} />}
            {u.day && <Meter id="day" label={`Day ${u.day.day} (UTC)`} window={u.day} reset={`resets at 00:00 UTC, in ${hours(u.day.resetSeconds)}`} />}
          </div>
          <h2>Requests a day, last 30 days</h2>
          <DaysChart usage={u} />
          <h2>Notices sent</h2>
          <Notices usage={u} />
        </>
      )}
    </section>
  );
}

const hours = (s: number) => (s >= 3600 ? `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min` : `${Math.ceil(s / 60)} min`);

function Meter({ id, label, window, reset }: { id: string; label: string; window: Window; reset: string }) {
  const share = Math.min(1, window.used / window.quota);
  const level = share >= 1 ? 'full' : share >= 0.9 ? 'high' : 'ok';
  return (
    <div class={`meter ${level}`} data-window={id}>
      <div class="meter-head">
        <span id={`${id}-label`}>{label}</span>
        <span><strong data-used>{formatNumber(window.used)}</strong> of {formatNumber(window.quota)}</span>
      </div>
      <div class="bar" role="meter" aria-labelledby={`${id}-label`} aria-valuemin={0} aria-valuemax={window.quota} aria-valuenow={window.used}
        aria-valuetext={`${window.used} of ${window.quota} requests`}>
        {/* An SVG rect rather than a styled width: the page's CSP allows no inline style. */}
        <svg viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true"><rect width={share * 100} height="10" /></svg>
      </div>
      <div class="muted small">{formatNumber(window.remaining)} left · {reset}</div>
    </div>
  );
}

function DaysChart({ usage }: { usage: Usage }) {
  const days = usage.days;
  const cap = usage.day?.quota ?? 0;
  const most = Math.max(1, ...days.map((d) => d.count));
  // Scaled to the busiest day; the cap is drawn when it is near enough to be seen against it.
  const top = cap > 0 && cap <= most * 2 ? Math.max(cap, most) * 1.1 : most * 1.1;
  const capShown = cap > 0 && cap <= top;
  const w = 600;
  const h = 160;
  const bar = w / days.length;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${w} ${h + 20}`} role="img" aria-labelledby="days-title">
        <title id="days-title">Requests on each of the last {days.length} UTC days; the busiest had {formatNumber(most)}, the daily cap is {formatNumber(cap)}</title>
        {capShown && <line class="cap" x1={0} x2={w} y1={h - (cap / top) * h} y2={h - (cap / top) * h} />}
        <line class="base" x1={0} x2={w} y1={h} y2={h} />
        {days.map((d, i) => {
          const bh = (d.count / top) * h;
          return (
            <rect key={d.day} class={d.count >= cap && cap > 0 ? 'day full' : 'day'} data-day={d.day} data-count={d.count} x={i * bar + 1} y={h - bh} width={Math.max(1, bar - 2)} height={bh}>
              <title>{d.day}: {formatNumber(d.count)} requests</title>
            </rect>
          );
        })}
        <text x={0} y={h + 15} class="axis">{days[0]?.day}</text>
        <text x={w} y={h + 15} class="axis end">{days[days.length - 1]?.day}</text>
        <text x={2} y={h - (most / top) * h - 4} class="axis">{formatNumber(most)}</text>
      </svg>
      <figcaption class="muted small">
        Busiest day {formatNumber(most)} requests · daily cap {formatNumber(cap)}{capShown ? ' (dashed line)' : ''}.
      </figcaption>
      <details>
        <summary>As a table</summary>
        <table class="grid compact" aria-label="Requests a day">
          <thead><tr><th scope="col">Day (UTC)</th><th scope="col" class="num">Requests</th></tr></thead>
          <tbody>{[...days].reverse().map((d) => <tr key={d.day}><td>{d.day}</td><td class="num">{formatNumber(d.count)}</td></tr>)}</tbody>
        </table>
      </details>
    </figure>
  );
}

function Notices({ usage }: { usage: Usage }) {
  if (usage.notices.length === 0) return <p class="muted">No usage notice in the last 30 days (they go at 90 % and 100 % of the daily cap).</p>;
  return (
    <div class="table-wrap">
      <table class="grid stackable" aria-label="Usage notices">
        <thead><tr><th scope="col">Day</th><th scope="col">Threshold</th><th scope="col" class="num">Used / cap</th><th scope="col">Sent</th></tr></thead>
        <tbody>
          {usage.notices.map((n) => (
            <tr key={`${n.day}-${n.threshold}`} data-day={n.day} data-threshold={n.threshold}>
              <td>{n.day}</td><td>{n.threshold} %</td><td class="num">{formatNumber(n.used)} / {formatNumber(n.cap)}</td>
              <td>{n.sentAt ? formatInstant(n.sentAt) : <span class="muted">not yet (claimed {formatInstant(n.claimedAt)})</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
