import { CSRF_FIELD } from '@app/contracts/client';
import type { ComponentProps, ReactNode } from 'react';
import { Form, useRouteLoaderData } from 'react-router';
import type { loadFrameData } from '../../lib/frame-data';

/** The route id of the platform host's frame (routes/platform/frame.tsx), whose data has the token. */
export const PLATFORM_FRAME_ROUTE = 'routes/platform/frame';
/** The dashboard's layout route (routes/manage-store/guard.tsx), whose data has the store's state. */
const DASHBOARD_ROUTE = 'routes/manage-store/guard';
/** Posts a read-only dashboard still takes: signing out. */
const OPEN_WHEN_READ_ONLY = new Set(['/auth/logout']);

/**
 * A form that asks the server for a change. It always carries the hidden CSRF token, which the server
 * requires on every post: use it for every POST form, so that none can forget the token. The token
 * comes with the frame's data, which is reloaded after every action (the session may have changed).
 */
export function PostForm({ children, ...props }: Omit<ComponentProps<typeof Form>, 'method'>) {
  const root = useRouteLoaderData<typeof loadFrameData>('root');
  // On the platform's own host the root has no store frame: the platform frame carries the token.
  const platform = useRouteLoaderData<{ csrfToken: string }>(PLATFORM_FRAME_ROUTE);
  return (
    <Form method="post" {...props}>
      <input type="hidden" name={CSRF_FIELD} value={root?.csrfToken ?? platform?.csrfToken ?? ''} />
      <ReadOnlyFields open={OPEN_WHEN_READ_ONLY.has(String(props.action ?? ''))} className={props.className}>
        {children}
      </ReadOnlyFields>
    </Form>
  );
}

/** Of a form's classes, those that lay out its children (spacing, flex, grid); not its own box. */
const CHILD_LAYOUT = /^(?:[a-z]+:)*(?:space-[xy]-|flex|items-|justify-|gap-|grid|kit-stack)/;
const childLayout = (className: string) =>
  className
    .split(/\s+/)
    .filter((c) => CHILD_LAYOUT.test(c))
    .join(' ');

/**
 * A form's fields and buttons as they are, or disabled on a read-only dashboard: a suspended or
 * closing store takes no change (decision 099), so its forms show what they would change with
 * nothing to press, instead of a Save the server would refuse. PostForm uses it; a fetcher's form
 * wraps its fields in it. `open`: a post that stays allowed (signing out). `className`: the form's
 * own, so its fields keep their spacing and layout inside the fieldset.
 */
export function ReadOnlyFields({
  children,
  open = false,
  className = '',
}: {
  children: ReactNode;
  open?: boolean;
  className?: string | undefined;
}) {
  const dashboard = useRouteLoaderData<{ lifecycle?: { readOnly: boolean } | null }>(DASHBOARD_ROUTE);
  if (open || !dashboard?.lifecycle?.readOnly) return children;
  return (
    <fieldset disabled className={`m-0 min-w-0 border-0 p-0 ${childLayout(className)}`} data-testid="read-only-form">
      {children}
    </fieldset>
  );
}
