import { AUDIT_NAME, type AuditEntry, type AuditPage, type AuditQuery } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { hasPermission, type RequestContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { isCursorTime } from '../../lib/keyset-cursor';
import { auditChanges, type Fields } from './audit-diff';

const al = schema.auditLog;

export interface AuditRecordInput {
  /** What was changed: `product`, `store.settings`, `page`, ... */
  entity: string;
  entityId: string;
  /** `create`, `update`, `delete`, `publish`, ... */
  action: string;
  /** The entity before the write (absent on a create). */
  before?: Fields | null;
  /** The entity after it, whole or only the fields written (absent on a delete). */
  after?: Fields | null;
}

export type AuditListQuery = Omit<AuditQuery, 'limit'> & { limit?: number };

/** The actor as the entry keeps it: a later rename or deletion of the account changes nothing. */
function actorColumns(ctx: RequestContext) {
  const a = ctx.actor;
  switch (a.kind) {
    case 'staff':
      return {
        actorKind: a.kind,
        actorId: a.userId,
        actorRole: a.role,
        actorName: a.firstName,
        actorEmail: a.userLoginId,
        // A platform operator in the store as support (decision 101): the entry names them too.
        supportOperatorId: a.support?.operatorId ?? null,
        supportOperatorEmail: a.support?.email ?? null,
      };
    case 'shopper':
      return {
        actorKind: a.kind,
        actorId: a.userId,
        actorRole: null,
        actorName: a.firstName,
        actorEmail: a.userLoginId,
      };
    case 'system':
      return { actorKind: a.kind, actorId: a.name, actorRole: null, actorName: null, actorEmail: null };
    case 'guest':
      return { actorKind: a.kind, actorId: null, actorRole: null, actorName: null, actorEmail: null };
  }
}

/** Page cursors: the last entry's time (milliseconds, as stored) and id, opaque to clients. */
function encodeCursor(at: Date, id: number) {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
}
function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (extra !== undefined || !at || !id || !/^\d{1,18}$/.test(id) || !isCursorTime(at)) {
    throw AppError.badRequest('cursor: not a cursor of this list; start again without it.');
  }
  return { at, id };
}

/**
 * The store's audit log (decision 019). Writers record in their own transaction, so an entry exists
 * exactly when its change does; entries are never changed or deleted (there is no function for it,
 * and the database refuses it). Owners and staff with the settings permission read it.
 */
export function createAuditService(db: Db) {
  return {
    /**
     * Records a write made in `tx` by the context's actor: only the fields that changed, secrets
     * masked. An update that changed nothing records nothing (null).
     */
    async record(tx: Tx, ctx: RequestContext, input: AuditRecordInput): Promise<{ id: string; at: Date } | null> {
      // A bad name is a bug in the writer, not the user's doing: it fails the write loudly.
      if (!AUDIT_NAME.test(input.entity)) throw new Error(`audit: bad entity name ${JSON.stringify(input.entity)}`);
      if (!AUDIT_NAME.test(input.action)) throw new Error(`audit: bad action name ${JSON.stringify(input.action)}`);
      if (!input.entityId) throw new Error('audit: entityId is required');
      const changes = auditChanges(input.before, input.after);
      if (!changes) return null;
      const [row] = await tx
        .insert(al)
        .values({
          tenantId: ctx.tenantId,
          ...actorColumns(ctx),
          entity: input.entity,
          entityId: input.entityId,
          action: input.action,
          changes,
          requestId: ctx.requestId,
          ip: ctx.ip,
        })
        .returning({ id: al.id, createdAt: al.createdAt });
      if (!row) throw new Error('audit: the entry was not written');
      return { id: String(row.id), at: row.createdAt };
    },

    /**
     * `record` for many writes of one transaction in one statement (the CSV import's batches): the
     * same rows `record` would write, in the same order, each update that changed nothing skipped.
     */
    async recordMany(tx: Tx, ctx: RequestContext, inputs: readonly AuditRecordInput[]): Promise<number> {
      const rows: (typeof al.$inferInsert)[] = [];
      const actor = actorColumns(ctx);
      for (const input of inputs) {
        if (!AUDIT_NAME.test(input.entity)) throw new Error(`audit: bad entity name ${JSON.stringify(input.entity)}`);
        if (!AUDIT_NAME.test(input.action)) throw new Error(`audit: bad action name ${JSON.stringify(input.action)}`);
        if (!input.entityId) throw new Error('audit: entityId is required');
        const changes = auditChanges(input.before, input.after);
        if (!changes) continue;
        rows.push({
          tenantId: ctx.tenantId,
          ...actor,
          entity: input.entity,
          entityId: input.entityId,
          action: input.action,
          changes,
          requestId: ctx.requestId,
          ip: ctx.ip,
        });
      }
      if (rows.length) await tx.insert(al).values(rows);
      return rows.length;
    },

    /** One page of the log, newest first; `nextCursor` continues after its last entry. */
    async list(ctx: RequestContext, query: AuditListQuery): Promise<AuditPage> {
      // Second wall behind the route's guard. The system reads it for jobs (an export).
      if (ctx.actor.kind === 'guest') throw new AppError(401, 'UNAUTHENTICATED', 'Please log in to continue.');
      if (ctx.actor.kind !== 'system' && !hasPermission(ctx, 'settings')) {
        throw AppError.forbidden('Only the store owner and staff with the settings permission can read the audit log.');
      }
      const limit = Math.min(Math.max(query.limit ?? 50, 1), 100);
      const where: SQL[] = [eq(al.tenantId, ctx.tenantId)];
      if (query.entity) where.push(eq(al.entity, query.entity));
      if (query.entityId) where.push(eq(al.entityId, query.entityId));
      if (query.actorId) where.push(eq(al.actorId, query.actorId));
      if (query.action) where.push(eq(al.action, query.action));
      if (query.from) where.push(gte(al.createdAt, new Date(query.from)));
      if (query.to) where.push(lt(al.createdAt, new Date(query.to)));
      if (query.cursor) {
        const c = decodeCursor(query.cursor);
        where.push(sql`(${al.createdAt}, ${al.id}) < (${c.at}::timestamptz, ${c.id}::bigint)`);
      }
      const rows = await db
        .select()
        .from(al)
        .where(and(...where))
        .orderBy(desc(al.createdAt), desc(al.id))
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

function toEntry(r: typeof al.$inferSelect): AuditEntry {
  return {
    id: String(r.id),
    at: r.createdAt.toISOString(),
    actor: {
      kind: r.actorKind,
      id: r.actorId,
      role: r.actorRole,
      name: r.actorName,
      email: r.actorEmail,
      ...(r.supportOperatorId
        ? { support: { operatorId: r.supportOperatorId, email: r.supportOperatorEmail ?? '' } }
        : {}),
    },
    entity: r.entity,
    entityId: r.entityId,
    action: r.action,
    changes: r.changes,
    requestId: r.requestId,
    ip: r.ip,
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
