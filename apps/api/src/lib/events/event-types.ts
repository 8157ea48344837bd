import { z } from 'zod';

const id = z.string().min(1).max(200);

/**
 * Every event the platform emits, with its payload. Payloads say what changed, not the new values:
 * a subscriber reads the database afresh, so an event that arrives late or twice does no harm.
 * The schemas check what arrives from other processes (anyone with the database's password can
 * NOTIFY); inside a process the types are the check.
 */
export const eventSchemas = {
  /** Products, prices, names or categories of the tenant changed; no ids: any of them. */
  'catalog.changed': z.object({
    tenantId: id,
    productIds: z.array(id).optional(),
    categoryIds: z.array(id).optional(),
  }),
  /** Stock of these products changed (an order took it, a cancel or return gave it back, an edit). */
  'stock.changed': z.object({ tenantId: id, productIds: z.array(id) }),
  /** A review of the product was published: its rating summary changed. */
  'review.created': z.object({ tenantId: id, productId: id }),
  /** The store published, hid or answered a review of the product: its page and summary changed. */
  'review.changed': z.object({ tenantId: id, productId: id }),
  /** An order moved from one status to another through its state machine. */
  'order.transitioned': z.object({ tenantId: id, orderId: id, from: id, to: id }),
  /** A return request moved from one status to another (the store's decision, or the shopper's). */
  'return.transitioned': z.object({ tenantId: id, returnId: id, orderId: id, from: id, to: id }),
  /** Money went back to the shopper of an order (a refund succeeded): takings and the order's payment changed. */
  'order.refunded': z.object({ tenantId: id, orderId: id, refundId: id }),
  /**
   * How the store takes PayPal changed (its seller account was connected, checked, revoked or
   * disconnected, or its PP_CONFIG edited): checkout's cached payment account must be read again.
   */
  'payments.changed': z.object({ tenantId: id }),
  /** Store settings changed; `what` names the part (e.g. 'theme', 'hosts', 'access'), '*' for any. */
  'settings.changed': z.object({ tenantId: id, what: z.string().min(1).max(200) }),
  /** An owner asked for the tenant's sitemap to be generated (the job that will do it). */
  'sitemap.requested': z.object({ tenantId: id, jobId: id }),
  /** The tenant's sitemap files were written anew. */
  'sitemap.generated': z.object({ tenantId: id, jobId: id }),
  /** The tenant's cancel request moved from one status to another (decision 028). */
  'cancel_request.transitioned': z.object({ tenantId: id, from: id, to: id }),
  /** A store's lifecycle state changed (decision 099): every process drops its cached state of the tenant. */
  'store.lifecycle.changed': z.object({ tenantId: id, from: id, to: id }),
  /** A store switched databases (decision 123): every process reads the placements again. */
  'store.moved': z.object({ tenantId: id, database: id }),
  /**
   * Events may have been lost (this process's link to the others dropped and came back): whatever
   * is cached from the database must be read afresh. Emitted by the bus; writers do not emit it.
   */
  'events.missed': z.object({ reason: z.string().max(200) }),
} as const;

export type AppEvents = { [N in keyof typeof eventSchemas]: z.infer<(typeof eventSchemas)[N]> };
export type EventName = keyof AppEvents;
export const EVENT_NAMES = Object.keys(eventSchemas) as EventName[];

/** A smaller event saying at least as much, for a payload too big to send; null when there is none. */
type Coarser = { [N in EventName]?: (p: AppEvents[N]) => WireEvent | null };
export type WireEvent = { [N in EventName]: { name: N; payload: AppEvents[N] } }[EventName];

/**
 * The coarser form of each event: the ids dropped, so the whole tenant's catalog is read again. A
 * stock change of very many products (an import) becomes a catalog change: a rebuild of the index
 * rather than thousands of patched rows, which is what it costs anyway.
 */
export const coarser: Coarser = {
  'catalog.changed': (p) =>
    p.productIds || p.categoryIds ? { name: 'catalog.changed', payload: { tenantId: p.tenantId } } : null,
  'stock.changed': (p) => ({ name: 'catalog.changed', payload: { tenantId: p.tenantId } }),
  'settings.changed': (p) =>
    p.what === '*' ? null : { name: 'settings.changed', payload: { tenantId: p.tenantId, what: '*' } },
};
