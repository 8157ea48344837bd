/**
 * Where to go back to after login: only a same-origin relative path. `//evil.example`,
 * `/\evil.example`, absolute URLs and `javascript:` all fall back to `/`.
 */
export function safeRedirect(to: string | null | undefined, fallback = '/'): string {
  if (!to || typeof to !== 'string') return fallback;
  const value = to.trim();
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // Control characters and backslashes: browsers read `/\t/evil` or `/\\evil` as another host.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  if (/[\u0000-\u001f\\]/.test(value)) return fallback;
  try {
    const base = 'http://internal.invalid';
    const url = new URL(value, base);
    if (url.origin !== base) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

export function loginUrlFor(attempted: string): string {
  return `/auth/login?redirectUrl=${encodeURIComponent(attempted)}`;
}
