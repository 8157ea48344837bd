import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type AccessMode,
  type AccountRequest,
  type AccountStanding,
  CUSTOMER_INVITATION_INVALID_MESSAGE,
  type CustomerInvitation,
  type CustomerInvitationPreview,
  modeNeedsApproval,
  type StoreAccessSettings,
  type StoreVisibility,
} from '@app/contracts';
import { type Db, hashPassword, schema } from '@app/db';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import { type RequestContext, signedInUser, type TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { ok, type Refusal, Refused, type Result, refuse, refuseField, returnRefusals } from '../../lib/result';
import type { AuditService } from '../audit/index';
import { acceptInvitedAccount, changeAccount } from '../auth/index';
import type { MailQueue } from '../mail/index';
import { requireOwner, type StoreVisibilityService, type TenantService } from '../tenant/index';

const u = schema.users;
const inv = schema.customerInvitations;

/** How long a customer's invitation link works: a week, like a staff invitation. */
export const CUSTOMER_INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The most account requests the owner's list shows at once (newest first). */
export const REQUESTS_SHOWN = 200;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Inviting an email that already has an approved account, or is on the staff (409 on `email`). */
export type CustomerInviteRefusal = Refusal<'CONFLICT'>;
/** Deciding on an account that is not waiting for (or was not refused) approval (409). */
export type DecisionRefusal = Refusal<'CONFLICT'>;
/** A set-password link that is used, revoked, expired, unknown or of another store (400 on `token`). */
export type CustomerAcceptRefusal = Refusal<'BAD_REQUEST'>;

export interface StoreAccessDeps {
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  audit: Pick<AuditService, 'record'>;
  mailer: MailQueue;
  visibility: Pick<StoreVisibilityService, 'setMode' | 'visibility'>;
  tenants: Pick<TenantService, 'accessMode'>;
  /** scheme://host[:port] for links in mail, from a store's canonical host (never the request's Host). */
  linkOrigin: (canonicalHost: string) => string;
}

/**
 * What registration asks of the access mode (decision 105), through auth's port: whether a new
 * account may be made and in which standing, and what happens once a waiting account proves its email.
 */
export interface RegistrationPolicy {
  admission(tenantId: string): Promise<'closed' | 'approved' | 'pending'>;
  confirmedPending(
    ctx: TenantContext,
    user: { userId: string; email: string; firstName: string; lastName: string },
  ): Promise<void>;
}

/**
 * The access modes' people side (decision 105): accounts waiting for the owner's approval, the
 * owner's decisions, and invitations to an invitation-only store. Each write is the owner's (or the
 * invited person's link), audited in its transaction; each decision mails the person it is about.
 */
export function createStoreAccessService(db: Db, deps: StoreAccessDeps) {
  const pendingInvitation = (ctx: TenantContext) =>
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

  const toRequest = (r: typeof u.$inferSelect): AccountRequest => ({
    userId: r.userId,
    email: r.email,
    firstName: r.firstName,
    lastName: r.lastName,
    status: r.accessStatus === 'declined' ? 'declined' : 'pending',
    emailConfirmed: r.emailConfirmedAt !== null,
    requestedAt: r.createdAt.toISOString(),
    decidedAt: r.accessDecidedAt?.toISOString() ?? null,
  });

  const toInvitation = (i: typeof inv.$inferSelect): CustomerInvitation => ({
    invitationId: i.invitationId,
    email: i.email,
    firstName: i.firstName,
    lastName: i.lastName,
    createdAt: i.createdAt.toISOString(),
    expiresAt: i.expiresAt.toISOString(),
  });

  const policy: RegistrationPolicy = {
    async admission(tenantId) {
      const mode = await deps.tenants.accessMode(tenantId);
      if (mode === 'invitation_only') return 'closed';
      return mode === 'approved_only' ? 'pending' : 'approved';
    },

    /** Mails both sides once the email is proven, so a typo or a bot's address never reaches the owner. */
    async confirmedPending(ctx, user) {
      const { name, host } = await store(ctx);
      const [owner] = await db
        .select({ email: u.email, firstName: u.firstName })
        .from(u)
        .where(and(eq(u.tenantId, ctx.tenantId), eq(u.role, 'admin')))
        .limit(1);
      await deps.mailer.send(ctx, {
        to: user.email,
        subject: `Your ${name} account is waiting for approval`,
        text:
          `Hello ${user.firstName},\n\nThank you for confirming your email. ${name} admits approved accounts only: ` +
          `the store owner will look at your request, and we will email you as soon as they decide.\n\n` +
          `Until then you can log in, but the store stays closed to your account.`,
      });
      if (owner) {
        await deps.mailer.send(ctx, {
          to: owner.email,
          subject: `New account request at ${name}: ${user.firstName} ${user.lastName}`,
          text:
            `Hello ${owner.firstName},\n\n${user.firstName} ${user.lastName} <${user.email}> asks for an account at ${name}.\n\n` +
            `Approve or decline it in your dashboard:\n\n${deps.linkOrigin(host)}/manage-store/settings/access#account-requests\n`,
        });
      }
    },
  };

  return {
    policy,

    async settings(ctx: RequestContext): Promise<StoreAccessSettings> {
      requireAccess(ctx, 'settings');
      const [visibility, requests, invitations] = await Promise.all([
        deps.visibility.visibility(ctx),
        db
          .select()
          .from(u)
          .where(and(eq(u.tenantId, ctx.tenantId), ne(u.accessStatus, 'approved')))
          .orderBy(desc(u.createdAt))
          .limit(REQUESTS_SHOWN),
        db.select().from(inv).where(pendingInvitation(ctx)).orderBy(desc(inv.createdAt)),
      ]);
      return {
        accessMode: visibility.accessMode,
        requests: requests.map(toRequest),
        invitations: invitations.map(toInvitation),
        canManage: ctx.actor.kind === 'staff' && ctx.actor.role === 'admin',
      };
    },

    setMode(ctx: RequestContext, accessMode: AccessMode): Promise<StoreVisibility> {
      return deps.visibility.setMode(ctx, accessMode);
    },

    /**
     * Approves or declines an account waiting for approval; a declined one may still be approved
     * later (the owner changed their mind). The account's person is mailed the answer.
     */
    async decide(
      ctx: RequestContext,
      userId: string,
      decision: 'approve' | 'decline',
    ): Promise<Result<AccountRequest | { userId: string; status: 'approved' }, DecisionRefusal>> {
      requireOwner(ctx, 'approve or decline accounts');
      const { name, host } = await store(ctx);
      return returnRefusals<
        Result<AccountRequest | { userId: string; status: 'approved' }, DecisionRefusal>,
        DecisionRefusal
      >(() =>
        deps.events.transaction(async (tx) => {
          const [row] = await tx
            .select()
            .from(u)
            .where(and(eq(u.tenantId, ctx.tenantId), eq(u.userId, userId), eq(u.role, 'shopper')))
            .for('update');
          // Another store's account, staff or nobody: the same 404.
          if (!row) throw AppError.notFound(`Account ${userId.slice(0, 64)} not found.`);
          const to = decision === 'approve' ? 'approved' : 'declined';
          if (row.accessStatus === 'approved' || row.accessStatus === to) {
            throw new Refused(
              refuse(
                409,
                'CONFLICT',
                `This account is already ${row.accessStatus === 'approved' ? 'approved' : 'declined'}.`,
              ),
            );
          }
          const decidedAt = new Date();
          const after = await changeAccount(tx, ctx.tenantId, userId, { accessStatus: to, accessDecidedAt: decidedAt });
          await deps.audit.record(tx, ctx, {
            entity: 'customer.access',
            entityId: userId,
            action: decision,
            before: { email: row.email, accessStatus: row.accessStatus },
            after: { email: row.email, accessStatus: to },
          });
          const link = `${deps.linkOrigin(host)}/auth/login`;
          await deps.mailer.send(
            ctx,
            decision === 'approve'
              ? {
                  to: row.email,
                  subject: `Your ${name} account is approved`,
                  text: `Hello ${row.firstName},\n\nGood news: the owner of ${name} approved your account. Log in to shop:\n\n${link}\n`,
                }
              : {
                  to: row.email,
                  subject: `Your ${name} account request`,
                  text:
                    `Hello ${row.firstName},\n\nThe owner of ${name} did not approve your account request, so the store stays closed to it.\n` +
                    `If you think this is a mistake, please contact the store.`,
                },
            { tx },
          );
          if (!after) throw AppError.notFound(`Account ${userId.slice(0, 64)} not found.`);
          return ok(to === 'approved' ? { userId, status: 'approved' as const } : toRequest(after));
        }),
      );
    },

    /**
     * Invites `email` to shop: a new invitation (an earlier one to the same address stops working)
     * and a mail with the link that sets the password, in one transaction.
     */
    async invite(
      ctx: RequestContext,
      input: { email: string; firstName: string; lastName: string },
    ): Promise<Result<CustomerInvitation, CustomerInviteRefusal>> {
      const owner = requireOwner(ctx, 'invite customers');
      const [existing] = await db
        .select({ role: u.role, accessStatus: u.accessStatus })
        .from(u)
        .where(and(eq(u.tenantId, ctx.tenantId), eq(u.email, input.email)));
      if (existing && existing.role !== 'shopper') {
        return refuseField(409, 'CONFLICT', 'email', 'this person is on your staff already.');
      }
      // A waiting or declined account may be invited: accepting approves it.
      if (existing && existing.accessStatus === 'approved') {
        return refuseField(409, 'CONFLICT', 'email', 'this person has an account already.');
      }
      const { name: storeName, host } = await store(ctx);
      const token = randomBytes(32).toString('base64url');
      const invitationId = `CI-${randomUUID()}`;
      const now = new Date();
      const expiresAt = new Date(now.getTime() + CUSTOMER_INVITATION_TTL_MS);
      const row = {
        tenantId: ctx.tenantId,
        invitationId,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        tokenHash: hashToken(token),
        invitedBy: owner.actor.userId,
        createdAt: now,
        expiresAt,
        acceptedAt: null,
        revokedAt: null,
      };
      await deps.events.transaction(async (tx) => {
        await tx
          .update(inv)
          .set({ revokedAt: now })
          .where(and(pendingInvitation(ctx), eq(inv.email, input.email)));
        await tx.insert(inv).values(row);
        await deps.audit.record(tx, ctx, {
          entity: 'customer.invitation',
          entityId: invitationId,
          action: 'create',
          after: { email: input.email, firstName: input.firstName, lastName: input.lastName },
        });
        const link = `${deps.linkOrigin(host)}/auth/customer-invitation?token=${token}`;
        await deps.mailer.send(
          ctx,
          {
            to: input.email,
            subject: `You are invited to shop at ${storeName}`,
            text:
              `Hello ${input.firstName},\n\n${storeName} invites you to shop with them.\n\n` +
              `Choose your password here to open your account (the link works once, for 7 days):\n\n${link}\n\n` +
              `If you did not expect this, ignore this message: nothing happens until the link is used.`,
          },
          { tx },
        );
      });
      return ok(toInvitation(row));
    },

    /** Withdraws an invitation that has not been accepted: its link stops working. */
    async revokeInvitation(ctx: RequestContext, invitationId: string): Promise<void> {
      requireOwner(ctx, 'revoke invitations');
      await deps.events.transaction(async (tx) => {
        const [row] = await tx
          .update(inv)
          .set({ revokedAt: new Date() })
          .where(and(pendingInvitation(ctx), eq(inv.invitationId, invitationId)))
          .returning();
        if (!row) throw AppError.notFound(`Invitation ${invitationId.slice(0, 64)} not found.`);
        await deps.audit.record(tx, ctx, {
          entity: 'customer.invitation',
          entityId: invitationId,
          action: 'revoke',
          before: { email: row.email },
        });
      });
    },

    /** What the set-password page shows for a link; null when it does not (or no longer) work. */
    async preview(ctx: TenantContext, token: string): Promise<CustomerInvitationPreview | null> {
      const [row] = await db
        .select()
        .from(inv)
        .where(and(pendingInvitation(ctx), eq(inv.tokenHash, hashToken(token))));
      if (!row) return null;
      const { name } = await store(ctx);
      return { email: row.email, firstName: row.firstName, storeName: name };
    },

    /**
     * Accepts an invitation: sets the password of a new, confirmed and approved customer account
     * (a waiting or declined account of that email is approved instead: the link proves the inbox,
     * and its sessions end). The link works once. Answers the email to log in with.
     */
    async accept(
      ctx: RequestContext,
      input: { token: string; password: string },
    ): Promise<Result<{ email: string }, CustomerAcceptRefusal>> {
      const passwordHash = await hashPassword(input.password);
      const invalid = () => new Refused(refuseField(400, 'BAD_REQUEST', 'token', CUSTOMER_INVITATION_INVALID_MESSAGE));
      return returnRefusals<Result<{ email: string }, CustomerAcceptRefusal>, CustomerAcceptRefusal>(() =>
        deps.events.transaction(async (tx) => {
          // Marked used in the statement that checks it: two clicks cannot both succeed.
          const [used] = await tx
            .update(inv)
            .set({ acceptedAt: new Date() })
            .where(and(pendingInvitation(ctx), eq(inv.tokenHash, hashToken(input.token))))
            .returning();
          if (!used) throw invalid();
          // Staff (or an account approved since) is never changed by a customer's link.
          const account = await acceptInvitedAccount(
            tx,
            ctx.tenantId,
            { email: used.email, firstName: used.firstName, lastName: used.lastName, passwordHash },
            { role: 'shopper', accessStatus: 'approved', accessDecidedAt: new Date() },
            (existing) => existing.role === 'shopper' && existing.accessStatus !== 'approved',
          );
          if (!account) throw invalid();
          const { userId, before: existing } = account;
          await deps.audit.record(tx, ctx, {
            entity: 'customer.access',
            entityId: userId,
            action: 'accept-invitation',
            before: existing ? { accessStatus: existing.accessStatus } : null,
            after: { email: used.email, accessStatus: 'approved', invitationId: used.invitationId },
          });
          return ok({ email: used.email });
        }),
      );
    },

    /** Where the request's account stands with the store, for the waiting page. */
    async standing(ctx: RequestContext): Promise<AccountStanding> {
      const accessMode = await deps.tenants.accessMode(ctx.tenantId);
      const me = signedInUser(ctx);
      const status = ctx.actor.kind === 'shopper' ? (ctx.actor.access ?? 'approved') : null;
      return {
        accessMode,
        // Outside the modes that ask for approval, every account is in.
        status: status && !modeNeedsApproval(accessMode) ? 'approved' : status,
        email: me?.userLoginId ?? null,
      };
    },
  };
}

export type StoreAccessService = ReturnType<typeof createStoreAccessService>;
