// Unsaved edits (a record's form while it is edited) are not lost without a word: following a link (a
// click or Enter), closing or reloading the page, and signing out ask first. The back button moves the
// hash without a way to stop it, so it is not asked.

import { useLayoutEffect } from 'preact/hooks';

/** What holds unsaved edits now, as a question names it ("this record"). */
const holders = new Set<string>();

/**
 * Whether what is about to drop the unsaved edits may go ahead: true when there are none, else the
 * answer to `question(what)`, asked the way leaving an edited record always was (the browser's
 * confirm, which keeps the focus where it was on a no).
 */
export function mayDropEdits(question: (what: string) => string): boolean {
  const [what] = holders;
  return what === undefined || confirm(question(what));
}

/** While `dirty`, `what` holds unsaved edits: links, the page's unload and signing out ask first. */
export function useUnsavedEdits(dirty: boolean, what: string): void {
  // A layout effect runs as the render that made the edits dirty commits, before the page's next
  // task; an effect waits for the next frame, and a pick made before it went unasked.
  useLayoutEffect(() => {
    if (!dirty) return undefined;
    holders.add(what);
    const onClick = (e: MouseEvent) => {
      const link = (e.target as Element | null)?.closest?.('a[href]');
      if (!link || link.getAttribute('target') === '_blank' || e.defaultPrevented) return;
      if (!mayDropEdits((w) => `Leave ${w}? Its unsaved changes will be lost.`)) e.preventDefault();
    };
    const onUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    document.addEventListener('click', onClick, true);
    addEventListener('beforeunload', onUnload);
    return () => {
      holders.delete(what);
      document.removeEventListener('click', onClick, true);
      removeEventListener('beforeunload', onUnload);
    };
  }, [dirty, what]);
}
