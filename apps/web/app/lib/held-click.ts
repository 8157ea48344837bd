declare global {
  interface Window {
    /** Set by the starter of paint-first.ts: the buttons clicked before the app ran, in order. */
    __takeHeldClicks?: () => HTMLElement[];
  }
}

/**
 * Called once the app has hydrated: the `type="button"` buttons the shopper clicked before then (ones
 * without `popovertarget`: category tabs work as plain HTML) were held by the starter of
 * paint-first.ts; click each again now that React listens, in the order they were clicked. Each
 * in a task of its own: a click inside this effect would be batched with the others, and "+"
 * pressed three times would render once, from the same count. Alone, each click is a discrete
 * event that React renders before the next. The starter stops holding clicks here, so every later
 * click goes to React alone.
 */
export function replayHeldClicks() {
  const held = window.__takeHeldClicks?.() ?? [];
  const next = () => {
    const button = held.shift();
    if (button?.isConnected) button.click();
    if (held.length) setTimeout(next, 0);
  };
  if (held.length) setTimeout(next, 0);
}
