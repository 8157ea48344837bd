import { randomUUID } from 'node:crypto';
import type { ContactRequest } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, count, eq, gt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { TenantContext } from '../../lib/context';
import { ok, type Refusal, type Result, refuse } from '../../lib/result';
import type { MailQueue } from '../mail/index';
import type { StoreService } from '../store/index';

/** A sender may send this many messages per window: enough for a follow-up, not for spam. */
export const CONTACT_LIMIT = 5;
const WINDOW_MS = 10 * 60_000;

/** Sending: past the limit of messages per sender (429 with Retry-After, decision 088). */
export type ContactRefusal = Refusal<'RATE_LIMITED'>;

export function createContactService(db: Db, deps: { mailer: MailQueue; store: StoreService; log: FastifyBaseLogger }) {
  return {
    /**
     * Keeps the message for the store and mails it to the store's address. The count of recent
     * messages from the same address lives in the database, so the limit holds across processes.
     */
    async submit(
      ctx: TenantContext,
      input: ContactRequest,
      clientIp: string | null,
    ): Promise<Result<{ messageId: string }, ContactRefusal>> {
      const m = schema.contactMessages;
      if (clientIp) {
        const since = new Date(Date.now() - WINDOW_MS);
        const [row] = await db
          .select({ n: count() })
          .from(m)
          .where(and(eq(m.tenantId, ctx.tenantId), eq(m.clientIp, clientIp), gt(m.createdAt, since)));
        if ((row?.n ?? 0) >= CONTACT_LIMIT) {
          return refuse(
            429,
            'RATE_LIMITED',
            'You have sent several messages in a short time. Please wait a few minutes and try again.',
            { headers: { 'Retry-After': String(WINDOW_MS / 1000) } },
          );
        }
      }
      const messageId = randomUUID();
      await db.insert(m).values({
        tenantId: ctx.tenantId,
        messageId,
        productStoreId: ctx.productStoreId,
        name: input.name,
        email: input.email,
        message: input.message,
        clientIp,
      });
      const store = await deps.store.details(ctx, ctx.productStoreId);
      if (store.emailAddress) {
        // The message is kept either way: a mail server outage must not lose it or fail the shopper.
        await deps.mailer
          .send(ctx, {
            to: store.emailAddress,
            replyTo: `${input.name.replace(/[<>"\r\n]/g, '')} <${input.email}>`,
            subject: `New message from ${input.name.replace(/[\r\n]/g, ' ')} via ${store.storeName}`,
            text: `${input.message}\n\n— ${input.name} <${input.email}>\nSent from the contact page of ${store.storeName}.`,
          })
          .catch((err: unknown) => deps.log.error({ err, messageId }, 'contact message stored but not mailed'));
      }
      return ok({ messageId });
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
