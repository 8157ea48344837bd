import { type RefObject, useLayoutEffect } from 'react';

/**
 * A controlled field the shopper changed before the app hydrated (every page works without
 * JavaScript, and the app starts after the first paint): React 19.3 keeps what the browser shows
 * but not in state (its replay of such changes is still behind a flag), so the next render would
 * put the old value back and a handler would read the old one. Once hydrated, before anything
 * else renders, the field's value goes to `adopt` if it differs from what was rendered. A field
 * that is not controlled (`rendered` undefined) is left alone.
 */
export function useValueChangedBeforeHydration(
  ref: RefObject<HTMLInputElement | HTMLSelectElement | null>,
  rendered: string | undefined,
  adopt: ((value: string) => void) | undefined,
) {
  // Once, at hydration: later changes reach React through onChange.
  useLayoutEffect(() => {
    const field = ref.current;
    if (field && rendered !== undefined && adopt && field.value !== rendered) adopt(field.value);
  }, []);
}
