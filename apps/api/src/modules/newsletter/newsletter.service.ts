import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  NEWSLETTER_SUBSCRIBE_MESSAGE,
  type NewsletterLinkResult,
  type NewsletterStatus,
  type NewsletterSubscriber,
  type NewsletterSubscribersPage,
  type NewsletterSubscribersQuery,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, count, desc, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { isCursorTime } from '../../lib/keyset-cursor';
import { ok, type Refusal, type Result, refuse } from '../../lib/result';
import type { MailQueue } from '../mail/index';
import { storeIdentity } from '../store/index';

const s = schema.newsletterSubscribers;
const r = schema.newsletterRequests;

/** Subscribe requests per client address per window: a household or office, not a script. */
export const NEWSLETTER_IP_LIMIT = 10;
const IP_WINDOW_MS = 10 * 60_000;
/** Confirmation mails per address per window: a retry or two, never a mail bomb for a stranger. */
export const NEWSLETTER_EMAIL_LIMIT = 3;
const EMAIL_WINDOW_MS = 60 * 60_000;
/** How long a confirmation link works. */
export const CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface NewsletterDeps {
  mailer: MailQueue;
  /** Signs unsubscribe links: they must work in every mail, without login, for as long as mail is kept. */
  secret: string;
  /** scheme://host[:port] for links in mail, from the store's canonical host. */
  linkOrigin: (canonicalHost: string) => string;
}

/** One subscriber as the owner's list and CSV show it. */
function view(row: typeof s.$inferSelect): NewsletterSubscriber {
  return {
    id: row.subscriberId,
    email: row.email,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
  };
}

/** Page cursors: the last row's creation time (milliseconds, as written) and id, opaque to clients. */
function encodeCursor(at: Date, id: string) {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
}
function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (extra !== undefined || !at || !id || !isCursorTime(at)) {
    throw AppError.badRequest('cursor: not a cursor of this list; start again without it.');
  }
  return { at: new Date(at), id };
}

/**
 * A CSV cell: quoted when it holds a quote, comma or line break, and defused when a spreadsheet would
 * read it as a formula (a cell starting with = + - @, or a tab or carriage return before one).
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * Subscribing: too many requests from the client address or for the email address (429 with
 * Retry-After, decision 088). Counted for every address, so it tells nothing about who subscribes.
 */
export type SubscribeRefusal = Refusal<'RATE_LIMITED'>;

export function createNewsletterService(db: Db, deps: NewsletterDeps) {
  const sign = (tenantId: string, subscriberId: string) =>
    createHmac('sha256', deps.secret).update(`newsletter-unsubscribe|${tenantId}|${subscriberId}`).digest('base64url');

  /** The subscriber id an unsubscribe token names, when the token was signed for this store's tenant. */
  function verifyUnsubscribe(ctx: TenantContext, token: string): string | null {
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return null;
    const id = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(sign(ctx.tenantId, id));
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
  }

  async function links(ctx: TenantContext) {
    const store = await storeIdentity(db, ctx);
    if (!store) throw AppError.notFound('This store does not exist.');
    return { origin: deps.linkOrigin(store.host), name: store.name };
  }

  const unsubscribeLink = (origin: string, ctx: TenantContext, subscriberId: string) =>
    `${origin}/newsletter/unsubscribe?token=${subscriberId}.${sign(ctx.tenantId, subscriberId)}`;

  async function rateLimit(
    ctx: TenantContext,
    email: string,
    clientIp: string | null,
  ): Promise<Result<void, SubscribeRefusal>> {
    const now = Date.now();
    const tooMany = (windowMs: number): SubscribeRefusal =>
      refuse(
        429,
        'RATE_LIMITED',
        'You have asked to subscribe several times in a short time. Please wait a while and try again.',
        { headers: { 'Retry-After': String(windowMs / 1000) } },
      );
    if (clientIp) {
      const [row] = await db
        .select({ n: count() })
        .from(r)
        .where(
          and(eq(r.tenantId, ctx.tenantId), eq(r.clientIp, clientIp), gt(r.createdAt, new Date(now - IP_WINDOW_MS))),
        );
      if ((row?.n ?? 0) >= NEWSLETTER_IP_LIMIT) return tooMany(IP_WINDOW_MS);
    }
    const [row] = await db
      .select({ n: count() })
      .from(r)
      .where(and(eq(r.tenantId, ctx.tenantId), eq(r.email, email), gt(r.createdAt, new Date(now - EMAIL_WINDOW_MS))));
    // Counted for every address, subscribed or not, so the limit tells nothing about who is subscribed.
    if ((row?.n ?? 0) >= NEWSLETTER_EMAIL_LIMIT) return tooMany(EMAIL_WINDOW_MS);
    // Old requests count for nothing: cleared along the indexes this request just used.
    const old = new Date(now - Math.max(IP_WINDOW_MS, EMAIL_WINDOW_MS));
    await db.delete(r).where(and(eq(r.tenantId, ctx.tenantId), eq(r.email, email), lt(r.createdAt, old)));
    if (clientIp) {
      await db.delete(r).where(and(eq(r.tenantId, ctx.tenantId), eq(r.clientIp, clientIp), lt(r.createdAt, old)));
    }
    await db.insert(r).values({ tenantId: ctx.tenantId, requestId: randomUUID(), email, clientIp });
    return ok(undefined);
  }

  return {
    /**
     * Double opt-in: a new (or unsubscribed, or still unconfirmed) address gets a fresh confirmation
     * link; a confirmed one gets a note that it already is subscribed. The caller's answer is the
     * same in every case, so the form tells a stranger nothing about who subscribes.
     */
    async subscribe(
      ctx: TenantContext,
      emailInput: string,
      clientIp: string | null,
    ): Promise<Result<{ message: string }, SubscribeRefusal>> {
      const email = emailInput.trim().toLowerCase();
      const limited = await rateLimit(ctx, email, clientIp);
      if (!limited.ok) return limited;
      const { origin, name } = await links(ctx);
      const token = randomBytes(32).toString('base64url');
      const tokenHash = hash(token);
      const expires = new Date(Date.now() + CONFIRM_TTL_MS);
      await db.transaction(async (tx) => {
        // One statement decides, so two requests at once cannot make two rows or lose a confirmation.
        const [row] = await tx
          .insert(s)
          .values({
            tenantId: ctx.tenantId,
            subscriberId: randomUUID(),
            productStoreId: ctx.productStoreId,
            email,
            status: 'pending',
            confirmTokenHash: tokenHash,
            confirmExpiresAt: expires,
            createdAt: new Date(),
          })
          .onConflictDoUpdate({
            target: [s.tenantId, s.productStoreId, s.email],
            set: {
              status: sql`CASE WHEN ${s.status} = 'confirmed' THEN 'confirmed' ELSE 'pending' END`,
              confirmTokenHash: sql`CASE WHEN ${s.status} = 'confirmed' THEN NULL ELSE ${tokenHash} END`,
              confirmExpiresAt: sql`CASE WHEN ${s.status} = 'confirmed' THEN NULL ELSE ${expires.toISOString()}::timestamptz END`,
              unsubscribedAt: sql`CASE WHEN ${s.status} = 'confirmed' THEN ${s.unsubscribedAt} ELSE NULL END`,
            },
          })
          .returning({ id: s.subscriberId, status: s.status });
        if (!row) throw new Error('newsletter upsert returned no row');
        const unsubscribe = unsubscribeLink(origin, ctx, row.id);
        const message =
          row.status === 'confirmed'
            ? {
                to: email,
                subject: `You are already subscribed to ${name}`,
                text:
                  `Someone (probably you) asked to subscribe ${email} to the newsletter of ${name}.\n` +
                  'This address is already subscribed, so nothing has changed.\n\n' +
                  `To stop receiving the newsletter: ${unsubscribe}\n`,
              }
            : {
                to: email,
                subject: `Confirm your subscription to ${name}`,
                text:
                  `Please confirm that you want the newsletter of ${name} at ${email}:\n\n` +
                  `${origin}/newsletter/confirm?token=${token}\n\n` +
                  'The link works once, for 7 days. If you did not ask for this, ignore this mail: ' +
                  'you will not be subscribed.\n\n' +
                  `Do not want mail from us at all? ${unsubscribe}\n`,
                headers: { 'List-Unsubscribe': `<${unsubscribe}>` },
              };
        await deps.mailer.send(ctx, message, { tx });
      });
      return ok({ message: NEWSLETTER_SUBSCRIBE_MESSAGE });
    },

    /** Uses a confirmation link: once, before it expires, on the store it was sent for. */
    async confirm(ctx: TenantContext, token: string): Promise<NewsletterLinkResult> {
      const [row] = await db
        .update(s)
        .set({ status: 'confirmed', confirmedAt: new Date(), confirmTokenHash: null, confirmExpiresAt: null })
        .where(
          and(
            eq(s.tenantId, ctx.tenantId),
            eq(s.productStoreId, ctx.productStoreId),
            eq(s.confirmTokenHash, hash(token)),
            eq(s.status, 'pending'),
            gt(s.confirmExpiresAt, new Date()),
          ),
        )
        .returning({ email: s.email });
      return row ? { ok: true, email: row.email } : { ok: false, code: 'invalid' };
    },

    /** Who an unsubscribe link is for, without using it (the page shows a button first). */
    async peekUnsubscribe(ctx: TenantContext, token: string): Promise<NewsletterLinkResult> {
      const id = verifyUnsubscribe(ctx, token);
      if (!id) return { ok: false, code: 'invalid' };
      const [row] = await db
        .select({ email: s.email })
        .from(s)
        .where(and(eq(s.tenantId, ctx.tenantId), eq(s.productStoreId, ctx.productStoreId), eq(s.subscriberId, id)));
      return row ? { ok: true, email: row.email } : { ok: false, code: 'invalid' };
    },

    /** Uses an unsubscribe link: signed, so it needs no login; using it twice is harmless. */
    async unsubscribe(ctx: TenantContext, token: string): Promise<NewsletterLinkResult> {
      const id = verifyUnsubscribe(ctx, token);
      if (!id) return { ok: false, code: 'invalid' };
      const [row] = await db
        .update(s)
        .set({
          status: 'unsubscribed',
          unsubscribedAt: sql`COALESCE(${s.unsubscribedAt}, now())`,
          // A confirmation link still in a mailbox must not subscribe the address again.
          confirmTokenHash: null,
          confirmExpiresAt: null,
        })
        .where(and(eq(s.tenantId, ctx.tenantId), eq(s.productStoreId, ctx.productStoreId), eq(s.subscriberId, id)))
        .returning({ email: s.email });
      return row ? { ok: true, email: row.email } : { ok: false, code: 'invalid' };
    },

    /**
     * Mails one newsletter issue to every confirmed subscriber, each with its own unsubscribe link
     * (in the text and as List-Unsubscribe). Unconfirmed and unsubscribed addresses get nothing.
     */
    async sendIssue(ctx: TenantContext, issue: { subject: string; text: string }): Promise<{ queued: number }> {
      const { origin, name } = await links(ctx);
      let queued = 0;
      for await (const row of iterate(ctx, 'confirmed')) {
        const unsubscribe = unsubscribeLink(origin, ctx, row.subscriberId);
        await deps.mailer.send(ctx, {
          to: row.email,
          subject: issue.subject,
          text: `${issue.text}\n\n--\nYou receive this because you subscribed to the newsletter of ${name}.\nUnsubscribe: ${unsubscribe}\n`,
          headers: { 'List-Unsubscribe': `<${unsubscribe}>` },
        });
        queued++;
      }
      return { queued };
    },

    /** The owner's list: newest first, pages by keyset (a page costs the same however deep). */
    async list(ctx: TenantContext, query: NewsletterSubscribersQuery): Promise<NewsletterSubscribersPage> {
      const rows = await page(ctx, query.status, query.cursor ? decodeCursor(query.cursor) : null, query.limit + 1);
      const more = rows.length > query.limit;
      const shown = more ? rows.slice(0, query.limit) : rows;
      const last = shown.at(-1);
      return {
        subscribers: shown.map(view),
        nextCursor: more && last ? encodeCursor(last.createdAt, last.subscriberId) : null,
      };
    },

    /** The CSV export, as lines (header first), streamed a page at a time. */
    async *csv(ctx: TenantContext, status?: NewsletterStatus): AsyncGenerator<string> {
      yield 'email,status,subscribed_at,confirmed_at,unsubscribed_at\r\n';
      for await (const row of iterate(ctx, status)) {
        const v = view(row);
        yield `${[v.email, v.status, v.createdAt, v.confirmedAt ?? '', v.unsubscribedAt ?? ''].map(csvCell).join(',')}\r\n`;
      }
    },
  };

  /** Every subscriber (of a status), newest first, read a page at a time so memory stays flat. */
  async function* iterate(ctx: TenantContext, status?: NewsletterStatus): AsyncGenerator<typeof s.$inferSelect> {
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const rows = await page(ctx, status, after, 500);
      yield* rows;
      const last = rows.at(-1);
      if (rows.length < 500 || !last) return;
      after = { at: last.createdAt, id: last.subscriberId };
    }
  }

  function page(
    ctx: TenantContext,
    status: NewsletterStatus | undefined,
    after: { at: Date; id: string } | null,
    limit: number,
  ) {
    return db
      .select()
      .from(s)
      .where(
        and(
          eq(s.tenantId, ctx.tenantId),
          eq(s.productStoreId, ctx.productStoreId),
          status ? eq(s.status, status) : undefined,
          after
            ? or(lt(s.createdAt, after.at), and(eq(s.createdAt, after.at), lt(s.subscriberId, after.id)))
            : undefined,
        ),
      )
      .orderBy(desc(s.createdAt), desc(s.subscriberId))
      .limit(limit);
  }
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;
