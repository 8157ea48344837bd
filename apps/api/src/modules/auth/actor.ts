import type { IncomingHttpHeaders } from 'node:http';
import { type Actor, PERMISSIONS, type Permission, type TenantContext } from '../../lib/context';
import type { AuthService } from './auth.service';
import { requestToken } from './session-token';

const isPermission = (p: string): p is Permission => (PERMISSIONS as readonly string[]).includes(p);

/**
 * Works out who acts in a request: the account of its session token on this store (bearer first,
 * then the cookie), else a guest with the cart cookie it may carry. One session lookup per request.
 */
export function createActorResolver(
  auth: AuthService,
  opts: { guestCartToken(headers: IncomingHttpHeaders): string | null },
) {
  return async (tenant: TenantContext, headers: IncomingHttpHeaders): Promise<Actor> => {
    const found = requestToken(headers);
    const account = found ? await auth.resolve(tenant, found.token) : null;
    if (!found || !account) return { kind: 'guest', cartToken: opts.guestCartToken(headers) };
    const signedIn = {
      userId: account.userId,
      firstName: account.firstName,
      userLoginId: account.userLoginId,
      session: found,
    };
    if (account.partyId === 'shopper') return { kind: 'shopper', ...signedIn };
    return {
      kind: 'staff',
      role: account.partyId,
      // The owner holds every permission whatever the column says; staff hold what was granted.
      permissions: new Set(account.partyId === 'admin' ? PERMISSIONS : account.permissions.filter(isPermission)),
      ...signedIn,
    };
  };
}

export type ActorResolver = ReturnType<typeof createActorResolver>;
