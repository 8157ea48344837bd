import type { IncomingHttpHeaders } from 'node:http';
import { type Actor, PERMISSIONS, type RequestContext, type TenantContext } from '../../lib/context';
import type { SessionUser } from '../auth/index';
import { requestToken } from '../auth/index';

/**
 * GUARD: replaced by req.ctx (routes) and the page server's PageRequest (pages) at merge.
 * Until the request context with its actor lands, the dashboard builds one from the session the way
 * the lead's resolver will: the store's `admin` is staff with every permission, any other account
 * a shopper, nobody a guest.
 */
export function interimContext(
  tenant: TenantContext,
  user: SessionUser | null,
  headers: IncomingHttpHeaders,
  request: { requestId: string; ip: string | null },
): RequestContext {
  const token = requestToken(headers);
  let actor: Actor = { kind: 'guest', cartToken: null };
  if (user && token) {
    const signedIn = {
      userId: user.userId,
      firstName: user.firstName,
      userLoginId: user.userLoginId,
      session: { token: token.token, via: token.via },
    };
    actor =
      user.partyId === 'admin'
        ? { kind: 'staff', role: 'admin', permissions: new Set(PERMISSIONS), ...signedIn }
        : { kind: 'shopper', ...signedIn };
  }
  return { ...tenant, actor, requestId: request.requestId, ip: request.ip };
}
