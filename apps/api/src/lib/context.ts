import type { StoreState } from '@app/contracts';
import type { Db } from '@app/db';

/**
 * The store a request is for, worked out from its Host on the server. Services that only need the
 * store (public catalog reads, the store's own settings) read nothing else of the request.
 */
export interface TenantContext {
  tenantId: string;
  /** The product store the host serves; requests may name another store of the same tenant. */
  productStoreId: string;
  hostName: string;
  /** True when the host reached the tenant through the `development` alias. */
  viaDevAlias: boolean;
  /** scheme://host[:port] of the request, for absolute URLs in answers. */
  origin: string;
  /**
   * The store's lifecycle state (decision 099), set by the tenancy plugin for every request, so any
   * surface can ask what the state allows (store-lifecycle's rules). Absent in a context built
   * outside a request (a job, a test): such a context is treated as `active`.
   */
  state?: StoreState;
}

/**
 * What a staff member may do besides shopping. The owner (`admin`) holds every permission; a staff
 * member holds the ones the owner granted (decision 016 has the table of routes per permission).
 */
export const PERMISSIONS = ['settings', 'catalog', 'orders', 'customers', 'payments'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** A signed-in account: its id, what the header shows, and the session that proved it. */
interface SignedIn {
  userId: string;
  firstName: string;
  userLoginId: string;
  /** The session token and how it came (the web app's cookie, or `Authorization: Bearer`). */
  session: { token: string; via: 'cookie' | 'bearer' };
}

/**
 * Who acts in a request: a guest (maybe with a cart cookie), a shopper, or a staff member of this
 * store. Resolved once per request; nothing else says who is acting.
 */
export type Actor =
  | { kind: 'guest'; cartToken: string | null }
  /** Work no person started in this request: a job, a sweep, the seed. */
  | { kind: 'system'; name: string }
  | ({
      kind: 'shopper';
      /**
       * The owner's answer to this account where the store admits approved accounts only (decision
       * 105): a `pending` or `declined` account sees nothing there. Absent means approved.
       */
      access?: 'approved' | 'pending' | 'declined';
    } & SignedIn)
  | ({
      kind: 'staff';
      /** `admin` is the store's owner (the clients' user type, `partyId` for the client). */
      role: 'admin' | 'staff';
      permissions: ReadonlySet<Permission>;
      /**
       * Set when a platform operator acts in the store as support, with the owner's consent (decision
       * 101): the session is the owner's role, and every audit entry names the operator.
       */
      support?: { operatorId: string; email: string };
    } & SignedIn);

/**
 * Everything a service may know about a request (Vendure's RequestContext): the store and who acts.
 * Every service function takes it (or its TenantContext part, for store-only reads) first.
 */
export interface RequestContext extends TenantContext {
  actor: Actor;
  /** The request's id (x-request-id), for audit entries and logs. */
  requestId: string;
  /** The client's address as the server sees it (rate limits, contact messages). */
  ip: string | null;
  /**
   * The owner's preview switch is on (decision 032): the storefront shows drafts instead of what
   * is live. Only ever true for an actor who may edit settings; absent means off.
   */
  preview?: boolean;
}

/** The signed-in account of a context, or null for a guest. */
export function signedInUser(ctx: RequestContext): (SignedIn & { kind: 'shopper' | 'staff' }) | null {
  return ctx.actor.kind === 'shopper' || ctx.actor.kind === 'staff' ? ctx.actor : null;
}

/** Whether the actor may do what `permission` covers: the owner always, staff when granted. */
export function hasPermission(ctx: RequestContext, permission: Permission): boolean {
  const a = ctx.actor;
  return a.kind === 'staff' && (a.role === 'admin' || a.permissions.has(permission));
}

/** A context for work no request started (jobs, sweeps, the seed): the platform acts, under `name`. */
export function systemContext(tenant: TenantContext, name: string, requestId = name): RequestContext {
  return { ...tenant, actor: { kind: 'system', name }, requestId, ip: null };
}

/** What services are built with: the database and nothing request-specific. */
export interface ServiceDeps {
  db: Db;
}
