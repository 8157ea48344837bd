import { z } from 'zod';
import type { FormOutcome } from './storefront';

/**
 * A tenant's cancel request (decision 028). `none` before the first one; the owner files
 * (`requested`) and withdraws (`withdrawn`) it from the dashboard; the platform approves it (the
 * store starts closing) or declines it with a reason the owner reads (`declined`, after which the
 * owner may file again); `closed` once the store has closed (decision 099).
 */
export const CANCEL_REQUEST_STATUSES = ['none', 'requested', 'withdrawn', 'approved', 'declined', 'closed'] as const;
export const cancelRequestStatusSchema = z.enum(CANCEL_REQUEST_STATUSES);
export type CancelRequestStatus = z.infer<typeof cancelRequestStatusSchema>;

export const CANCEL_REASON_MAX = 1000;

/** PATCH /api/tenant/cancel_request/{id}/initiate. */
export const cancelRequestInitiateSchema = z.strictObject({
  cancelRequestReason: z
    .string({ error: 'Please tell us why you want to cancel.' })
    .trim()
    .min(1, 'Please tell us why you want to cancel.')
    .max(CANCEL_REASON_MAX, `Please keep the reason under ${CANCEL_REASON_MAX} characters.`),
});
export type CancelRequestInitiate = z.infer<typeof cancelRequestInitiateSchema>;

export const cancelRequestIdParamsSchema = z.object({ id: z.string().trim().min(1).max(64) });

/** What GET /api/fetch/tenant reports of it to anyone: the state, never the reason. */
export const cancelRequestStateSchema = z.object({
  status: cancelRequestStatusSchema,
  requestedAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type CancelRequestState = z.infer<typeof cancelRequestStateSchema>;

/** The owner's view (the danger zone and the PATCH answers). */
export const cancelRequestSchema = cancelRequestStateSchema.extend({
  tenantId: z.string(),
  reason: z.string().nullable(),
  /** The platform's answer: when it approved or declined, and why (shown to the owner when declined). */
  decidedAt: z.string().nullable(),
  decisionReason: z.string().nullable(),
  /** Once approved: when the store closes; the owner may sign in and export until then. */
  closesAt: z.string().nullable(),
  /** The transitions the dashboard may ask for from here. */
  canInitiate: z.boolean(),
  canWithdraw: z.boolean(),
});
export type CancelRequest = z.infer<typeof cancelRequestSchema>;

export type CancelRequestField = 'cancelRequestReason' | 'confirm';
export type CancelRequestResult =
  | { ok: true; message: string; cancelRequest: CancelRequest }
  | FormOutcome<CancelRequestField>;

export interface CancelRequestPages {
  /** The danger zone's data; the owner only (staff get 403). */
  cancelRequest(): Promise<CancelRequest>;
  initiateCancelRequest(input: { cancelRequestReason: string; confirm: boolean }): Promise<CancelRequestResult>;
  withdrawCancelRequest(): Promise<CancelRequestResult>;
}
