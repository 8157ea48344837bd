import { type Db, schema, type Tx } from '@app/db';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { hasPermission, type RequestContext, type TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../lib/events/index';
import { type Ok, ok, type Refusal, Refused, type Result, refuse, returnRefusals } from '../../lib/result';
import type { AuditService } from '../audit/index';

const d = schema.contentDrafts;
const v = schema.contentVersions;

/**
 * One kind of look-and-content that is edited as a draft (decision 032): theme, store details,
 * banners, a CMS page. The kind says how its payload is checked, what is live now, and how a
 * payload goes live; the drafts service does the rest (saving, publishing, versions, preview).
 */
export interface DraftKind<T> {
  /** The kind's name in the tables and routes: lower-case words with dashes, e.g. `banners`. */
  kind: string;
  /** The audit log's entity name for publishes of this kind, e.g. `store.theme`. */
  entity: string;
  /** Checks a draft before it is saved; its issues are answered as 400 naming the field. */
  payload: z.ZodType<T>;
  /** The published state now, as a payload (null when nothing is published under this key). */
  readLive(tx: Tx | Db, ctx: TenantContext, key: string): Promise<T | null>;
  /**
   * Makes `payload` the published state, inside the publish transaction. A refusal the owner can
   * act on (a page URL taken meanwhile) is thrown as `Refused`: the publish is undone and returns it.
   */
  applyLive(tx: Tx, ctx: RequestContext, key: string, payload: T): Promise<void>;
  /** What `settings.changed` names after a publish (defaults to the kind), for subscribers. */
  what?: string;
  /**
   * What a publish changes, in the owner's words ("Standard in Domestic: $5.00 → $6.95"): kept
   * with the publish in the audit log, so the log says what changed without a diff of payloads.
   */
  describe?(before: T | null, after: T, tx: Tx, ctx: TenantContext): string[] | Promise<string[]>;
  /**
   * The draft a restored version becomes, given what is live now: a kind that records in its
   * payload what the draft was started from (to refuse publishing over a change made meanwhile)
   * starts the restored draft from the live state of now.
   */
  rebase?(tx: Tx | Db, ctx: TenantContext, key: string, payload: T): Promise<T>;
}

/** Typed identity: a kind's definition, checked against the interface where it is written. */
export function defineDraftKind<T>(def: DraftKind<T>): DraftKind<T> {
  if (!/^[a-z][a-z0-9-]{0,40}$/.test(def.kind)) throw new Error(`drafts: bad kind name ${def.kind}`);
  return def;
}

export interface DraftState<T> {
  payload: T;
  updatedAt: Date;
  updatedBy: string | null;
  updatedByName: string | null;
}

export interface DraftVersion {
  version: number;
  publishedAt: Date;
  publishedBy: string | null;
  publishedByName: string | null;
}

/**
 * Publishing (decision 088): CONFLICT when there is no draft to publish (published or discarded
 * meanwhile), when the draft was saved again after the publisher loaded it (`seen`, decision
 * 120), or when the kind refuses the payload as it stands (a page URL another page took).
 */
export type PublishRefusal = Refusal<'CONFLICT'>;

/** Keys are ids chosen by the kind (a store id, a page id): bounded, printable, no separators games. */
const KEY = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,120}$/;

function checkKey(key: string) {
  if (!KEY.test(key)) throw AppError.badRequest('key: not a valid id.');
}

function editorOf(ctx: RequestContext): { id: string | null; name: string | null } {
  const a = ctx.actor;
  if (a.kind === 'staff' || a.kind === 'shopper') return { id: a.userId, name: a.firstName || a.userLoginId };
  if (a.kind === 'system') return { id: a.name, name: null };
  return { id: null, name: null };
}

/** Drafts and published versions are the owner's and their settings staff's business only. */
function assertMayEdit(ctx: RequestContext) {
  if (ctx.actor.kind === 'system') return;
  if (ctx.actor.kind === 'guest') throw new AppError(401, 'UNAUTHENTICATED', 'Please log in to continue.');
  if (!hasPermission(ctx, 'settings')) {
    throw AppError.forbidden('Only the store owner and staff with the settings permission can change this.');
  }
}

/** The audit log keeps objects; a payload that is a list is kept under `items`. */
function asFields(payload: unknown): Record<string, unknown> | null {
  if (payload === null || payload === undefined) return null;
  if (typeof payload === 'object' && !Array.isArray(payload)) return payload as Record<string, unknown>;
  return { items: payload };
}

function validationError(error: z.ZodError): AppError {
  const first = error.issues[0];
  const errors = error.issues
    .slice(0, 20)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
  if (!first?.path.length) return AppError.badRequest(first?.message ?? 'The draft is not valid.', errors);
  // Every issue goes to API clients; the form shows the first next to its field.
  const field = first.path.join('.');
  const err = new AppError(400, 'VALIDATION_FAILED', `${field}: ${first.message}`, errors);
  err.field = field;
  err.fieldMessage = first.message.charAt(0).toUpperCase() + first.message.slice(1);
  return err;
}

export function createDraftsService(db: Db, deps: { audit: AuditService; events: EventBus }) {
  const kinds = new Map<string, DraftKind<unknown>>();

  async function readDraft<T>(q: Tx | Db, ctx: TenantContext, kind: DraftKind<T>, key: string) {
    const [row] = await q
      .select()
      .from(d)
      .where(and(eq(d.tenantId, ctx.tenantId), eq(d.kind, kind.kind), eq(d.key, key)))
      .limit(1);
    return row;
  }

  async function writeDraft<T>(tx: Tx, ctx: RequestContext, kind: DraftKind<T>, key: string, payload: T) {
    const by = editorOf(ctx);
    const now = new Date();
    await tx
      .insert(d)
      .values({
        tenantId: ctx.tenantId,
        kind: kind.kind,
        key,
        payload,
        updatedBy: by.id,
        updatedByName: by.name,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [d.tenantId, d.kind, d.key],
        set: { payload, updatedBy: by.id, updatedByName: by.name, updatedAt: now },
      });
    return { updatedAt: now };
  }

  const service = {
    /** Makes a kind known to the generic routes (publish, discard, versions, restore). */
    register<T>(kind: DraftKind<T>): DraftKind<T> {
      const known = kinds.get(kind.kind);
      if (known && known !== kind) throw new Error(`drafts: kind ${kind.kind} registered twice`);
      kinds.set(kind.kind, kind as DraftKind<unknown>);
      return kind;
    },

    /** The registered kind of that name; 404 for any other (the routes take it from the path). */
    kind(name: string): DraftKind<unknown> {
      const kind = kinds.get(name);
      if (!kind) throw AppError.notFound(`There is no draft kind ${JSON.stringify(name.slice(0, 60))}.`);
      return kind;
    },

    /** The unpublished draft of one thing, or null when what is live is all there is. */
    async get<T>(ctx: RequestContext, kind: DraftKind<T>, key: string): Promise<DraftState<T> | null> {
      assertMayEdit(ctx);
      checkKey(key);
      const row = await readDraft(db, ctx, kind, key);
      if (!row) return null;
      return {
        payload: row.payload as T,
        updatedAt: row.updatedAt,
        updatedBy: row.updatedBy,
        updatedByName: row.updatedByName,
      };
    },

    /** What an editor starts from: the draft if there is one, else what is live. */
    async working<T>(
      ctx: RequestContext,
      kind: DraftKind<T>,
      key: string,
    ): Promise<{ payload: T | null; draft: DraftState<T> | null }> {
      const draft = await service.get(ctx, kind, key);
      if (draft) return { payload: draft.payload, draft };
      return { payload: await kind.readLive(db, ctx, key), draft: null };
    },

    /**
     * Checks the payload with the kind's schema (400 naming the first field at fault, nothing
     * saved) and makes it the draft, replacing any earlier one. Audited as `draft.save`.
     */
    async save<T>(
      ctx: RequestContext,
      kind: DraftKind<T>,
      key: string,
      payload: unknown,
    ): Promise<{ updatedAt: Date }> {
      assertMayEdit(ctx);
      checkKey(key);
      const parsed = kind.payload.safeParse(payload);
      if (!parsed.success) throw validationError(parsed.error);
      return db.transaction(async (tx) => {
        const before = await readDraft(tx, ctx, kind, key);
        const saved = await writeDraft(tx, ctx, kind, key, parsed.data);
        await deps.audit.record(tx, ctx, {
          entity: kind.entity,
          entityId: key,
          action: 'draft.save',
          before: asFields(before?.payload ?? null),
          after: asFields(parsed.data),
        });
        return saved;
      });
    },

    /**
     * Drops the draft of a thing its kind is deleting, in the kind's own transaction (a page deleted
     * takes its draft with it); the kind audits the delete. Answers the draft's payload, null when
     * there was none. Versions stay: they are the history of what was live.
     */
    async dropWith(tx: Tx, ctx: TenantContext, kind: DraftKind<unknown>, key: string): Promise<unknown | null> {
      const [gone] = await tx
        .delete(d)
        .where(and(eq(d.tenantId, ctx.tenantId), eq(d.kind, kind.kind), eq(d.key, key)))
        .returning({ payload: d.payload });
      return gone ? gone.payload : null;
    },

    /** Drops the draft: the editor shows what is live again. No draft is no error. */
    async discard(ctx: RequestContext, kind: DraftKind<unknown>, key: string): Promise<void> {
      assertMayEdit(ctx);
      checkKey(key);
      await db.transaction(async (tx) => {
        const [gone] = await tx
          .delete(d)
          .where(and(eq(d.tenantId, ctx.tenantId), eq(d.kind, kind.kind), eq(d.key, key)))
          .returning();
        if (gone) {
          await deps.audit.record(tx, ctx, {
            entity: kind.entity,
            entityId: key,
            action: 'draft.discard',
            before: asFields(gone.payload),
            after: null,
          });
        }
      });
    },

    /**
     * Makes the draft live, in one transaction: the draft row is locked (two publishes of one draft
     * give one version; the second finds no draft and gets 409), the kind writes its live tables,
     * the payload is kept as version n+1 with who and when, the draft goes, the audit log gets the
     * before and after, and `settings.changed` reaches every app process after the commit.
     */
    async publish(
      ctx: RequestContext,
      kind: DraftKind<unknown>,
      key: string,
      opts: { seen?: string | undefined } = {},
    ): Promise<Result<{ version: number }, PublishRefusal>> {
      assertMayEdit(ctx);
      checkKey(key);
      const seen = opts.seen ? Date.parse(opts.seen) : null;
      if (seen !== null && Number.isNaN(seen)) throw AppError.badRequest('seen: not a date and time.');
      return returnRefusals<Ok<{ version: number }>, PublishRefusal>(() =>
        deps.events.transaction(async (tx) => {
          const [draft] = await tx
            .select()
            .from(d)
            .where(and(eq(d.tenantId, ctx.tenantId), eq(d.kind, kind.kind), eq(d.key, key)))
            .for('update')
            .limit(1);
          if (!draft) throw new Refused(refuse(409, 'CONFLICT', 'There are no unpublished changes to publish.'));
          // Two staff members on one draft: what goes live is what the publisher looked at, or nothing.
          if (seen !== null && draft.updatedAt.getTime() !== seen)
            throw new Refused(
              refuse(
                409,
                'CONFLICT',
                `${draft.updatedByName ?? 'Someone'} changed the draft after you opened it. Review the changes, then publish again.`,
              ),
            );
          // A draft saved before a schema change is checked again: what goes live is always valid.
          const parsed = kind.payload.safeParse(draft.payload);
          if (!parsed.success) throw validationError(parsed.error);
          const before = await kind.readLive(tx, ctx, key);
          const [last] = await tx
            .select({ n: sql<number>`coalesce(max(${v.version}), 0)::int` })
            .from(v)
            .where(and(eq(v.tenantId, ctx.tenantId), eq(v.kind, kind.kind), eq(v.key, key)));
          let latest = last?.n ?? 0;
          // The first publish of something already live (the seeded store, a page from before drafts)
          // keeps that state as version 1, so Restore can always bring back where it started.
          if (latest === 0 && before !== null) {
            await tx.insert(v).values({
              tenantId: ctx.tenantId,
              kind: kind.kind,
              key,
              version: 1,
              payload: before,
              publishedBy: null,
              publishedByName: 'Before drafts',
            });
            latest = 1;
          }
          await kind.applyLive(tx, ctx, key, parsed.data);
          const version = latest + 1;
          const by = editorOf(ctx);
          await tx.insert(v).values({
            tenantId: ctx.tenantId,
            kind: kind.kind,
            key,
            version,
            payload: parsed.data,
            publishedBy: by.id,
            publishedByName: by.name,
          });
          await tx.delete(d).where(and(eq(d.tenantId, ctx.tenantId), eq(d.kind, kind.kind), eq(d.key, key)));
          const summary = kind.describe ? await kind.describe(before, parsed.data, tx, ctx) : undefined;
          await deps.audit.record(tx, ctx, {
            entity: kind.entity,
            entityId: key,
            action: 'publish',
            before: asFields(before),
            // The sentences sit beside the payload: the log's page shows them as the entry's `summary` field.
            after: summary ? { ...asFields(parsed.data), summary } : asFields(parsed.data),
          });
          deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: kind.what ?? kind.kind });
          return ok({ version });
        }),
      );
    },

    /** The publishes of one thing, newest first (at most `limit`). */
    async versions(ctx: RequestContext, kind: DraftKind<unknown>, key: string, limit = 20): Promise<DraftVersion[]> {
      assertMayEdit(ctx);
      checkKey(key);
      const rows = await db
        .select({
          version: v.version,
          publishedAt: v.publishedAt,
          publishedBy: v.publishedBy,
          publishedByName: v.publishedByName,
        })
        .from(v)
        .where(and(eq(v.tenantId, ctx.tenantId), eq(v.kind, kind.kind), eq(v.key, key)))
        .orderBy(desc(v.version))
        .limit(Math.min(Math.max(limit, 1), 100));
      return rows;
    },

    /**
     * Brings version n back as the draft (never straight live: the owner previews, then publishes,
     * which makes it a new version). 404 for a version this store does not have.
     */
    async restore(
      ctx: RequestContext,
      kind: DraftKind<unknown>,
      key: string,
      version: number,
    ): Promise<{ updatedAt: Date }> {
      assertMayEdit(ctx);
      checkKey(key);
      if (!Number.isInteger(version) || version < 1)
        throw AppError.badRequest('version: must be a positive whole number.');
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({ payload: v.payload })
          .from(v)
          .where(and(eq(v.tenantId, ctx.tenantId), eq(v.kind, kind.kind), eq(v.key, key), eq(v.version, version)))
          .limit(1);
        if (!row) throw AppError.notFound(`There is no version ${version} to restore.`);
        const before = await readDraft(tx, ctx, kind, key);
        const payload = kind.rebase ? await kind.rebase(tx, ctx, key, row.payload) : row.payload;
        const saved = await writeDraft(tx, ctx, kind, key, payload);
        await deps.audit.record(tx, ctx, {
          entity: kind.entity,
          entityId: key,
          action: 'restore',
          before: asFields(before?.payload ?? null),
          after: { ...asFields(row.payload), restoredVersion: version },
        });
        return saved;
      });
    },

    /**
     * The draft to show instead of what is live, when this request is the owner's preview (the
     * preview switch is on and the actor may edit settings); null for everyone else, always: a
     * shopper never sees a draft, whatever cookie they send.
     */
    async preview<T>(ctx: RequestContext, kind: DraftKind<T>, key: string): Promise<T | null> {
      if (!ctx.preview || !hasPermission(ctx, 'settings')) return null;
      const row = await readDraft(db, ctx, kind, key);
      if (!row) return null;
      const parsed = kind.payload.safeParse(row.payload);
      return parsed.success ? parsed.data : null;
    },
  };
  return service;
}

export type DraftsService = ReturnType<typeof createDraftsService>;
