import {
  CLOSING_EXPORT_DAYS,
  canTransitionStore,
  type PlatformActor,
  type StoreLifecycle,
  type StoreState,
  type StoreStateChange,
} from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, desc, eq, lte } from 'drizzle-orm';
import type { RequestContext } from '../../lib/context';
import type { EventBus } from '../../lib/events/index';
import { ok, type Refusal, Refused, type Result, refuse, returnRefusals } from '../../lib/result';
import type { AuditService } from '../audit/index';

const sl = schema.storeLifecycle;
const slh = schema.storeLifecycleHistory;

export type { PlatformActor } from '@app/contracts';

export interface StoreLifecycleDeps {
  events: EventBus;
  audit: Pick<AuditService, 'record'>;
}

/** What a successful transition did. */
export interface StoreTransition {
  tenantId: string;
  from: StoreState;
  to: StoreState;
  seq: number;
  at: Date;
  closesAt: Date | null;
}

/**
 * A transition refused: 409 INVALID_TRANSITION when the state machine does not allow it from the
 * store's state (or the state is not the one the caller expected), 404 NOT_FOUND for no such store.
 */
export type StoreTransitionRefusal = Refusal<'INVALID_TRANSITION' | 'NOT_FOUND'>;

export interface TransitionOptions {
  /**
   * The caller's transaction (one opened by `events.transaction`): the change commits or rolls back
   * with the caller's own writes (sign-up, a cancel request's approval).
   */
  tx?: Tx;
  /** Refuse unless the store is in this state now (an operator acted on what the page showed). */
  expect?: StoreState;
  /** For `closing`: when the store closes; 30 days from now by default. */
  closesAt?: Date;
  /** The request that asked for it, for the audit entry. */
  requestId?: string;
}

// A store's state is read on every request: kept per process, dropped by `store.lifecycle.changed`
// (which crosses processes on PostgreSQL); the TTL bounds staleness if an event is ever lost unnoticed.
const STATE_TTL_MS = 30_000;
const CACHE_MAX = 10_000;

interface Cached {
  value: StoreLifecycle;
  expires: number;
}

function actorColumns(actor: PlatformActor) {
  switch (actor.kind) {
    case 'operator':
      return { actorKind: 'operator', actorId: actor.operatorId, actorEmail: actor.email };
    case 'owner':
      return { actorKind: 'owner', actorId: actor.userId, actorEmail: null };
    case 'system':
      return { actorKind: 'system', actorId: actor.name, actorEmail: null };
  }
}

function actorFromRow(row: typeof slh.$inferSelect, tenantId: string): PlatformActor {
  if (row.actorKind === 'operator') return { kind: 'operator', operatorId: row.actorId, email: row.actorEmail ?? '' };
  if (row.actorKind === 'owner') return { kind: 'owner', userId: row.actorId, tenantId };
  return { kind: 'system', name: row.actorId };
}

/** The name the store's own audit log shows for a platform actor (its system actor's name). */
export function auditActorName(actor: PlatformActor): string {
  if (actor.kind === 'operator') return `platform operator ${actor.email}`;
  if (actor.kind === 'owner') return `owner ${actor.userId}`;
  return actor.name;
}

/**
 * The one writer of a store's lifecycle state (decision 099). `transition` locks the store's row,
 * checks the transitions table, writes the state and a history row (who, when, why) and an entry in
 * the store's audit log, and tells every process (`store.lifecycle.changed`) to drop its cached state.
 */
export function createStoreLifecycleService(db: Db, deps: StoreLifecycleDeps) {
  const cache = new Map<string, Cached>();
  // Bumped by every invalidation: a read that began before a change and ends after its event must
  // not put the state it read (the old one) back into the cache.
  let generation = 0;

  async function read(tenantId: string): Promise<StoreLifecycle | null> {
    const [row] = await db
      .select({ state: sl.state, closesAt: sl.closesAt, updatedAt: sl.updatedAt })
      .from(sl)
      .where(eq(sl.tenantId, tenantId));
    if (!row) return null;
    return {
      tenantId,
      state: row.state,
      since: row.updatedAt.toISOString(),
      closesAt: row.closesAt?.toISOString() ?? null,
    };
  }

  async function lifecycle(tenantId: string): Promise<StoreLifecycle> {
    const now = Date.now();
    const hit = cache.get(tenantId);
    if (hit && hit.expires > now) return hit.value;
    // A tenant without a row is one created outside sign-up and the seed (a test's or a bench's
    // store): it was open before lifecycles existed, as the migration's backfill says of such stores.
    const started = generation;
    const value = (await read(tenantId)) ?? { tenantId, state: 'active' as const, since: null, closesAt: null };
    if (started !== generation) return value;
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(tenantId, { value, expires: now + STATE_TTL_MS });
    return value;
  }

  /** The store's audit log entry: the store's owner sees who changed its state and why. */
  async function auditEntry(tx: Tx, t: StoreTransition, actor: PlatformActor, reason: string, requestId?: string) {
    const [store] = await tx
      .select({ productStoreId: schema.productStores.productStoreId, host: schema.productStores.canonicalHost })
      .from(schema.productStores)
      .where(eq(schema.productStores.tenantId, t.tenantId))
      .orderBy(asc(schema.productStores.productStoreId))
      .limit(1);
    if (!store) return;
    const ctx: RequestContext = {
      tenantId: t.tenantId,
      productStoreId: store.productStoreId,
      hostName: store.host,
      viaDevAlias: false,
      origin: '',
      actor: { kind: 'system', name: auditActorName(actor) },
      requestId: requestId ?? `lifecycle-${t.seq}`,
      ip: null,
    };
    await deps.audit.record(tx, ctx, {
      entity: 'store_lifecycle',
      entityId: t.tenantId,
      action: t.to,
      before: { state: t.from },
      after: { state: t.to, reason, ...(t.closesAt ? { closesAt: t.closesAt.toISOString() } : {}) },
    });
  }

  async function transitionIn(
    tx: Tx,
    actor: PlatformActor,
    tenantId: string,
    to: StoreState,
    reason: string,
    opts: TransitionOptions,
  ): Promise<StoreTransition> {
    const [row] = await tx.select().from(sl).where(eq(sl.tenantId, tenantId)).for('update');
    if (!row) {
      const [tenant] = await tx
        .select({ id: schema.tenants.tenantId })
        .from(schema.tenants)
        .where(eq(schema.tenants.tenantId, tenantId));
      if (!tenant) throw new Refused(refuse(404, 'NOT_FOUND', `Store ${tenantId.slice(0, 64)} was not found.`));
    }
    const from: StoreState = row?.state ?? 'active';
    if ((opts.expect !== undefined && opts.expect !== from) || !canTransitionStore(from, to)) {
      throw new Refused(refuse(409, 'INVALID_TRANSITION', `The store is ${from}; it cannot become ${to}.`));
    }
    const at = new Date();
    const closesAt =
      to === 'closing' ? (opts.closesAt ?? new Date(at.getTime() + CLOSING_EXPORT_DAYS * 86_400_000)) : null;
    const seq = (row?.seq ?? 0) + 1;
    await tx
      .insert(sl)
      .values({ tenantId, state: to, closesAt, seq, updatedAt: at })
      .onConflictDoUpdate({ target: sl.tenantId, set: { state: to, closesAt, seq, updatedAt: at } });
    await tx.insert(slh).values({
      tenantId,
      seq,
      fromState: from,
      toState: to,
      reason,
      ...actorColumns(actor),
      createdAt: at,
    });
    const done = { tenantId, from, to, seq, at, closesAt };
    await auditEntry(tx, done, actor, reason, opts.requestId);
    deps.events.emitAfterCommit(tx, 'store.lifecycle.changed', { tenantId, from, to });
    return done;
  }

  const service = {
    /** The store's state; cheap (cached per process, dropped when any process changes it). */
    async stateOf(tenantId: string): Promise<StoreState> {
      return (await lifecycle(tenantId)).state;
    },

    /** The state with when it began and, for a closing store, when it closes. */
    lifecycle,

    /**
     * Moves the store to `to`, under a lock on its row, if the state machine allows it from the state
     * it is in; records who, when and why. A refused move changes nothing and comes back typed.
     */
    async transition(
      actor: PlatformActor,
      tenantId: string,
      to: StoreState,
      reason: string,
      opts: TransitionOptions = {},
    ): Promise<Result<StoreTransition, StoreTransitionRefusal>> {
      const why = reason.trim().slice(0, 1000);
      if (opts.tx) {
        // In the caller's transaction: a refusal is returned and the caller decides whether to roll back.
        const tx = opts.tx;
        const result = await returnRefusals<Result<StoreTransition, StoreTransitionRefusal>, StoreTransitionRefusal>(
          async () => ok(await transitionIn(tx, actor, tenantId, to, why, opts)),
        );
        return result;
      }
      const result = await returnRefusals<Result<StoreTransition, StoreTransitionRefusal>, StoreTransitionRefusal>(
        async () => ok(await deps.events.transaction((tx) => transitionIn(tx, actor, tenantId, to, why, opts))),
      );
      // This process's cached state is already dropped: the bus delivers store.lifecycle.changed to
      // this process before events.transaction returns, and to the others through NOTIFY.
      return result;
    },

    /**
     * A new store's first state (sign-up: `provisioning`), in the transaction that creates its
     * tenant; history row 1 says who created it.
     */
    async begin(tx: Tx, actor: PlatformActor, tenantId: string, reason: string, state: StoreState = 'provisioning') {
      const at = new Date();
      await tx.insert(sl).values({ tenantId, state, seq: 1, updatedAt: at });
      await tx.insert(slh).values({
        tenantId,
        seq: 1,
        fromState: null,
        toState: state,
        reason,
        ...actorColumns(actor),
        createdAt: at,
      });
      service.invalidate(tenantId);
    },

    /** Every change of the store's state, oldest first. */
    async history(tenantId: string): Promise<StoreStateChange[]> {
      const rows = await db.select().from(slh).where(eq(slh.tenantId, tenantId)).orderBy(asc(slh.seq));
      return rows.map((r) => ({
        seq: r.seq,
        from: (r.fromState as StoreState | null) ?? null,
        to: r.toState as StoreState,
        reason: r.reason,
        actor: actorFromRow(r, tenantId),
        at: r.createdAt.toISOString(),
      }));
    },

    /** The last change of the store's state (its reason, for the dashboard's banner). */
    async lastChange(tenantId: string): Promise<StoreStateChange | null> {
      const [r] = await db.select().from(slh).where(eq(slh.tenantId, tenantId)).orderBy(desc(slh.seq)).limit(1);
      if (!r) return null;
      return {
        seq: r.seq,
        from: (r.fromState as StoreState | null) ?? null,
        to: r.toState as StoreState,
        reason: r.reason,
        actor: actorFromRow(r, tenantId),
        at: r.createdAt.toISOString(),
      };
    },

    /** Closing stores whose 30 days are over, oldest first (the sweep closes them). */
    async dueToClose(now = new Date(), limit = 100): Promise<string[]> {
      const rows = await db
        .select({ tenantId: sl.tenantId })
        .from(sl)
        .where(and(eq(sl.state, 'closing'), lte(sl.closesAt, now)))
        .orderBy(asc(sl.closesAt))
        .limit(limit);
      return rows.map((r) => r.tenantId);
    },

    /** Drops cached states: one tenant's, or all (events.missed). */
    invalidate(tenantId?: string) {
      generation++;
      if (tenantId) cache.delete(tenantId);
      else cache.clear();
    },
  };
  return service;
}

export type StoreLifecycleService = ReturnType<typeof createStoreLifecycleService>;
