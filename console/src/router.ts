// Hash routes (#/data/account/…): the server serves one page, and a link or the back button moves
// between views without a request.

import { useEffect, useState } from 'preact/hooks';

/** The route's segments, decoded: '#/data/account' → ['data', 'account']. */
export function currentRoute(): string[] {
  return location.hash.replace(/^#\/?/, '').split('/').filter((s) => s !== '').map(decodeURIComponent);
}

export function useRoute(): string[] {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const onChange = () => setRoute(currentRoute());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

/** The href of a route: href('data', 'account') → '#/data/account'. */
export function href(...segments: Array<string | number>): string {
  return `#/${segments.map((s) => encodeURIComponent(String(s))).join('/')}`;
}

export function navigate(...segments: Array<string | number>): void {
  location.hash = href(...segments).slice(1);
}

/**
 * After a move to another view, its heading takes the focus once it is drawn (a view may show
 * "Loading" first), so keyboard and screen-reader users start at the new view.
 */
let focusPending = false;

export function focusNextHeading(): void {
  focusPending = true;
}

export function takeHeadingFocus(): boolean {
  const pending = focusPending;
  focusPending = false;
  return pending;
}
