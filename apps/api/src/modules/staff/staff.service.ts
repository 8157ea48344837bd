import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type AccessSettings,
  INVITATION_INVALID_MESSAGE,
  STAFF_PERMISSION_LABELS,
  STAFF_PERMISSIONS,
  type StaffInvitation,
  type StaffInvitationPreview,
  type StaffMember,
  type StaffPermission,
} from '@app/contracts';
import { type Db, hashPassword, schema } from '@app/db';
import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import { refuseSupport, requireAccess } from '../../lib/access';
import { type RequestContext, signedInUser, type TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { ok, type Refusal, Refused, type Result, refuse, refuseField, returnRefusals } from '../../lib/result';
import type { AuditService } from '../audit/index';
import { acceptInvitedAccount, changeAccount } from '../auth/index';
import type { MailQueue } from '../mail/index';
import { requireOwner, type StoreVisibilityService } from '../tenant/index';

const u = schema.users;
const inv = schema.staffInvitations;

/** How long an invitation link works: a week, as Shopify's staff invitations. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Inviting: the email is already on the staff (decision 088). */
export type InviteRefusal = Refusal<'CONFLICT'>;
/** Changing or removing a member: the store owner's access is not theirs to change. */
export type OwnerUntouchableRefusal = Refusal<'UNPROCESSABLE'>;
/**
 * Accepting an invitation: its link is used, revoked, expired, unknown or of another store, or names
 * the store owner's email (400 on the `token` field, one message for all).
 */
export type AcceptInvitationRefusal = Refusal<'BAD_REQUEST'>;

const invitationInvalid = (): AcceptInvitationRefusal =>
  refuseField(400, 'BAD_REQUEST', 'token', INVITATION_INVALID_MESSAGE);

export interface StaffDeps {
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  audit: Pick<AuditService, 'record'>;
  mailer: MailQueue;
  visibility: Pick<StoreVisibilityService, 'visibility'>;
  /** scheme://host[:port] for links in mail, from a store's canonical host (never the request's Host). */
  linkOrigin: (canonicalHost: string) => string;
}

const permissionsOf = (p: string[]) => STAFF_PERMISSIONS.filter((x) => p.includes(x)) as StaffPermission[];

/**
 * The store's staff (decision 027): the owner invites people by email with chosen permissions, the
 * mailed link sets their password and makes them staff, and the owner changes or removes access.
 * Every write is the owner's, audited in its transaction, and emits `settings.changed` ('staff').
 */
/**
 * Who may work with the store's staff: its owner, in their own session. A platform operator in the
 * store as support (decision 101) may not: an account they invited would outlast the owner's grant.
 */
function ownerNotSupport(ctx: RequestContext, what: string) {
  const checked = requireOwner(ctx, what);
  refuseSupport(ctx, what);
  return checked;
}

export function createStaffService(db: Db, deps: StaffDeps) {
  const pending = (ctx: TenantContext) =>
    and(eq(inv.tenantId, ctx.tenantId), isNull(inv.acceptedAt), isNull(inv.revokedAt), gt(inv.expiresAt, new Date()));

  async function store(ctx: TenantContext) {
    const [row] = await db
      .select({ name: schema.productStores.storeName, host: schema.productStores.canonicalHost })
      .from(schema.productStores)
      .where(
        and(
          eq(schema.productStores.tenantId, ctx.tenantId),
          eq(schema.productStores.productStoreId, ctx.productStoreId),
        ),
      );
    if (!row) throw AppError.notFound('Store not found.');
    return row;
  }

  async function staffMember(ctx: RequestContext, userId: string) {
    const [row] = await db
      .select()
      .from(u)
      .where(and(eq(u.tenantId, ctx.tenantId), eq(u.userId, userId), inArray(u.role, ['admin', 'staff'])));
    // Another store's id, a customer's or nobody's: the same 404.
    if (!row) throw AppError.notFound(`Staff member ${userId.slice(0, 64)} not found.`);
    return row;
  }

  return {
    async settings(ctx: RequestContext): Promise<AccessSettings> {
      requireAccess(ctx, 'settings');
      const me = signedInUser(ctx)?.userId;
      const [visibility, staff, invitations] = await Promise.all([
        deps.visibility.visibility(ctx),
        db
          .select()
          .from(u)
          .where(and(eq(u.tenantId, ctx.tenantId), inArray(u.role, ['admin', 'staff'])))
          .orderBy(asc(u.role), asc(u.email)),
        db.select().from(inv).where(pending(ctx)).orderBy(asc(inv.createdAt), asc(inv.email)),
      ]);
      return {
        visibility,
        staff: staff.map(
          (s): StaffMember => ({
            userId: s.userId,
            email: s.email,
            firstName: s.firstName,
            lastName: s.lastName,
            role: s.role === 'admin' ? 'admin' : 'staff',
            permissions: s.role === 'admin' ? [...STAFF_PERMISSIONS] : permissionsOf(s.permissions),
            isYou: s.userId === me,
          }),
        ),
        invitations: invitations.map(
          (i): StaffInvitation => ({
            invitationId: i.invitationId,
            email: i.email,
            firstName: i.firstName,
            lastName: i.lastName,
            permissions: permissionsOf(i.permissions),
            createdAt: i.createdAt.toISOString(),
            expiresAt: i.expiresAt.toISOString(),
          }),
        ),
        canManage: ctx.actor.kind === 'staff' && ctx.actor.role === 'admin',
      };
    },

    /**
     * Invites `email` to the staff: a new invitation (an earlier one to the same address stops
     * working) and a mail with the link that sets the password, both in one transaction.
     */
    async invite(
      ctx: RequestContext,
      input: { email: string; firstName: string; lastName: string; permissions: StaffPermission[] },
    ): Promise<Result<StaffInvitation, InviteRefusal>> {
      const owner = ownerNotSupport(ctx, 'invite staff');
      const [existing] = await db
        .select({ role: u.role })
        .from(u)
        .where(and(eq(u.tenantId, ctx.tenantId), eq(u.email, input.email)));
      if (existing && existing.role !== 'shopper') {
        return refuseField(409, 'CONFLICT', 'email', 'this person is already on your staff.');
      }
      const { name: storeName, host } = await store(ctx);
      const token = randomBytes(32).toString('base64url');
      const invitationId = `SI-${randomUUID()}`;
      const now = new Date();
      const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
      const permissions = permissionsOf(input.permissions);
      await deps.events.transaction(async (tx) => {
        await tx
          .update(inv)
          .set({ revokedAt: now })
          .where(and(pending(ctx), eq(inv.email, input.email)));
        await tx.insert(inv).values({
          tenantId: ctx.tenantId,
          invitationId,
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          permissions,
          tokenHash: hashToken(token),
          invitedBy: owner.actor.userId,
          createdAt: now,
          expiresAt,
        });
        await deps.audit.record(tx, ctx, {
          entity: 'staff.invitation',
          entityId: invitationId,
          action: 'create',
          after: { email: input.email, firstName: input.firstName, lastName: input.lastName, permissions },
        });
        const link = `${deps.linkOrigin(host)}/auth/staff-invitation?token=${token}`;
        const grants = permissions.map((p) => `- ${STAFF_PERMISSION_LABELS[p].label}`).join('\n');
        await deps.mailer.send(
          ctx,
          {
            to: input.email,
            subject: `You are invited to manage ${storeName}`,
            text:
              `Hello ${input.firstName},\n\n${owner.actor.firstName} invited you to the staff of ${storeName}, with access to:\n${grants}\n\n` +
              `Choose your password here to accept (the link works once, for 7 days):\n\n${link}\n\n` +
              `If you did not expect this, ignore this message: nothing happens until the link is used.`,
          },
          { tx },
        );
        deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'staff' });
      });
      return ok({
        invitationId,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        permissions,
        createdAt: now.toISOString(),
        expiresAt: expiresAt.toISOString(),
      });
    },

    /** Changes what a staff member may do; the owner's own access is every permission, always. */
    async updatePermissions(
      ctx: RequestContext,
      userId: string,
      permissions: StaffPermission[],
    ): Promise<Result<StaffMember, OwnerUntouchableRefusal>> {
      ownerNotSupport(ctx, 'change staff permissions');
      const member = await staffMember(ctx, userId);
      if (member.role === 'admin') {
        return refuse(422, 'UNPROCESSABLE', "The store owner's access cannot be changed.");
      }
      const next = permissionsOf(permissions);
      await deps.events.transaction(async (tx) => {
        await changeAccount(tx, ctx.tenantId, userId, { permissions: next });
        const logged = await deps.audit.record(tx, ctx, {
          entity: 'staff',
          entityId: userId,
          action: 'update',
          before: { permissions: permissionsOf(member.permissions) },
          after: { permissions: next },
        });
        if (logged) deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'staff' });
      });
      return ok({
        userId,
        email: member.email,
        firstName: member.firstName,
        lastName: member.lastName,
        role: 'staff' as const,
        permissions: next,
        isYou: false,
      });
    },

    /**
     * Ends a staff member's access at once: the account becomes a customer account (its orders stay
     * its own) and every session of it ends. The owner cannot be removed, by themselves or anyone.
     */
    async remove(ctx: RequestContext, userId: string): Promise<Result<undefined, OwnerUntouchableRefusal>> {
      const owner = ownerNotSupport(ctx, 'remove staff');
      const member = await staffMember(ctx, userId);
      if (member.role === 'admin' || member.userId === owner.actor.userId) {
        return refuse(422, 'UNPROCESSABLE', 'The store owner cannot be removed from the staff.');
      }
      await deps.events.transaction(async (tx) => {
        // A shopper again: the change of role ends the account's sessions.
        await changeAccount(tx, ctx.tenantId, userId, { role: 'shopper', permissions: [] });
        await deps.audit.record(tx, ctx, {
          entity: 'staff',
          entityId: userId,
          action: 'remove',
          before: { email: member.email, role: member.role, permissions: permissionsOf(member.permissions) },
        });
        deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'staff' });
      });
      return ok(undefined);
    },

    /** Withdraws an invitation that has not been accepted: its link stops working. */
    async revokeInvitation(ctx: RequestContext, invitationId: string): Promise<void> {
      ownerNotSupport(ctx, 'revoke invitations');
      await deps.events.transaction(async (tx) => {
        const [row] = await tx
          .update(inv)
          .set({ revokedAt: new Date() })
          .where(and(pending(ctx), eq(inv.invitationId, invitationId)))
          .returning();
        if (!row) throw AppError.notFound(`Invitation ${invitationId.slice(0, 64)} not found.`);
        await deps.audit.record(tx, ctx, {
          entity: 'staff.invitation',
          entityId: invitationId,
          action: 'revoke',
          before: { email: row.email, permissions: permissionsOf(row.permissions) },
        });
        deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'staff' });
      });
    },

    /** What the set-password page shows for a link; null when it does not (or no longer) work. */
    async preview(ctx: TenantContext, token: string): Promise<StaffInvitationPreview | null> {
      const [row] = await db
        .select()
        .from(inv)
        .where(and(pending(ctx), eq(inv.tokenHash, hashToken(token))));
      if (!row) return null;
      const { name } = await store(ctx);
      return {
        email: row.email,
        firstName: row.firstName,
        storeName: name,
        permissions: permissionsOf(row.permissions),
      };
    },

    /**
     * Accepts an invitation: sets the password and makes the account staff with the invitation's
     * permissions (a customer account of that email becomes staff: the link proves the inbox). The
     * link works once; sessions the account had end. Answers the email to log in with.
     */
    async accept(
      ctx: RequestContext,
      input: { token: string; password: string },
    ): Promise<Result<{ email: string }, AcceptInvitationRefusal>> {
      const passwordHash = await hashPassword(input.password);
      // Refused inside the transaction, so that the link marked used is unmarked; returned below.
      return returnRefusals<Result<{ email: string }, AcceptInvitationRefusal>, AcceptInvitationRefusal>(() =>
        deps.events.transaction(async (tx) => {
          const [used] = await tx
            .update(inv)
            .set({ acceptedAt: new Date() })
            .where(and(pending(ctx), eq(inv.tokenHash, hashToken(input.token))))
            .returning();
          if (!used) throw new Refused(invitationInvalid());
          const permissions = permissionsOf(used.permissions);
          // The owner is never made staff by a link; they were refused at invitation time already.
          const account = await acceptInvitedAccount(
            tx,
            ctx.tenantId,
            { email: used.email, firstName: used.firstName, lastName: used.lastName, passwordHash },
            { role: 'staff', permissions },
            () => true,
          );
          if (!account) throw new Refused(invitationInvalid());
          const { userId, before: existing } = account;
          await deps.audit.record(tx, ctx, {
            entity: 'staff',
            entityId: userId,
            action: 'accept-invitation',
            before: existing ? { role: existing.role, permissions: permissionsOf(existing.permissions) } : null,
            after: { email: used.email, role: 'staff', permissions, invitationId: used.invitationId },
          });
          deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'staff' });
          return ok({ email: used.email });
        }),
      );
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
