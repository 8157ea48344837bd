import { hasPermission, type Permission, type RequestContext, signedInUser } from './context';
import { AppError } from './errors';

/**
 * What an owner route or page needs: a staff member of this store holding `permission` (the owner
 * holds them all), or any staff member for `'staff'`. Route config `permission` and page functions
 * both go through here, so the rule exists once.
 */
export type Access = Permission | 'staff';

/** Why a context may not do what `access` covers, or null when it may. */
export function accessRefusal(ctx: RequestContext, access: Access): AppError | null {
  if (!signedInUser(ctx)) return new AppError(401, 'UNAUTHENTICATED', 'Please log in to continue.');
  if (ctx.actor.kind !== 'staff') {
    return AppError.forbidden('Only the store owner and staff can manage the store.');
  }
  if (access !== 'staff' && !hasPermission(ctx, access)) {
    return AppError.forbidden(`Your staff account does not have the ${access} permission.`);
  }
  return null;
}

/** Throws 401 for a visitor, 403 for a shopper or for staff without the permission. */
export function requireAccess(
  ctx: RequestContext,
  access: Access,
): asserts ctx is RequestContext & {
  actor: Extract<RequestContext['actor'], { kind: 'staff' }>;
} {
  const refusal = accessRefusal(ctx, access);
  if (refusal) throw refusal;
}

/**
 * What a platform operator in the store as support (decision 101) may not do, though the session acts
 * with the owner's permissions: anything that would outlast the owner's grant or take the store from
 * its owner. That covers its staff, where its payments are paid out (Stripe keys, the PayPal account)
 * and asking to close it. A 403 that names the action.
 */
export function refuseSupport(ctx: RequestContext, what: string) {
  if (ctx.actor.kind === 'staff' && ctx.actor.support) {
    throw AppError.forbidden(`Platform support cannot ${what}: only the owner can.`);
  }
}

/** The signed-in account of the request, or a 401 (a shopper's own pages and calls). */
export function requireSignedIn(ctx: RequestContext) {
  const user = signedInUser(ctx);
  if (!user) throw new AppError(401, 'UNAUTHENTICATED', 'Please log in to continue.');
  return user;
}
