// U+0000-U+001F and U+007F. PostgreSQL cannot store a NUL in text, and no other of them is text a
// person types; tab and line breaks are, in multi-line fields, never in an address or a name.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const IN_LINE = /[\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above, less tab, LF and CR
const IN_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// In an address they arrive percent-encoded (or raw, from a lenient client).
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
const IN_URL = /%(?:[01][0-9a-f]|7f)|[\u0000-\u001f\u007f]/i;

export function hasControlCharacter(text: string, kind: 'line' | 'multiline'): boolean {
  return (kind === 'line' ? IN_LINE : IN_MULTILINE).test(text);
}

/** Whether the path or query, once percent-decoded, would hold a control character. */
export function urlHasControlCharacter(rawUrl: string): boolean {
  return IN_URL.test(rawUrl);
}

/**
 * Whether a parsed body holds a control character in any string, key included. Walked without
 * recursion: a body of 1 MiB can nest deeper than the stack.
 */
export function bodyHasControlCharacter(body: unknown): boolean {
  const pending: unknown[] = [body];
  while (pending.length) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (IN_MULTILINE.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value) && !isStream(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (IN_LINE.test(k)) return true;
        pending.push(v);
      }
    }
  }
  return false;
}

function isStream(value: object): boolean {
  return typeof (value as { pipe?: unknown }).pipe === 'function';
}
