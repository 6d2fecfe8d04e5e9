// Small pieces every view uses: loading a value, polling, error and notice boxes, number and time
// formats.

import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';
import { takeHeadingFocus } from './router.js';

export interface Loaded<T> {
  readonly value: T | undefined;
  /** The last value loaded, for these deps or earlier ones: shown while the next loads (a table's next page). */
  readonly latest: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  /** Counts the values loaded: what depends on this one reloads when it moves. */
  readonly version: number;
  reload(): void;
}

/**
 * Runs `load` when `deps` change (and on reload), dropping the answer of a call overtaken by a newer
 * one; with `everyMs`, again at that period while the tab is visible (the live views).
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[], everyMs?: number): Loaded<T> {
  // A value is shown only with the deps it was loaded for: another object's fields never meet this one's record.
  const key = JSON.stringify(deps);
  const [state, setState] = useState<{ value: T | undefined; error: unknown; loading: boolean; version: number; key: string }>({ value: undefined, error: null, loading: true, version: 0, key });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    load(controller.signal).then(
      (value) => !controller.signal.aborted && setState((s) => ({ value, error: null, loading: false, version: s.version + 1, key })),
      (error: unknown) => !controller.signal.aborted && setState((s) => ({ ...s, error, loading: false, key })),
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  useEffect(() => {
    if (!everyMs) return undefined;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, everyMs);
    return () => clearInterval(timer);
  }, [everyMs, reload]);
  const current = state.key === key;
  return { value: current ? state.value : undefined, latest: state.value, error: current ? state.error : null, loading: state.loading || !current, version: state.version, reload };
}

/** Runs an action, keeping its error for display and whether it is under way. */
export function useAction(): { busy: boolean; error: unknown; run: (action: () => Promise<unknown>) => Promise<boolean>; clear: () => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (err) {
      if (mounted.current) setError(err);
      return false;
    } finally {
      if (mounted.current) setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(null) };
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : null;
  return (
    <div class="error" role="alert">
      {code && <code class="code">{code}</code>} {messageOf(error)}
    </div>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return <div class="notice" role="status">{children}</div>;
}

export function Loading({ what }: { what: string }) {
  return <p class="muted" aria-live="polite">Loading {what}…</p>;
}

const NUMBER = new Intl.NumberFormat('en-US');
export const formatNumber = (n: number): string => NUMBER.format(n);

/** An ISO instant as `YYYY-MM-DD hh:mm:ss` UTC. */
export function formatInstant(iso: string | null): string {
  if (!iso) return '—';
  return iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') + ' UTC';
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export function PageTitle({ children, actions }: { children: ComponentChildren; actions?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeHeadingFocus()) heading.current?.focus();
  }, []);
  return (
    <div class="title-row">
      <h1 tabIndex={-1} ref={heading}>{children}</h1>
      {actions && <div class="actions">{actions}</div>}
    </div>
  );
}

/**
 * A question asked in place of the button that asks it (a second press, a rotation's hours): while
 * asked, `focus` has the focus. Put away by its "Keep" or by Escape, the focus goes back to the
 * button that asked, so the keyboard stays where it was rather than falling to the page's start.
 */
export function useAsking(focus: { current: HTMLElement | null }) {
  const [asking, setAsking] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  const returning = useRef(false);
  // Before the browser paints, so a key pressed right after meets the focus moved.
  useLayoutEffect(() => {
    if (asking) focus.current?.focus();
    else if (returning.current) first.current?.focus();
    returning.current = false;
  }, [asking]);
  const keep = () => {
    returning.current = true;
    setAsking(false);
  };
  return {
    asking, first, keep,
    ask: () => setAsking(true),
    /** Answered: the question goes (what it did may have removed the button that asked). */
    answered: () => setAsking(false),
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      keep();
    },
  };
}

/**
 * An action that cannot be undone, taken on a second press: the first shows what will happen and a
 * way back, focused, so Enter after a stray press keeps things as they are.
 */
export function Confirm({ label, ask, confirm, keep = 'Keep', onConfirm, busy = false, labelledAs }: {
  /** The first button's text; `labelledAs`, when given, is its accessible name. */
  label: ComponentChildren;
  /** The accessible name of the group the second press is asked in, e.g. "Confirm deletion". */
  ask: string;
  /** The second, destructive button's text: says what will go. */
  confirm: ComponentChildren;
  keep?: ComponentChildren;
  onConfirm: () => void;
  busy?: boolean;
  labelledAs?: string;
}) {
  const keepButton = useRef<HTMLButtonElement>(null);
  const q = useAsking(keepButton);
  if (!q.asking) return <button type="button" class="danger" ref={q.first} aria-label={labelledAs} onClick={q.ask}>{label}</button>;
  return (
    <span class="confirm" role="group" aria-label={ask} onKeyDown={q.onKeyDown}>
      <button type="button" class="danger" disabled={busy} onClick={() => { q.answered(); onConfirm(); }}>{confirm}</button>
      <button type="button" ref={keepButton} onClick={q.keep}>{keep}</button>
    </span>
  );
}

/**
 * Previous and next page. Next stays enabled while a page loads (a disabled button drops the
 * keyboard's focus, and whether there is a next page is not known yet), a press meanwhile is
 * ignored, and when the button pressed ends disabled (the first or last page) the focus moves to
 * the other one.
 */
export function Pager({ label, page, last, busy, onPage, previous = 'Previous', next = 'Next', children }: {
  label: string;
  page: number;
  last: boolean;
  busy: boolean;
  onPage: (page: number) => void;
  previous?: string;
  next?: string;
  children?: ComponentChildren;
}) {
  const back = useRef<HTMLButtonElement>(null);
  const on = useRef<HTMLButtonElement>(null);
  const pressed = useRef<HTMLButtonElement | null>(null);
  useLayoutEffect(() => {
    const from = pressed.current;
    const other = from === back.current ? on.current : back.current;
    if (!from?.disabled || !other || other.disabled) return;
    pressed.current = null;
    if (document.activeElement === document.body || document.activeElement === from) other.focus();
  });
  const go = (button: HTMLButtonElement | null, to: number) => {
    if (busy) return;
    pressed.current = button;
    onPage(to);
  };
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" ref={back} disabled={page === 1} onClick={() => go(back.current, page - 1)}>{previous}</button>
      {children}
      <button type="button" ref={on} disabled={last && !busy} onClick={() => go(on.current, page + 1)}>{next}</button>
    </nav>
  );
}

/** Each cell of a stackable table, labelled with its column's header (for the phone's cards, styles.css). */
function labelStackedCells(root: HTMLElement): void {
  for (const table of root.querySelectorAll<HTMLTableElement>('table.stackable')) {
    const headers = [...table.querySelectorAll<HTMLTableCellElement>(':scope > thead > tr > th')].map((th) => {
      const hidden = th.querySelector('.sr-only');
      // A header shown to screen readers only ("Actions") labels nothing on the card.
      return hidden && hidden.textContent === th.textContent ? '' : (th.textContent ?? '').trim();
    });
    for (const row of table.querySelectorAll<HTMLTableRowElement>(':scope > tbody > tr')) {
      const cells = [...row.cells];
      if (cells.some((cell) => cell.colSpan > 1)) continue;
      cells.forEach((cell, i) => {
        const label = headers[i];
        if (label && cell.dataset.label !== label) cell.dataset.label = label;
      });
    }
  }
}

/**
 * On a phone, stackable tables hide their header: each cell is labelled with its column's name,
 * whatever view drew the table, as the rows under `root` change.
 */
export function useStackedLabels(root: { current: HTMLElement | null }): void {
  useEffect(() => {
    const element = root.current;
    if (!element) return undefined;
    labelStackedCells(element);
    const observer = new MutationObserver(() => labelStackedCells(element));
    observer.observe(element, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [root]);
}
