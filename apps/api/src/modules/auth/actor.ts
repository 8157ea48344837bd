import type { IncomingHttpHeaders } from 'node:http';
import { type Actor, PERMISSIONS, type Permission, type TenantContext } from '../../lib/context';
import type { AuthService } from './auth.service';
import { requestToken } from './session-token';

/** The owner's account a support session acts as, and the operator behind it. */
export interface SupportAccount {
  userId: string;
  firstName: string;
  userLoginId: string;
  support: { operatorId: string; email: string };
}

const isPermission = (p: string): p is Permission => (PERMISSIONS as readonly string[]).includes(p);

/**
 * Works out who acts in a request: the account of its session token on this store (bearer first,
 * then the cookie), else a guest with the cart cookie it may carry. One session lookup per request.
 */
export function createActorResolver(
  auth: AuthService,
  opts: {
    guestCartToken(headers: IncomingHttpHeaders): string | null;
    /** A platform operator's support session on this store (decision 101), when the operator module runs. */
    resolveSupport?(tenant: TenantContext, token: string): Promise<SupportAccount | null>;
  },
) {
  return async (tenant: TenantContext, headers: IncomingHttpHeaders): Promise<Actor> => {
    const found = requestToken(headers);
    // Support tokens have a prefix of their own: only they cost the extra lookup.
    if (found?.token.startsWith('sup_') && opts.resolveSupport) {
      const support = await opts.resolveSupport(tenant, found.token);
      if (support) {
        const { support: marker, ...account } = support;
        return {
          kind: 'staff',
          role: 'admin',
          permissions: new Set(PERMISSIONS),
          ...account,
          session: found,
          support: marker,
        };
      }
    }
    const account = found ? await auth.resolve(tenant, found.token) : null;
    if (!found || !account) return { kind: 'guest', cartToken: opts.guestCartToken(headers) };
    const signedIn = {
      userId: account.userId,
      firstName: account.firstName,
      userLoginId: account.userLoginId,
      session: found,
    };
    if (account.partyId === 'shopper') return { kind: 'shopper', access: account.accessStatus, ...signedIn };
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
