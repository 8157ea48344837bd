import { type Database, schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness';
import { createEventBus, NOTIFY_MAX_BYTES, wireMessage } from './event-bus';
import type { AppEvents } from './event-types';

function recordingLog() {
  const errors: Array<{ obj: object; msg: string }> = [];
  return {
    errors,
    log: { error: (obj: object, msg: string) => errors.push({ obj, msg }), warn() {}, info() {} },
  };
}

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.insert(schema.tenants).values({ tenantId: 'evt', name: 'Events Store' });
});
afterAll(async () => {
  await database.close();
});

const tenantName = async () =>
  (await database.db.select().from(schema.tenants).where(eq(schema.tenants.tenantId, 'evt')))[0]?.name;

describe('event bus in a process', () => {
  it('delivers each event to the subscribers of its name, at once, until they unsubscribe', async () => {
    const bus = createEventBus({ log: recordingLog().log });
    const stock: AppEvents['stock.changed'][] = [];
    const reviews: string[] = [];
    const off = bus.on('stock.changed', (p) => {
      stock.push(p);
    });
    bus.on('review.created', (p) => {
      reviews.push(p.productId);
    });
    bus.emit('stock.changed', { tenantId: 'evt', productIds: ['P1', 'P2'] });
    // Synchronous: the writer's next read already sees fresh caches.
    expect(stock).toEqual([{ tenantId: 'evt', productIds: ['P1', 'P2'] }]);
    expect(reviews).toEqual([]);
    off();
    bus.emit('stock.changed', { tenantId: 'evt', productIds: ['P3'] });
    bus.emit('review.created', { tenantId: 'evt', productId: 'P3' });
    expect(stock).toHaveLength(1);
    expect(reviews).toEqual(['P3']);
    await bus.close();
  });

  it('a subscriber that throws or rejects is logged; the writer and the other subscribers carry on', async () => {
    const { log, errors } = recordingLog();
    const bus = createEventBus({ log });
    const seen: string[] = [];
    bus.on('catalog.changed', () => {
      throw new Error('index broke');
    });
    let rejected!: () => void;
    const asyncFailed = new Promise<void>((resolve) => {
      rejected = resolve;
    });
    bus.on('catalog.changed', async () => {
      await Promise.resolve();
      setImmediate(rejected);
      throw new Error('cache broke later');
    });
    bus.on('catalog.changed', (p) => {
      seen.push(p.tenantId);
    });
    expect(() => bus.emit('catalog.changed', { tenantId: 'evt' })).not.toThrow();
    expect(seen).toEqual(['evt']);
    await asyncFailed;
    expect(errors.map((e) => [e.msg, String((e.obj as { err: Error }).err.message)])).toEqual([
      ['event handler failed', 'index broke'],
      ['event handler failed', 'cache broke later'],
    ]);
    await bus.close();
  });
});

describe('events of a transaction', () => {
  it('reach subscribers after the commit, and never when the transaction rolls back', async () => {
    const bus = createEventBus({ database, log: recordingLog().log });
    const heard: Array<{ what: string; nameThen: string | undefined }> = [];
    // The subscriber reads the database as another request would: it must see the write.
    bus.on('settings.changed', async (p) => {
      heard.push({ what: p.what, nameThen: await tenantName() });
    });

    await bus.transaction(async (tx) => {
      await tx.update(schema.tenants).set({ name: 'Renamed Store' }).where(eq(schema.tenants.tenantId, 'evt'));
      bus.emitAfterCommit(tx, 'settings.changed', { tenantId: 'evt', what: 'name' });
      expect(heard).toEqual([]); // not before the commit
    });
    await expect.poll(() => heard).toEqual([{ what: 'name', nameThen: 'Renamed Store' }]);

    await expect(
      bus.transaction(async (tx) => {
        await tx.update(schema.tenants).set({ name: 'Never Store' }).where(eq(schema.tenants.tenantId, 'evt'));
        bus.emitAfterCommit(tx, 'settings.changed', { tenantId: 'evt', what: 'rolled-back' });
        throw new Error('payment refused');
      }),
    ).rejects.toThrow('payment refused');
    // A later event is heard; the rolled-back one never was.
    bus.emit('settings.changed', { tenantId: 'evt', what: 'later' });
    await expect.poll(() => heard.map((h) => h.what)).toEqual(['name', 'later']);
    expect(await tenantName()).toBe('Renamed Store');
    await bus.close();
  });

  it('refuses emitAfterCommit on a transaction it did not open (its commit would go unseen)', async () => {
    const bus = createEventBus({ database, log: recordingLog().log });
    await expect(
      database.db.transaction(async (tx) => {
        bus.emitAfterCommit(tx, 'catalog.changed', { tenantId: 'evt' });
      }),
    ).rejects.toThrow(/needs the transaction of events.transaction/);
    await bus.close();
  });
});

describe('notification payloads', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `PRODUCT-${String(i).padStart(6, '0')}`);
  const sent = (text: string) => JSON.parse(text) as { o: string; n: string; p: unknown };

  it('a small event goes as it is, tagged with the sender', () => {
    const text = wireMessage('me-1', { name: 'stock.changed', payload: { tenantId: 'evt', productIds: ['P1'] } });
    expect(sent(text)).toEqual({ o: 'me-1', n: 'stock.changed', p: { tenantId: 'evt', productIds: ['P1'] } });
  });

  it('one too big for NOTIFY becomes the coarser event for the whole store, under the limit', () => {
    const stock = wireMessage('me-1', { name: 'stock.changed', payload: { tenantId: 'evt', productIds: ids(2000) } });
    expect(Buffer.byteLength(stock)).toBeLessThanOrEqual(NOTIFY_MAX_BYTES);
    expect(sent(stock)).toEqual({ o: 'me-1', n: 'catalog.changed', p: { tenantId: 'evt' } });

    const catalog = wireMessage('me-1', {
      name: 'catalog.changed',
      payload: { tenantId: 'evt', productIds: ids(10), categoryIds: ids(1000) },
    });
    expect(sent(catalog)).toEqual({ o: 'me-1', n: 'catalog.changed', p: { tenantId: 'evt' } });

    const settings = wireMessage('me-1', {
      name: 'settings.changed',
      payload: { tenantId: 'evt', what: 'x'.repeat(8000) },
    });
    expect(sent(settings)).toEqual({ o: 'me-1', n: 'settings.changed', p: { tenantId: 'evt', what: '*' } });
  });

  it('an event with no coarser form becomes events.missed: receivers read everything afresh', () => {
    const text = wireMessage(
      'me-1',
      { name: 'order.transitioned', payload: { tenantId: 'evt', orderId: 'O1', from: 'paid', to: 'shipped' } },
      60,
    );
    expect(sent(text)).toEqual({
      o: 'me-1',
      n: 'events.missed',
      p: { reason: 'order.transitioned too large to send' },
    });
  });
});
