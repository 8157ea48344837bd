import { randomBytes } from 'node:crypto';
import type { Database, Db, Listener, Tx } from '@app/db';
import { type SQL, sql } from 'drizzle-orm';
import { type AppEvents, coarser, type EventName, eventSchemas, type WireEvent } from './event-types';

/** The one channel every app process LISTENs on. */
export const EVENTS_CHANNEL = 'app_events';
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
export const NOTIFY_MAX_BYTES = 7999;
/** Notifications sent in one statement at most (a burst of events goes out in a few round trips). */
const NOTIFY_BATCH = 100;

export type EventHandler<N extends EventName> = (payload: AppEvents[N]) => void | Promise<void>;

/** What a writer needs: it says what changed, and nothing about who listens. */
export interface Emitter {
  /**
   * Delivers now to this process's subscribers and, on PostgreSQL, to the other app processes.
   * Only for a write that has committed (or was made without a transaction); inside a transaction
   * use `transaction` and `emitAfterCommit`, or emit after `db.transaction` has returned.
   */
  emit<N extends EventName>(name: N, payload: AppEvents[N]): void;
}

export interface EventBus extends Emitter {
  /** Calls `handler` for each event of that name, from this process or another; returns the unsubscribe. */
  on<N extends EventName>(name: N, handler: EventHandler<N>): () => void;
  /**
   * Runs `work` in one transaction. Events it queues with `emitAfterCommit(tx, ...)` reach this
   * process's subscribers after the commit, and other processes with it (the NOTIFY is part of
   * the transaction); if the transaction rolls back, nobody hears of them.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Queues an event on a transaction opened by `transaction`; throws for any other transaction. */
  emitAfterCommit<N extends EventName>(tx: Tx, name: N, payload: AppEvents[N]): void;
  /** Starts hearing other processes (PostgreSQL); resolves once listening, or after a first failed try. */
  start(): Promise<void>;
  /** Waits for notifications still being sent and stops listening. */
  close(): Promise<void>;
  /** This bus's id, sent with each notification so it ignores its own. */
  readonly origin: string;
}

type Log = {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
};

export interface EventBusOptions {
  /** Without one, the bus is in-process only and `transaction` is unavailable. */
  database?: Database;
  log: Log;
  /** Another channel (tests that must not hear other buses on the same database). */
  channel?: string;
}

/**
 * The notification for an event: its JSON, tagged with the sender, as small as the limit needs.
 * A payload too big is replaced by its coarser form (the whole tenant), and failing that by
 * `events.missed`, which makes every receiver read everything afresh: never lost, only coarser.
 */
export function wireMessage(origin: string, event: WireEvent, maxBytes = NOTIFY_MAX_BYTES): string {
  let e: WireEvent | null = event;
  while (e) {
    const text = JSON.stringify({ o: origin, n: e.name, p: e.payload });
    if (Buffer.byteLength(text) <= maxBytes) return text;
    const coarsen = coarser[e.name] as ((p: unknown) => WireEvent | null) | undefined;
    e = coarsen ? coarsen(e.payload) : null;
  }
  return JSON.stringify({ o: origin, n: 'events.missed', p: { reason: `${event.name} too large to send` } });
}

function notifySql(channel: string, messages: string[]): SQL {
  return sql`SELECT ${sql.join(
    messages.map((m) => sql`pg_notify(${channel}, ${m})`),
    sql`, `,
  )}`;
}

/**
 * The platform's events (decision 018): writers emit what changed, caches and indexes subscribe.
 * Delivery inside the process is synchronous, so a process reads its own writes at once; on
 * PostgreSQL every event also goes out on one NOTIFY channel, and every process LISTENs on a
 * connection of its own. A subscriber that throws is logged; the writer never notices.
 */
export function createEventBus(opts: EventBusOptions): EventBus {
  const { database, log } = opts;
  const channel = opts.channel ?? EVENTS_CHANNEL;
  const origin = `${process.pid}-${randomBytes(6).toString('base64url')}`;
  const remote = database?.kind === 'postgres' && !!database.listen;
  const handlers = new Map<EventName, Set<EventHandler<EventName>>>();
  const openTx = new WeakMap<Tx, { events: WireEvent[]; sealed: boolean }>();
  let listener: Listener | undefined;
  let closed = false;

  function deliver(name: EventName, payload: AppEvents[EventName]) {
    const set = handlers.get(name);
    if (!set) return;
    for (const handler of set) {
      try {
        const done = handler(payload);
        if (done && typeof (done as Promise<void>).catch === 'function') {
          (done as Promise<void>).catch((err) => log.error({ err, event: name }, 'event handler failed'));
        }
      } catch (err) {
        log.error({ err, event: name }, 'event handler failed');
      }
    }
  }

  // Sends go out one statement at a time, in order: what one process emits, others hear in order.
  let queue: string[] = [];
  let sending: Promise<void> = Promise.resolve();
  async function flush(db: Db) {
    while (queue.length) {
      const batch = queue.slice(0, NOTIFY_BATCH);
      queue = queue.slice(batch.length);
      try {
        await db.execute(notifySql(channel, batch));
      } catch (err) {
        // The others see the change only when their caches expire (their TTLs).
        log.error({ err, events: batch.length }, 'events not sent to the other app processes');
      }
    }
  }
  function send(event: WireEvent) {
    if (!remote || !database || closed) return;
    queue.push(wireMessage(origin, event));
    if (queue.length === 1) sending = sending.then(() => flush(database.db));
  }

  function receive(text: string) {
    let msg: { o?: unknown; n?: unknown; p?: unknown };
    try {
      msg = JSON.parse(text);
    } catch {
      log.warn({ channel }, 'ignored a notification that is not JSON');
      return;
    }
    if (msg?.o === origin) return; // delivered here when it was emitted
    const schema = typeof msg?.n === 'string' ? eventSchemas[msg.n as EventName] : undefined;
    const parsed = schema?.safeParse(msg.p);
    if (!parsed?.success) {
      log.warn({ channel, event: msg?.n }, 'ignored a notification that is no known event');
      return;
    }
    deliver(msg.n as EventName, parsed.data);
  }

  return {
    origin,

    emit(name, payload) {
      deliver(name, payload);
      send({ name, payload } as WireEvent);
    },

    on(name, handler) {
      let set = handlers.get(name);
      if (!set) {
        set = new Set();
        handlers.set(name, set);
      }
      set.add(handler as EventHandler<EventName>);
      return () => set.delete(handler as EventHandler<EventName>);
    },

    async transaction(work) {
      if (!database) throw new Error('this event bus has no database: it cannot open transactions');
      const queued = { events: [] as WireEvent[], sealed: false };
      const result = await database.db.transaction(async (tx) => {
        openTx.set(tx, queued);
        const value = await work(tx);
        queued.sealed = true;
        if (remote && queued.events.length) {
          const messages = queued.events.map((e) => wireMessage(origin, e));
          for (let i = 0; i < messages.length; i += NOTIFY_BATCH) {
            await tx.execute(notifySql(channel, messages.slice(i, i + NOTIFY_BATCH)));
          }
        }
        return value;
      });
      for (const e of queued.events) deliver(e.name, e.payload);
      return result;
    },

    emitAfterCommit(tx, name, payload) {
      const queued = openTx.get(tx);
      if (!queued) {
        throw new Error(
          `emitAfterCommit(${name}) needs the transaction of events.transaction (a nested one or db.transaction's would deliver before the commit is known)`,
        );
      }
      if (queued.sealed) throw new Error(`emitAfterCommit(${name}) after the transaction's work had returned`);
      queued.events.push({ name, payload } as WireEvent);
    },

    async start() {
      if (!remote || !database?.listen || listener || closed) return;
      listener = await database.listen(channel, {
        onNotify: receive,
        onListening({ reconnected }) {
          if (!reconnected) return;
          log.info({ channel }, 'listening to the other app processes again: cached data is read afresh');
          deliver('events.missed', { reason: 'the connection to the other app processes was lost' });
        },
        onError(err, retryInMs) {
          log.warn({ err, channel, retryInMs }, 'not hearing the other app processes: retrying');
        },
      });
    },

    async close() {
      closed = true;
      await sending;
      await listener?.close();
      listener = undefined;
    },
  };
}
