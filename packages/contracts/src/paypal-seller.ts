import { z } from 'zod';
import { PAYPAL_CONFIG_ID, SELLER_REASONS, SELLER_STATUSES, type SellerStatus } from './payments-display';
import type { FormOutcome } from './storefront';

/** GET /api/paypal/seller/fetch: whose onboarding state to read. */
export const sellerFetchQuerySchema = z.strictObject({
  tenantId: z.string().trim().min(1, 'tenantId is required.').max(64, 'tenantId is longer than 64 characters.'),
});

const reasonCode = z.enum(
  Object.keys(SELLER_REASONS) as [keyof typeof SELLER_REASONS, ...(keyof typeof SELLER_REASONS)[]],
);

/** A store's PayPal seller account as its owner sees it. */
export const sellerStateSchema = z.object({
  tenantId: z.string(),
  status: z.enum(SELLER_STATUSES),
  /** Only once PayPal confirmed it for this store. */
  merchantId: z.string().nullable(),
  /** What the owner still has to do at PayPal, in order. */
  reasons: z.array(z.object({ code: reasonCode, message: z.string() })),
  paymentsReceivable: z.boolean().nullable(),
  primaryEmailConfirmed: z.boolean().nullable(),
  environment: z.enum(['sandbox', 'live']).nullable(),
  checkedAt: z.string().nullable(),
  connectedAt: z.string().nullable(),
  /** Whether checkout offers PayPal in this store now (connected or its own app, and enabled). */
  checkoutEnabled: z.boolean(),
  /** False when the platform has no PayPal partner set-up: connecting is not possible. */
  onboardingAvailable: z.boolean(),
});
export type SellerState = z.infer<typeof sellerStateSchema>;

const configId = z.literal(PAYPAL_CONFIG_ID, { error: `configId must be ${PAYPAL_CONFIG_ID}.` });

/** GET /admin/getPaypalConfig?configId=PP_CONFIG */
export const paypalConfigQuerySchema = z.strictObject({ configId });

/** The store's PayPal settings. Secrets are never in it: `clientSecretSet` says one is stored. */
export const paypalConfigSchema = z.object({
  configId,
  enabled: z.boolean(),
  environment: z.enum(['sandbox', 'live']),
  /** How checkout takes PayPal: through the connected seller account, the store's own app, or not at all. */
  mode: z.enum(['partner', 'own_app', 'none']),
  /** Read-only: the merchant id PayPal confirmed when the store connected. */
  merchantId: z.string().nullable(),
  ownApp: z.object({ clientId: z.string(), clientSecretSet: z.literal(true), clientSecret: z.string() }).nullable(),
  updatedAt: z.string().nullable(),
});
export type PaypalConfig = z.infer<typeof paypalConfigSchema>;

/**
 * POST /admin/updatePaypalConfig. `ownApp: null` removes the store's own app; an own app without
 * `clientSecret` keeps the stored secret (the form never has it to send back).
 */
export const paypalConfigUpdateSchema = z.strictObject({
  configId,
  enabled: z.boolean().optional(),
  environment: z.enum(['sandbox', 'live']).optional(),
  ownApp: z
    .strictObject({
      clientId: z
        .string()
        .trim()
        .min(10, 'The client id is at least 10 characters.')
        .max(128, 'The client id is at most 128 characters.')
        .regex(/^[A-Za-z0-9_-]+$/, 'The client id has letters, digits, - and _ only.'),
      clientSecret: z
        .string()
        .trim()
        .min(10, 'The secret is at least 10 characters.')
        .max(256, 'The secret is at most 256 characters.')
        .optional(),
    })
    .nullable()
    .optional(),
});
export type PaypalConfigUpdate = z.infer<typeof paypalConfigUpdateSchema>;

/** One payment PayPal reported that the store could not match (payment_issues). */
export const paymentIssueSchema = z.object({
  issueId: z.string(),
  kind: z.string(),
  paypalOrderId: z.string().nullable(),
  captureId: z.string().nullable(),
  orderId: z.string().nullable(),
  amount: z.number().int().nullable(),
  currency: z.string().nullable(),
  message: z.string(),
  status: z.enum(['open', 'voided', 'resolved']),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolution: z.string().nullable(),
});
export type PaymentIssue = z.infer<typeof paymentIssueSchema>;

/** The PayPal settings form's fields (/manage-store/payments/settings). */
export const PAYPAL_SETTINGS_FIELDS = ['enabled', 'environment', 'clientId', 'clientSecret'] as const;
export type PaypalSettingsField = (typeof PAYPAL_SETTINGS_FIELDS)[number];
/** What the form posts: `enabled` is "on" when ticked. The secret is never sent back to the page. */
export type PaypalSettingsFormValues = Partial<Record<PaypalSettingsField, string>>;

export type PaypalSettingsFormResult =
  | { ok: true; message: string; config: PaypalConfig }
  | FormOutcome<PaypalSettingsField>;

/** The PayPal settings page; each function needs the payments permission. */
export interface PaypalSettingsPages {
  paypalSettingsPage(): Promise<{
    config: PaypalConfig;
    /** The store's seller account at PayPal, as the payments page names it. */
    seller: { status: SellerStatus; label: string };
  }>;
  /** `save` writes the form; `remove-app` removes the store's own app (the seller account stays). */
  savePaypalSettings(
    intent: 'save' | 'remove-app',
    fields: PaypalSettingsFormValues,
  ): Promise<PaypalSettingsFormResult>;
}
