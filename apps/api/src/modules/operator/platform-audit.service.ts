import type { PlatformAuditAction, PlatformAuditEntry, PlatformAuditPage, PlatformAuditQuery } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { AppError } from '../../lib/errors';
import { isCursorTime } from '../../lib/keyset-cursor';
import type { OperatorRequest } from './operator-principal';

const pal = schema.platformAuditLog;

export interface PlatformAuditInput {
  /** `store.suspend`, `operator.sign-in`, `token.create`, `support.open`, ...: one of the contracts' list. */
  action: PlatformAuditAction;
  tenantId?: string | null;
  targetId?: string | null;
  reason?: string | null;
  details?: Record<string, unknown>;
}

function encodeCursor(at: Date, id: number) {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
}
function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (extra !== undefined || !at || !id || !/^\d{1,18}$/.test(id) || !isCursorTime(at)) {
    throw AppError.field(400, 'VALIDATION_FAILED', 'cursor', 'is not a cursor of this list; start again without it');
  }
  return { at, id };
}

/**
 * The platform's own audit log (decision 101): every operator action, written in the same
 * transaction as the action when it changes something, never changed or deleted (the database
 * refuses both). Sign-in failures are recorded too, with no operator when the email is unknown.
 */
export function createPlatformAudit(db: Db) {
  return {
    async record(tx: Tx | Db, req: OperatorRequest | null, input: PlatformAuditInput & { email?: string }) {
      const p = req?.principal;
      await tx.insert(pal).values({
        actorKind: p ? (p.via === 'token' ? 'token' : 'operator') : 'system',
        operatorId: p?.operatorId ?? null,
        actorEmail: p?.email ?? input.email ?? null,
        tokenId: p?.tokenId ?? null,
        tokenName: p?.tokenName ?? null,
        action: input.action,
        tenantId: input.tenantId ?? null,
        targetId: input.targetId ?? null,
        reason: input.reason ?? null,
        details: input.details ?? {},
        requestId: req?.requestId ?? null,
        ip: req?.ip ?? null,
      });
    },

    /** Newest first, one page. */
    async list(query: Omit<PlatformAuditQuery, 'limit'> & { limit?: number }): Promise<PlatformAuditPage> {
      const limit = Math.min(Math.max(query.limit ?? 50, 1), 100);
      const where: SQL[] = [];
      if (query.tenantId) where.push(eq(pal.tenantId, query.tenantId));
      if (query.operatorId) where.push(eq(pal.operatorId, query.operatorId));
      if (query.action) where.push(eq(pal.action, query.action));
      if (query.cursor) {
        const c = decodeCursor(query.cursor);
        where.push(sql`(${pal.createdAt}, ${pal.id}) < (${c.at}::timestamptz, ${c.id}::bigint)`);
      }
      const rows = await db
        .select()
        .from(pal)
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(pal.createdAt), desc(pal.id))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        entries: page.map(toEntry),
        nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
      };
    },
  };
}

function toEntry(r: typeof pal.$inferSelect): PlatformAuditEntry {
  return {
    id: String(r.id),
    at: r.createdAt.toISOString(),
    actor: {
      kind: r.actorKind,
      operatorId: r.operatorId,
      email: r.actorEmail,
      tokenId: r.tokenId,
      tokenName: r.tokenName,
    },
    action: r.action,
    tenantId: r.tenantId,
    targetId: r.targetId,
    reason: r.reason,
    details: r.details,
    requestId: r.requestId,
    ip: r.ip,
  };
}

export type PlatformAudit = ReturnType<typeof createPlatformAudit>;
