import type { PlatformPageApi } from '@app/contracts';
import { type AppLoadContext, data, type MetaDescriptor, redirect } from 'react-router';

export const CONSOLE_SIGN_IN = '/operator/sign-in';

/** Where a signed-out operator goes: the sign-in page, coming back here afterwards. */
export function consoleSignInUrl(request: Request): string {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  return back === '/operator' ? CONSOLE_SIGN_IN : `${CONSOLE_SIGN_IN}?next=${encodeURIComponent(back)}`;
}

/** The platform's page functions; the console's pages exist on the platform host only (404 elsewhere). */
export function platformApi(context: AppLoadContext): PlatformPageApi {
  if (!context.platform) throw data({ message: 'Page not found' }, { status: 404 });
  return context.platform;
}

/**
 * A console loader's or action's call. The page functions refuse a browser without an operator's
 * session with 401: it goes to the sign-in page and comes back. A 403 or 404 is the frame's error page.
 */
export async function consoleRead<T>(request: Request, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    const status = (err as { statusCode?: unknown } | null)?.statusCode;
    if (status === 401) throw redirect(consoleSignInUrl(request));
    if (status === 403 || status === 404) {
      throw data({ message: (err as Error).message }, { status });
    }
    throw err;
  }
}

/** A console page's title; never indexed. */
export function consoleMeta(title: string): MetaDescriptor[] {
  return [{ title: `${title} · Operator console` }, { name: 'robots', content: 'noindex' }];
}

/** Only paths of the console itself are followed after sign-in (no open redirect). */
export function safeConsoleNext(next: string | null): string {
  if (!next?.startsWith('/operator') || next.startsWith('//') || next.includes('\\')) return '/operator';
  return next;
}

/** Form text, bounded: what a page function is handed. */
export function formText(form: FormData, keys: readonly string[], max = 1000): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) out[k] = String(form.get(k) ?? '').slice(0, max);
  return out;
}

/** Whole numbers for the console's tables. */
export const COUNT = new Intl.NumberFormat('en-US');
