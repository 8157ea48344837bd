import { z } from 'zod';

/**
 * A store's lifecycle on the platform (decision 099): one state per tenant, changed only through
 * the store-lifecycle module's `transition`, each change kept in a history (who, when, why).
 *
 * provisioning -> active <-> suspended; active -> closing (a cancel request approved) -> closed -> purged.
 * Access (public or private) is a separate setting: a state says whether the store is open at all.
 */
export const STORE_STATES = ['provisioning', 'active', 'suspended', 'closing', 'closed', 'purged'] as const;
export const storeStateSchema = z.enum(STORE_STATES);
export type StoreState = z.infer<typeof storeStateSchema>;

/**
 * Every move the state machine allows. `closing -> active` undoes an approval by mistake within the
 * 30 days (the owner changed their mind and the platform agrees); `suspended -> closing` lets the
 * platform approve a suspended store's cancel request; `suspended -> closed` closes a store for abuse
 * without the 30 days of export. Nothing leaves `purged`.
 */
export const STORE_TRANSITIONS: Readonly<Record<StoreState, readonly StoreState[]>> = {
  provisioning: ['active', 'closed'],
  active: ['suspended', 'closing', 'closed'],
  suspended: ['active', 'closing', 'closed'],
  closing: ['closed', 'active'],
  closed: ['purged'],
  purged: [],
};

export function canTransitionStore(from: StoreState, to: StoreState): boolean {
  return STORE_TRANSITIONS[from].includes(to);
}

export const STORE_STATE_LABELS: Readonly<Record<StoreState, string>> = {
  provisioning: 'Being set up',
  active: 'Active',
  suspended: 'Suspended',
  closing: 'Closing',
  closed: 'Closed',
  purged: 'Purged',
};

/** How long a closing store's owner may still sign in and export before the store closes. */
export const CLOSING_EXPORT_DAYS = 30;

/** A reason is required for every change: the history says why. */
export const storeTransitionReasonSchema = z
  .string({ error: 'Please give a reason.' })
  .trim()
  .min(1, 'Please give a reason.')
  .max(1000, 'Please keep the reason under 1000 characters.');

/** Who changed a store's state, as its history keeps it. */
export const storeActorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('operator'), operatorId: z.string(), email: z.string() }),
  z.object({ kind: z.literal('system'), name: z.string() }),
  z.object({ kind: z.literal('owner'), userId: z.string(), tenantId: z.string() }),
]);
export type PlatformActor = z.infer<typeof storeActorSchema>;

/** One change of a store's state. */
export const storeStateChangeSchema = z.object({
  seq: z.number().int(),
  from: storeStateSchema.nullable(),
  to: storeStateSchema,
  reason: z.string(),
  actor: storeActorSchema,
  at: z.string(),
});
export type StoreStateChange = z.infer<typeof storeStateChangeSchema>;

/** A store's current state, as the operator's store page and the dashboard's banner read it. */
export const storeLifecycleSchema = z.object({
  tenantId: z.string(),
  state: storeStateSchema,
  since: z.string().nullable(),
  /** For `closing`: when the store closes and the owner's export ends. */
  closesAt: z.string().nullable(),
});
export type StoreLifecycle = z.infer<typeof storeLifecycleSchema>;

/** Stable codes a store's state answers with (the error envelope's `code`). */
export const STORE_STATE_CODES = {
  /** 503: the storefront and its API while the store is suspended. */
  suspended: 'STORE_SUSPENDED',
  /** 423: an owner's or staff member's write while the dashboard is read-only (suspended, closing). */
  readOnly: 'STORE_READ_ONLY',
  /** 410: the storefront and its API once the store is closing or closed; sign-in once closed. */
  closed: 'STORE_CLOSED',
  /** 503: the storefront before the store has opened (provisioning). */
  notOpen: 'STORE_NOT_OPEN',
} as const;

export const STORE_SUSPENDED_MESSAGE = 'This store is temporarily unavailable. Please come back later.';
export const STORE_CLOSED_MESSAGE = 'This store is closed.';
export const STORE_NOT_OPEN_MESSAGE = 'This store has not opened yet.';
export const STORE_READ_ONLY_MESSAGE = {
  suspended:
    'Your store is suspended by the platform: the dashboard is read-only until it is resumed. Contact the platform’s support to learn why.',
  closing:
    'Your store is closing: the dashboard is read-only. You can still sign in and export your data until it closes.',
} as const;

/**
 * What the dashboard shows of its store's state: the banner's text (null when the store is active)
 * and whether changes are refused.
 */
export const dashboardLifecycleSchema = z.object({
  state: storeStateSchema,
  readOnly: z.boolean(),
  closesAt: z.string().nullable(),
  banner: z.string().nullable(),
});
export type DashboardLifecycle = z.infer<typeof dashboardLifecycleSchema>;
