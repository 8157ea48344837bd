declare global {
  interface Window {
    /** Set by the starter of paint-first.ts: the button clicked before the app ran, if any. */
    __takeHeldClick?: () => HTMLElement | null;
  }
}

/**
 * Called once the app has hydrated: a `type="button"` button the shopper clicked before then (one
 * without `popovertarget`: category tabs work as plain HTML) was held by the starter of
 * paint-first.ts; click it again now that React listens. The starter stops holding clicks here, so every later click goes to React alone.
 */
export function replayHeldClick() {
  const button = window.__takeHeldClick?.();
  if (button?.isConnected) button.click();
}
