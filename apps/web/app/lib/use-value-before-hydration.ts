import { type RefObject, useEffect, useLayoutEffect } from 'react';

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

/**
 * The same for a field that is not controlled: the browser keeps what the shopper chose before the
 * app hydrated, but the handler that follows the field (checkout's region, which sets the tax)
 * never heard of it. Once hydrated, it hears of it if the field differs from its default value.
 * After the layout effects, not among them: a handler may navigate, and the router only takes a
 * navigation once its own layout effects have run.
 */
export function useDefaultChangedBeforeHydration(
  ref: RefObject<HTMLInputElement | HTMLSelectElement | null>,
  defaultValue: string | undefined,
  adopt: ((value: string) => void) | undefined,
) {
  // Once, at hydration: later changes reach the handler through onChange.
  useEffect(() => {
    const field = ref.current;
    if (field && defaultValue !== undefined && adopt && field.value !== defaultValue) adopt(field.value);
  }, []);
}
