import { randomUUID } from 'node:crypto';
import {
  type ContactMessageStatus,
  MESSAGES_PAGE_SIZE,
  type MessageListQuery,
  type MessagePage,
  type MessageThread,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, count, desc, eq, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { decodeTimeCursor, encodeTimeCursor } from '../../lib/keyset-cursor';
import { ok, type Refusal, type Result, refuse } from '../../lib/result';
import type { AuditService } from '../audit/index';
import type { MailQueue } from '../mail/index';
import type { StoreService } from '../store/index';
import { canMoveMessage } from './message-state';

const m = schema.contactMessages;
const mr = schema.contactMessageReplies;

export interface ContactInboxDeps {
  audit: AuditService;
  mailer: MailQueue;
  store: StoreService;
}

type MessageRow = typeof m.$inferSelect;

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');

/** The message quoted under a reply, as mail clients quote: each line after "> ". */
export function quoteMessage(row: Pick<MessageRow, 'name' | 'createdAt' | 'message'>): string {
  const when = row.createdAt.toUTCString();
  const quoted = row.message
    .split(/\r?\n/)
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
  return `On ${when}, ${oneLine(row.name)} wrote:\n${quoted}`;
}

/**
 * The store's inbox of contact-form messages (decision 047): read, archive, mark
 * unread, and reply by email through the mail queue, the reply kept to show the thread. Status moves
 * only through `move` (message-state.ts), which writes the audit entry, the message's history.
 */
/** Replying: the store has no contact email for the customer's answer to reach (409, decision 088). */
export type ReplyRefusal = Refusal<'CONFLICT'>;

export function createContactInboxService(db: Db, deps: ContactInboxDeps) {
  const own = (ctx: RequestContext, messageId: string) =>
    and(eq(m.tenantId, ctx.tenantId), eq(m.productStoreId, ctx.productStoreId), eq(m.messageId, messageId));

  async function row(dbx: Db | Tx, ctx: RequestContext, messageId: string, lock = false): Promise<MessageRow> {
    const q = dbx.select().from(m).where(own(ctx, messageId));
    const [r] = lock ? await q.for('update') : await q;
    if (!r) throw AppError.notFound('No such message in this store.');
    return r;
  }

  /** The one writer of a message's status: checks the move, stamps the times, audits it. */
  async function move(tx: Tx, ctx: RequestContext, r: MessageRow, to: ContactMessageStatus, action: string) {
    if (r.status === to) return r;
    if (!canMoveMessage(r.status, to)) {
      throw new AppError(409, 'CONFLICT', `A ${r.status} message cannot become ${to}.`);
    }
    const now = new Date();
    const set: Partial<MessageRow> = { status: to };
    if (to === 'read') set.readAt = r.readAt ?? now;
    if (to === 'new') set.readAt = null;
    if (to === 'archived') set.archivedAt = now;
    else set.archivedAt = null;
    await tx.update(m).set(set).where(own(ctx, r.messageId));
    await deps.audit.record(tx, ctx, {
      entity: 'contact_message',
      entityId: r.messageId,
      action,
      before: { status: r.status },
      after: { status: to },
    });
    return { ...r, ...set } as MessageRow;
  }

  async function thread(ctx: RequestContext, r: MessageRow): Promise<MessageThread> {
    const replies = await db
      .select()
      .from(mr)
      .where(and(eq(mr.tenantId, ctx.tenantId), eq(mr.messageId, r.messageId)))
      .orderBy(asc(mr.sentAt), asc(mr.replyId));
    return {
      messageId: r.messageId,
      name: r.name,
      email: r.email,
      message: r.message,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
      readAt: r.readAt?.toISOString() ?? null,
      archivedAt: r.archivedAt?.toISOString() ?? null,
      replies: replies.map((x) => ({
        replyId: x.replyId,
        text: x.body,
        sentAt: x.sentAt.toISOString(),
        sentByName: x.sentByName,
      })),
    };
  }

  return {
    /** Inbox or archive, newest first, searched by name, email or text; keyset pages; the unread count. */
    async list(ctx: RequestContext, query: MessageListQuery): Promise<MessagePage> {
      requireAccess(ctx, 'customers');
      const limit = query.limit ?? MESSAGES_PAGE_SIZE;
      const store = [eq(m.tenantId, ctx.tenantId), eq(m.productStoreId, ctx.productStoreId)];
      const where: (SQL | undefined)[] = [
        ...store,
        query.folder === 'archived' ? eq(m.status, 'archived') : inArray(m.status, ['new', 'read']),
      ];
      const q = query.q?.trim().toLowerCase();
      if (q) {
        const pattern = `%${likeEscape(q)}%`;
        where.push(
          or(
            sql`lower(${m.name}) LIKE ${pattern}`,
            sql`lower(${m.email}) LIKE ${pattern}`,
            sql`lower(${m.message}) LIKE ${pattern}`,
          ),
        );
      }
      if (query.cursor) {
        const { at, id } = decodeTimeCursor(query.cursor);
        where.push(or(lt(m.createdAt, at), and(eq(m.createdAt, at), lt(m.messageId, id))));
      }
      const replies = db
        .select({ n: count() })
        .from(mr)
        .where(and(eq(mr.tenantId, m.tenantId), eq(mr.messageId, m.messageId)));
      const [rows, [unread]] = await Promise.all([
        db
          .select({
            messageId: m.messageId,
            name: m.name,
            email: m.email,
            excerpt: sql<string>`left(${m.message}, 160)`,
            status: m.status,
            readAt: m.readAt,
            createdAt: m.createdAt,
            replies: sql<number>`(${replies})::int`,
          })
          .from(m)
          .where(and(...where))
          .orderBy(desc(m.createdAt), desc(m.messageId))
          .limit(limit + 1),
        db
          .select({ n: count() })
          .from(m)
          .where(and(...store, eq(m.status, 'new'))),
      ]);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map((r) => ({
          messageId: r.messageId,
          name: r.name,
          email: r.email,
          excerpt: r.excerpt,
          status: r.status,
          unread: r.status === 'new' || (r.status === 'archived' && r.readAt === null),
          createdAt: r.createdAt.toISOString(),
          replies: Number(r.replies),
        })),
        nextCursor: rows.length > limit && last ? encodeTimeCursor(last.createdAt, last.messageId) : null,
        unread: unread?.n ?? 0,
      };
    },

    /** One message with its replies; opening an unread one in the inbox marks it read. */
    async open(ctx: RequestContext, messageId: string): Promise<MessageThread> {
      requireAccess(ctx, 'customers');
      const r = await db.transaction(async (tx) => {
        const found = await row(tx, ctx, messageId, true);
        if (found.status === 'new') return move(tx, ctx, found, 'read', 'read');
        if (found.status === 'archived' && !found.readAt) {
          await tx.update(m).set({ readAt: new Date() }).where(own(ctx, messageId));
        }
        return found;
      });
      return thread(ctx, r);
    },

    async archive(ctx: RequestContext, messageId: string): Promise<MessageThread> {
      requireAccess(ctx, 'customers');
      const r = await db.transaction(async (tx) =>
        move(tx, ctx, await row(tx, ctx, messageId, true), 'archived', 'archive'),
      );
      return thread(ctx, r);
    },

    /** Back to the inbox, read or unread as it was when archived. */
    async unarchive(ctx: RequestContext, messageId: string): Promise<MessageThread> {
      requireAccess(ctx, 'customers');
      const r = await db.transaction(async (tx) => {
        const found = await row(tx, ctx, messageId, true);
        if (found.status !== 'archived') return found;
        return move(tx, ctx, found, found.readAt ? 'read' : 'new', 'unarchive');
      });
      return thread(ctx, r);
    },

    async markUnread(ctx: RequestContext, messageId: string): Promise<MessageThread> {
      requireAccess(ctx, 'customers');
      const r = await db.transaction(async (tx) => {
        const found = await row(tx, ctx, messageId, true);
        if (found.status === 'read') return move(tx, ctx, found, 'new', 'mark_unread');
        if (found.status === 'archived' && found.readAt) {
          await tx.update(m).set({ readAt: null }).where(own(ctx, messageId));
          await deps.audit.record(tx, ctx, {
            entity: 'contact_message',
            entityId: messageId,
            action: 'mark_unread',
            before: { read: true },
            after: { read: false },
          });
          return { ...found, readAt: null };
        }
        return found;
      });
      return thread(ctx, r);
    },

    /**
     * Replies by email: queued in the transaction that keeps the reply, so the mail goes if and only
     * if the reply is kept. The mail answers to the store's contact address and quotes the message.
     */
    async reply(ctx: RequestContext, messageId: string, text: string): Promise<Result<MessageThread, ReplyRefusal>> {
      requireAccess(ctx, 'customers');
      const store = await deps.store.details(ctx, ctx.productStoreId);
      if (!store.emailAddress) {
        return refuse(
          409,
          'CONFLICT',
          "The store has no contact email: set one in Settings so the customer's answer reaches you.",
        );
      }
      const r = await db.transaction(async (tx) => {
        let found = await row(tx, ctx, messageId, true);
        const replyId = randomUUID();
        await tx.insert(mr).values({
          tenantId: ctx.tenantId,
          replyId,
          messageId,
          body: text,
          sentBy: ctx.actor.userId,
          sentByName: ctx.actor.firstName,
        });
        await deps.mailer.send(
          ctx,
          {
            to: found.email,
            replyTo: `${store.storeName.replace(/[<>"\r\n]/g, '')} <${store.emailAddress}>`,
            subject: `Re: your message to ${oneLine(store.storeName)}`,
            text: `${text}\n\n— ${store.storeName}\n\n${quoteMessage(found)}\n`,
          },
          { tx },
        );
        await deps.audit.record(tx, ctx, {
          entity: 'contact_message',
          entityId: messageId,
          action: 'reply',
          after: { replyId, to: found.email, text },
        });
        if (found.status === 'new') found = await move(tx, ctx, found, 'read', 'read');
        return found;
      });
      return ok(await thread(ctx, r));
    },
  };
}

export type ContactInboxService = ReturnType<typeof createContactInboxService>;
