import { sql } from 'drizzle-orm';
import { bigserial, check, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy';

/**
 * Which database holds a store (decision 123), in the home database only. A store without a row is
 * on the home database (`main`); the move's switch writes the row, and every app process routes the
 * store's queries to the database it names.
 */
export const storePlacements = pgTable(
  'store_placements',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    /** A name of `STORE_DATABASES`, or `main`. */
    database: text('database').notNull(),
    movedAt: timestamp('moved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId] })],
);

/**
 * A store being moved, in the database it leaves: the capture trigger records the store's changed
 * rows while `phase` is `copying`, and refuses the store's writes once it is `switching` (the last
 * catch-up has begun: a write now would be left behind).
 */
export const storeMovesUnderWay = pgTable(
  'store_moves_under_way',
  {
    tenantId: text('tenant_id').notNull(),
    phase: text('phase', { enum: ['copying', 'switching'] }).notNull(),
    target: text('target').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId] }),
    check('store_moves_phase_ck', sql`${t.phase} IN ('copying', 'switching')`),
  ],
);

/** The keys of a moving store's rows changed since its copy began (the capture trigger writes them). */
export const storeMoveChanges = pgTable(
  'store_move_changes',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    tenantId: text('tenant_id').notNull(),
    tableName: text('table_name').notNull(),
    /** The row's primary key as `{ column: value }`. */
    key: jsonb('key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('store_move_changes_id_idx').on(t.id)],
);
