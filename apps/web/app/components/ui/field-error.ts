/**
 * When a field's error shows (used by field.tsx; plain functions so they are tested without a DOM).
 *
 * A refused save comes back with an error per field. The error stays while the field still holds
 * what was refused; as soon as the owner changes it the server's error goes, because the server has
 * not judged the new value. A field that can check itself in the browser (a price) passes its own
 * check, whose message shows for a changed value that is still wrong.
 */

/** What a control holds, reduced to a comparable value. */
export interface ControlLike {
  type?: string;
  value: string;
  checked?: boolean;
  files?: { length: number } | null;
}

/** One string for every control of a field, so "changed since refused" is a string comparison. */
export function fieldSnapshot(controls: Iterable<ControlLike>): string {
  const parts: string[] = [];
  for (const c of controls) {
    if (c.type === 'checkbox' || c.type === 'radio') parts.push(c.checked ? `1:${c.value}` : '0');
    else if (c.type === 'file') parts.push(`files:${c.files?.length ?? 0}`);
    else parts.push(c.value);
  }
  return parts.join('\u0000');
}

/**
 * The error to show: the server's while the value is the refused one, otherwise the field's own
 * check of the current value (none when the field has no check or the value passes it).
 */
export function visibleError({
  serverError,
  refused,
  current,
  check,
}: {
  serverError: string | null | undefined;
  refused: string;
  current: string;
  check?: ((value: string) => string | null) | undefined;
}): string | null {
  if (current === refused) return serverError || null;
  return check ? check(current) : null;
}
