import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, Db, Tx } from '@app/db';
import { sql } from 'drizzle-orm';

/**
 * Which database holds each store (decision 123). One deployment may keep its stores on several
 * PostgreSQL databases: the home database (`DATABASE_URL`, named `main`) holds the platform's own
 * tables and every store not placed elsewhere; `STORE_DATABASES` names the others. A store's
 * placement is a row of `store_placements` in the home database.
 *
 * Services keep the one `db` they were built with: it is a router whose every call (`select`,
 * `insert`, `transaction`, `execute` ...) goes to the database of the store the current async
 * context serves. The tenancy step of each request enters that context; work outside any store
 * (platform routes, the job runner's own bookkeeping) goes to the home database.
 */
export const HOME_DATABASE = 'main';

interface Scope {
  tenantId: string;
}
const storeScope = new AsyncLocalStorage<Scope>();

/**
 * Whether `err` (or its cause) is the refusal the database a store leaves gives its writes while the
 * store switches (SQLSTATE 40001 from the move's capture trigger, migration 0053): a write from a
 * process that had not held it. Nothing was written; the same write succeeds on the store's new
 * database a moment later.
 */
export function isStoreSwitching(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === '40001' && typeof message === 'string' && message.includes('is switching databases')) return true;
  }
  return false;
}

/** How long to tell a client to wait before sending a write refused during a switch again, seconds. */
export const STORE_MOVING_RETRY_AFTER_S = 1;

/** How long a store's writes are held at the most while it switches databases. */
export const MAX_WRITE_HOLD_MS = 5_000;

interface Gate {
  released: Promise<void>;
  release(): void;
  since: number;
}

export interface StoreDatabases {
  /** The router services use; the home database's own handle when there is no other database. */
  readonly db: Db;
  readonly home: Database;
  /** Database names, home first. */
  names(): string[];
  get(name: string): Database | undefined;
  /** The name of the database holding a store. */
  placementOf(tenantId: string): string;
  /** The database of a store that lives elsewhere than home; undefined for a store at home. */
  movedTo(tenantId: string): Database | undefined;
  /** The stores living on a database other than home, by database (this process's placements). */
  movedStores(): Map<string, string[]>;
  /** Reads every placement from the home database (at start, and when another process moved a store). */
  reload(): Promise<void>;
  /** Records a store's new database in this process (the caller has written the row). */
  place(tenantId: string, name: string): void;
  /** Runs `fn` with queries going to the store's database. */
  within<T>(tenantId: string, fn: () => T): T;
  /**
   * Runs `fn` with the router's queries (and the event bus's transactions) going to the home database,
   * whatever store the caller serves: for writes of the platform's rows (a store's hosts, domains,
   * lifecycle, cancel request), which tenancy and the operators read there.
   */
  atHome<T>(fn: () => T): T;
  /**
   * Enters a request of the store: a write request waits while the store's writes are held (at most
   * `MAX_WRITE_HOLD_MS`), and is counted until it ends, so a cutover can wait for the ones in flight.
   * `next` runs inside the store's context; `ended` must be called once the request has answered.
   */
  enterRequest(tenantId: string, write: boolean, next: (err?: Error) => void): { ended(): void };
  /** Holds the store's new writes; answers once the writes in flight have ended (or `timeoutMs` passed). */
  holdWrites(tenantId: string, timeoutMs: number): Promise<{ drained: boolean }>;
  releaseWrites(tenantId: string): void;
  /** Writes of the store in this process now. */
  writesInFlight(tenantId: string): number;
}

/**
 * `home` and the extra databases by name. Without extras, `db` is the home handle itself: the
 * single-database deployment (and PGlite) runs exactly as before.
 */
export function createStoreDatabases(home: Database, extra: Record<string, Database> = {}): StoreDatabases {
  const byName = new Map<string, Database>([[HOME_DATABASE, home], ...Object.entries(extra)]);
  const placements = new Map<string, string>();
  const gates = new Map<string, Gate>();
  const inFlight = new Map<string, number>();
  const drainWaiters = new Map<string, Array<() => void>>();

  const dbFor = (tenantId: string | undefined): Db => {
    if (tenantId === undefined) return home.db;
    const name = placements.get(tenantId);
    return (name && byName.get(name)?.db) || home.db;
  };

  // Every property is read from the database of the store in context at the moment of the call,
  // bound to it: a query builder made there keeps that database's session, and a transaction its
  // connection, to the end.
  const router: Db =
    byName.size === 1
      ? home.db
      : (new Proxy(home.db, {
          get(_target, prop) {
            const real = dbFor(storeScope.getStore()?.tenantId) as unknown as Record<PropertyKey, unknown>;
            const value = real[prop];
            return typeof value === 'function' ? value.bind(real) : value;
          },
        }) as Db);

  const ended = (tenantId: string) => {
    const n = (inFlight.get(tenantId) ?? 1) - 1;
    if (n <= 0) {
      inFlight.delete(tenantId);
      for (const w of drainWaiters.get(tenantId) ?? []) w();
      drainWaiters.delete(tenantId);
    } else inFlight.set(tenantId, n);
  };

  return {
    db: router,
    home,
    names: () => [...byName.keys()],
    get: (name) => byName.get(name),
    placementOf: (tenantId) => placements.get(tenantId) ?? HOME_DATABASE,
    movedTo(tenantId) {
      const name = placements.get(tenantId);
      return name === undefined ? undefined : byName.get(name);
    },
    movedStores() {
      const byDatabase = new Map<string, string[]>();
      for (const [tenantId, name] of placements) byDatabase.set(name, [...(byDatabase.get(name) ?? []), tenantId]);
      return byDatabase;
    },
    async reload() {
      if (byName.size === 1) return;
      const rows = (
        (await home.db.execute(sql`SELECT tenant_id, database FROM store_placements`)) as unknown as {
          rows: Array<{ tenant_id: string; database: string }>;
        }
      ).rows;
      placements.clear();
      for (const r of rows) if (r.database !== HOME_DATABASE) placements.set(r.tenant_id, r.database);
    },
    place(tenantId, name) {
      if (name === HOME_DATABASE) placements.delete(tenantId);
      else placements.set(tenantId, name);
    },
    within: (tenantId, fn) => storeScope.run({ tenantId }, fn),
    atHome: (fn) => storeScope.exit(fn),
    enterRequest(tenantId, write, next) {
      let done = false;
      const handle = {
        ended() {
          if (done || !write) return;
          done = true;
          ended(tenantId);
        },
      };
      const go = () => {
        if (write) inFlight.set(tenantId, (inFlight.get(tenantId) ?? 0) + 1);
        storeScope.run({ tenantId }, () => next());
      };
      const gate = write ? gates.get(tenantId) : undefined;
      if (!gate) go();
      // Held: the write waits for the switch, then runs against wherever the store is by then.
      else gate.released.then(go);
      return handle;
    },
    async holdWrites(tenantId, timeoutMs) {
      let release = () => {};
      const released = new Promise<void>((r) => {
        release = r;
      });
      gates.set(tenantId, { released, release, since: Date.now() });
      if (!inFlight.get(tenantId)) return { drained: true };
      let timer: NodeJS.Timeout | undefined;
      const drained = await Promise.race([
        new Promise<boolean>((r) => {
          const list = drainWaiters.get(tenantId) ?? [];
          list.push(() => r(true));
          drainWaiters.set(tenantId, list);
        }),
        new Promise<boolean>((r) => {
          timer = setTimeout(() => r(false), timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      return { drained };
    },
    releaseWrites(tenantId) {
      const gate = gates.get(tenantId);
      gates.delete(tenantId);
      gate?.release();
    },
    writesInFlight: (tenantId) => inFlight.get(tenantId) ?? 0,
  };
}

/**
 * `STORE_DATABASES`: `name=postgres://...` pairs separated by commas. Names are short lowercase
 * words; `main` is the home database's and cannot be reused.
 */
export function parseStoreDatabases(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value?.trim()) return out;
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq).trim();
    const url = part.slice(eq + 1).trim();
    if (eq < 1 || !/^[a-z][a-z0-9_-]{0,30}$/.test(name)) {
      throw new Error(`STORE_DATABASES: "${part.trim().slice(0, 40)}" is not name=postgres://...`);
    }
    if (name === HOME_DATABASE) throw new Error(`STORE_DATABASES: "${HOME_DATABASE}" is the home database's name`);
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`STORE_DATABASES: ${name} needs a postgres:// URL`);
    if (name in out) throw new Error(`STORE_DATABASES: ${name} is named twice`);
    out[name] = url;
  }
  return out;
}

/** Work queued on a home transaction (`afterHomeCommit`), run once it has committed. */
const homeCommitWork = new WeakMap<Tx, Array<() => Promise<void>>>();

/**
 * The event bus (or any object with its `transaction`) whose transactions are opened on the home
 * database, for a module that writes the platform's rows of a store (decision 123): its
 * `emitAfterCommit` and the rest are the bus's own. Work queued with `afterHomeCommit` runs once the
 * transaction has committed, outside the home scope (nothing runs if it rolled back).
 */
export function homeTransactions<E extends { transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> }>(
  stores: Pick<StoreDatabases, 'atHome'>,
  events: E,
): E {
  const home = Object.create(events) as E;
  home.transaction = async (work) => {
    const after: Array<() => Promise<void>> = [];
    const result = await stores.atHome(() =>
      events.transaction((tx) => {
        homeCommitWork.set(tx, after);
        return work(tx);
      }),
    );
    for (const fn of after) await fn();
    return result;
  };
  return home;
}

/**
 * Queues `fn` to run once `tx` has committed, when `tx` is a transaction `homeTransactions` opened:
 * answers false for any other, and the caller does its work in `tx` instead. `fn` must not throw:
 * the transaction's change stands, and the caller's answer with it.
 */
export function afterHomeCommit(tx: Tx, fn: () => Promise<void>): boolean {
  const queue = homeCommitWork.get(tx);
  if (!queue) return false;
  queue.push(fn);
  return true;
}
