import { z } from 'zod';
import { accessModeSchema } from './access-mode';
import { forgotPasswordQuerySchema, resetPasswordRequestSchema } from './auth';
import { STAFF_PERMISSIONS } from './staff-permissions';
import type { FormOutcome } from './storefront';

export * from './staff-permissions';

// Store access (decision 027): whether the store is public, and who is
// on its staff. The permission names are lib/context.ts's PERMISSIONS.

/** POST /api/tenant/add/constraints and /remove/constraints: body {tenantId}. */
export const constraintsRequestSchema = z.strictObject({
  tenantId: z.string().trim().min(1, 'tenantId is required').max(64, 'tenantId is longer than 64 characters'),
});
export type ConstraintsRequest = z.infer<typeof constraintsRequestSchema>;

export const storeVisibilitySchema = z.object({
  tenantId: z.string(),
  /** The clients' name: false while constraints are on (any access mode but public, decision 105). */
  isWs2Public: z.boolean(),
  accessMode: accessModeSchema,
});
export type StoreVisibility = z.infer<typeof storeVisibilitySchema>;

export const staffMemberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(['admin', 'staff']),
  permissions: z.array(z.enum(STAFF_PERMISSIONS)),
  /** The signed-in person themselves: the page offers them no remove button. */
  isYou: z.boolean(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffInvitationSchema = z.object({
  invitationId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  permissions: z.array(z.enum(STAFF_PERMISSIONS)),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type StaffInvitation = z.infer<typeof staffInvitationSchema>;

/** The access page: visibility, the staff, invitations waiting, and what the reader may change. */
export const accessSettingsSchema = z.object({
  visibility: storeVisibilitySchema,
  staff: z.array(staffMemberSchema),
  invitations: z.array(staffInvitationSchema),
  /** Only the owner changes visibility and the staff; staff with `settings` only look. */
  canManage: z.boolean(),
});
export type AccessSettings = z.infer<typeof accessSettingsSchema>;

const personName = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `Please enter the ${label}.`)
    .max(50, `The ${label} is longer than 50 characters.`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
    .refine((v) => !/[\u0000-\u001f<>]/.test(v), `The ${label} has characters a name cannot have.`);

const permissionList = z
  .array(z.enum(STAFF_PERMISSIONS, { message: 'Choose permissions from the list.' }))
  .min(1, 'Choose at least one permission.')
  .max(STAFF_PERMISSIONS.length)
  .transform((p) => [...new Set(p)].sort());

/** POST /api/v1/staff/invite. */
export const staffInviteRequestSchema = z.strictObject({
  email: forgotPasswordQuerySchema.shape.email,
  firstName: personName('first name'),
  lastName: personName('last name'),
  permissions: permissionList,
});
export type StaffInviteRequest = z.input<typeof staffInviteRequestSchema>;

/** PUT /api/v1/staff/update/{userId}. */
export const staffUpdateRequestSchema = z.strictObject({ permissions: permissionList });
export type StaffUpdateRequest = z.input<typeof staffUpdateRequestSchema>;

export const staffUserIdParamsSchema = z.object({ userId: z.string().trim().min(1).max(100) });
export const staffInvitationIdParamsSchema = z.object({ invitationId: z.string().trim().min(1).max(100) });

const invitationToken = z
  .string()
  .trim()
  .min(20, 'The invitation link is incomplete.')
  .max(100, 'The invitation link is not valid.')
  .regex(/^[A-Za-z0-9_-]+$/, 'The invitation link is not valid.');

export const staffInvitationTokenQuerySchema = z.strictObject({ token: invitationToken });

/** POST /api/v1/staff/invitation/accept: the mailed link's token and the new password. */
export const staffAcceptRequestSchema = z.strictObject({
  token: invitationToken,
  password: resetPasswordRequestSchema.shape.password,
});
export type StaffAcceptRequest = z.infer<typeof staffAcceptRequestSchema>;

/** What the set-password page shows before the password is chosen. */
export const staffInvitationPreviewSchema = z.object({
  email: z.string(),
  firstName: z.string(),
  storeName: z.string(),
  permissions: z.array(z.enum(STAFF_PERMISSIONS)),
});
export type StaffInvitationPreview = z.infer<typeof staffInvitationPreviewSchema>;

export const INVITATION_INVALID_MESSAGE =
  'This invitation is invalid, used, revoked or expired. Please ask the store owner for a new one.';
export const STORE_PRIVATE_MESSAGE = 'This store is private. Please log in or create an account to continue.';

export type AccessFormField = 'email' | 'firstName' | 'lastName' | 'permissions';
export type AccessFormResult = { ok: true; message: string } | FormOutcome<AccessFormField>;
export type AcceptFormResult = { ok: true; message: string } | FormOutcome<'password' | 'token'>;

/** The access page's page functions (apps/api modules/staff and modules/tenant). */
export interface AccessPages {
  accessSettings(): Promise<AccessSettings>;
  /** One form, one intent: visibility, invite, update, remove, revoke (see the route's action). */
  accessAction(form: Record<string, string | string[]>): Promise<AccessFormResult>;
  staffInvitation(token: string): Promise<StaffInvitationPreview | null>;
  acceptStaffInvitation(input: { token: string; password: string }): Promise<AcceptFormResult>;
}
