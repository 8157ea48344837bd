import { z } from 'zod';
import { accessModeSchema } from './access-mode';
import { ACCOUNT_ACCESS_STATUSES } from './access-mode-display';
import { forgotPasswordQuerySchema, resetPasswordRequestSchema } from './auth';
import type { FormOutcome } from './storefront';

export * from './access-mode';

// Store access modes (decision 105): who may see a store's catalog, prices, search, sitemap and feed.

/** PUT /api/v1/store-access/mode. */
export const accessModeRequestSchema = z.strictObject({ accessMode: accessModeSchema });
export type AccessModeRequest = z.infer<typeof accessModeRequestSchema>;

export const accessModeStateSchema = z.object({
  tenantId: z.string(),
  accessMode: accessModeSchema,
  /** The clients' name: true only while the store is public. */
  isWs2Public: z.boolean(),
});
export type AccessModeState = z.infer<typeof accessModeStateSchema>;

/** An account waiting for (or refused) the owner's approval. */
export const accountRequestSchema = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  status: z.enum(['pending', 'declined']),
  /** Until the person confirms their email, approving lets them in only once they do. */
  emailConfirmed: z.boolean(),
  requestedAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type AccountRequest = z.infer<typeof accountRequestSchema>;

/** POST /api/v1/store-access/requests/{userId}/{decision}. */
export const accountDecisionParamsSchema = z.object({
  userId: z.string().trim().min(1).max(100),
  decision: z.enum(['approve', 'decline']),
});

export const customerInvitationSchema = z.object({
  invitationId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type CustomerInvitation = z.infer<typeof customerInvitationSchema>;

const personName = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `Please enter the ${label}.`)
    .max(50, `The ${label} is longer than 50 characters.`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
    .refine((v) => !/[\u0000-\u001f<>]/.test(v), `The ${label} has characters a name cannot have.`);

/** POST /api/v1/store-access/invitations. */
export const customerInviteRequestSchema = z.strictObject({
  email: forgotPasswordQuerySchema.shape.email,
  firstName: personName('first name'),
  lastName: personName('last name'),
});
export type CustomerInviteRequest = z.input<typeof customerInviteRequestSchema>;

export const customerInvitationIdParamsSchema = z.object({ invitationId: z.string().trim().min(1).max(100) });

const invitationToken = z
  .string()
  .trim()
  .min(20, 'The invitation link is incomplete.')
  .max(100, 'The invitation link is not valid.')
  .regex(/^[A-Za-z0-9_-]+$/, 'The invitation link is not valid.');

export const customerInvitationTokenQuerySchema = z.strictObject({ token: invitationToken });

/** POST /api/v1/store-access/invitation/accept: the mailed link's token and the new password. */
export const customerAcceptRequestSchema = z.strictObject({
  token: invitationToken,
  password: resetPasswordRequestSchema.shape.password,
});
export type CustomerAcceptRequest = z.infer<typeof customerAcceptRequestSchema>;

export const customerInvitationPreviewSchema = z.object({
  email: z.string(),
  firstName: z.string(),
  storeName: z.string(),
});
export type CustomerInvitationPreview = z.infer<typeof customerInvitationPreviewSchema>;

/** The owner's section of the access page: the mode, the accounts waiting, the invitations out. */
export const storeAccessSettingsSchema = z.object({
  accessMode: accessModeSchema,
  requests: z.array(accountRequestSchema),
  invitations: z.array(customerInvitationSchema),
  /** Only the owner changes the mode and decides; staff with `settings` only look. */
  canManage: z.boolean(),
});
export type StoreAccessSettings = z.infer<typeof storeAccessSettingsSchema>;

export type StoreAccessFormField = 'accessMode' | 'email' | 'firstName' | 'lastName';
export type StoreAccessFormResult = { ok: true; message: string } | FormOutcome<StoreAccessFormField>;
export type CustomerAcceptFormResult = { ok: true; message: string } | FormOutcome<'password' | 'token'>;

/** GET /api/v1/store-access/standing: where the request's account stands, for the waiting page. */
export const accountStandingSchema = z.object({
  accessMode: accessModeSchema,
  /** null for a visitor or staff; `approved` for every account outside the modes that ask for approval. */
  status: z.enum(ACCOUNT_ACCESS_STATUSES).nullable(),
  email: z.string().nullable(),
});
export type AccountStanding = z.infer<typeof accountStandingSchema>;

/** Page functions of the access modes (apps/api modules/store-access). */
export interface StoreAccessPages {
  storeAccessSettings(): Promise<StoreAccessSettings>;
  /** One form, one intent: access-mode, approve, decline, invite-customer, revoke-customer-invitation. */
  storeAccessAction(form: Record<string, string | string[]>): Promise<StoreAccessFormResult>;
  accountStanding(): Promise<AccountStanding>;
  customerInvitation(token: string): Promise<CustomerInvitationPreview | null>;
  acceptCustomerInvitation(input: { token: string; password: string }): Promise<CustomerAcceptFormResult>;
}
