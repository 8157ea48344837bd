import { z } from 'zod';
import { textInt } from './strict-input';

/** Entity and action names: lower case words joined by '.', '_' or '-' (`store.settings`, `publish`). */
export const AUDIT_NAME = /^[a-z][a-z0-9_.-]{0,63}$/;
export const AUDIT_PAGE_MAX = 100;

const name = (what: string) => z.string().regex(AUDIT_NAME, `${what}: lower-case letters, digits, '.', '_' or '-'.`);
const when = z.iso.datetime({ offset: true, error: 'Use an ISO 8601 date and time, e.g. 2026-05-01T00:00:00Z.' });

/** GET /api/v1/audit/fetch: the store's audit log, newest first, one page. */
export const auditQuerySchema = z
  .strictObject({
    entity: name('entity').optional(),
    entityId: z.string().min(1).max(200).optional(),
    actorId: z.string().min(1).max(200).optional(),
    action: name('action').optional(),
    /** Entries at or after this time. */
    from: when.optional(),
    /** Entries before this time. */
    to: when.optional(),
    /** `nextCursor` of the previous page. */
    cursor: z.string().min(1).max(200).optional(),
    limit: textInt('limit', { min: 1, max: AUDIT_PAGE_MAX }).default(50),
  })
  .refine((q) => !q.entityId || q.entity, { message: 'entityId needs entity as well.', path: ['entityId'] });
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditFieldChangeSchema = z.object({ before: z.unknown().optional(), after: z.unknown().optional() });

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({
    kind: z.enum(['staff', 'shopper', 'system', 'guest']),
    /** The user id (staff, shopper) or the job's name (system); null for a guest. */
    id: z.string().nullable(),
    role: z.string().nullable(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    /** Present when a platform operator acted as support, with the owner's consent. */
    support: z.object({ operatorId: z.string(), email: z.string() }).optional(),
  }),
  entity: z.string(),
  entityId: z.string(),
  action: z.string(),
  /** The fields that changed; secrets show as "[redacted]". */
  changes: z.record(z.string(), auditFieldChangeSchema),
  requestId: z.string().nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
