import { CSRF_FIELD } from '@app/contracts/client';
import type { ComponentProps } from 'react';
import { Form, useRouteLoaderData } from 'react-router';
import type { loadFrameData } from '../../lib/frame-data';

/** The route id of the platform host's frame (routes/platform/frame.tsx), whose data has the token. */
export const PLATFORM_FRAME_ROUTE = 'routes/platform/frame';

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
      {children}
    </Form>
  );
}
