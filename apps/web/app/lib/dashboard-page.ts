import { data, type MetaDescriptor, redirect } from 'react-router';
import { withRootMeta } from './meta';
import { loginUrlFor } from './safe-redirect';

/**
 * A dashboard loader's read. The page functions check access on the server and throw the API's
 * refusal (401, 403); here it becomes what the dashboard shows for it: a visitor (or an expired
 * session) goes to login and comes back, anyone else who is not staff gets the guard's 403 page.
 * The guard's loader runs beside this one and usually refuses first; this is the same answer when
 * it does not (a session that ended between the two, a staff member without the permission).
 */
export async function dashboardRead<T>(request: Request, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    const status = (err as { statusCode?: unknown } | null)?.statusCode;
    if (status === 401) {
      const url = new URL(request.url);
      throw redirect(loginUrlFor(`${url.pathname}${url.search}`));
    }
    if (status === 403) {
      throw data({ message: (err as Error).message }, { status: 403 });
    }
    throw err;
  }
}

/** A dashboard page's title ("Home · Manage store"); never indexed, whatever the root says. */
export function dashboardMeta(
  matches: readonly ({ id: string; meta?: MetaDescriptor[] } | undefined)[],
  title: string,
): MetaDescriptor[] {
  return withRootMeta(matches, [{ title: `${title} · Manage store` }, { name: 'robots', content: 'noindex' }]);
}

/** Dates and times on the dashboard: fixed locale and zone, so server and browser print the same. */
const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
});

export function formatDateTime(iso: string): string {
  return `${DATE_TIME.format(new Date(iso))} UTC`;
}
