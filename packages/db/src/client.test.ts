import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from './testing';

// On each database the suite runs on. PGlite's own files, lock and settings: client.pglite.test.ts.

describe('migrations', () => {
  it('apply twice without error and create pg_trgm', async () => {
    const database = await openTestDatabase();
    try {
      await database.migrate();
      const ext = await database.db.execute(sql`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`);
      expect((ext as unknown as { rows: unknown[] }).rows).toHaveLength(1);
      // Every tenant-owned table puts tenant_id first in its primary key.
      const keys = await database.db.execute(sql`
        SELECT c.relname AS table, a.attname AS first
        FROM pg_constraint k
        JOIN pg_class c ON c.oid = k.conrelid
        JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
        WHERE k.contype = 'p' AND c.relnamespace = 'public'::regnamespace`);
      const rows = (keys as unknown as { rows: Array<{ table: string; first: string }> }).rows;
      // Platform tables, owned by no tenant: the tenants, host names, the schedules of recurring jobs,
      // PayPal's webhook events (one URL for all stores, keyed by PayPal's event id; decision 053),
      // the operators with their sessions, sign-in challenges, tokens and audit log (decision 101),
      // and sign-ups, which have no store until confirmed (decision 103). Support grants and their
      // sessions belong to a store (tenant_id, deleted with it) but are keyed by their own ids: a
      // ticket is looked up by its hash on arrival, and sessions reference their grant.
      const exempt = new Set([
        'tenants',
        'store_hosts',
        'job_schedules',
        'paypal_webhook_events',
        'operators',
        'operator_sessions',
        'operator_challenges',
        'operator_tokens',
        'platform_audit_log',
        'signup_requests',
        'support_grants',
        'support_sessions',
      ]);
      for (const r of rows.filter((x) => !exempt.has(x.table)))
        expect([r.table, r.first]).toEqual([r.table, 'tenant_id']);
    } finally {
      await database.close();
    }
  });
});
