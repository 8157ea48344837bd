import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { SlowestFirst } from './apps/api/src/test/sequencer';

// Every test file runs on the embedded PGlite (the `pglite` project). When TEST_DATABASE_URL is set
// (CI, `.ci/run`), the files whose answers can differ on a real PostgreSQL run there too (the
// `postgres` project): decision 083. PGlite is PostgreSQL itself, compiled to WebAssembly, one
// connection in the test's own process; what it cannot show is what a server does differently:
// another major version and its SQL, node-postgres's reading of raw results, a pool of connections
// whose transactions and row locks meet, several app processes on one database, LISTEN/NOTIFY, the
// database going away. A page render, a refusal before the data layer, a pure function or a
// header proves nothing more there, and the sweep below still runs each page and operation on it.
//
// `*.postgres.test.ts` run on PostgreSQL only; `*.pglite.test.ts` and `*.process.test.ts` (the
// server process on its embedded PGlite) on PGlite only. scripts/postgres-project.test.ts fails when
// a file that writes raw SQL, opens a transaction or a second connection, takes a lock, or sends
// requests at once is on neither list below: a new file of that kind cannot skip PostgreSQL unseen.

/** Files (or folders, ending in `/`: every test file under them) that run on PostgreSQL too, by why. */
export const ON_POSTGRES: Record<string, string[]> = {
  'the database layer: migrations, the seed, SQL helpers': [
    'packages/db/src/client.test.ts',
    'packages/db/src/insert-where.test.ts',
    'packages/db/seed/seed.test.ts',
    'packages/db/src/variants-migration.test.ts',
    'packages/db/src/shipping-migration.test.ts',
  ],
  'SQL of its own: raw statements, triggers, aggregates, exports': [
    'apps/api/src/modules/store-archive/store-archive.test.ts',
    'apps/api/src/modules/operator/operator-archive.test.ts',
    'apps/api/src/modules/audit/audit.test.ts',
    'apps/api/src/modules/dashboard/',
    'apps/api/src/modules/customers/',
    'apps/api/src/modules/marketplace/marketplace.test.ts',
    'apps/api/src/modules/payments/cards/cards.test.ts',
    'apps/api/src/modules/staff/staff.test.ts',
    'apps/api/src/modules/tenant/store-visibility.test.ts',
    'apps/api/src/modules/store-access/store-access.test.ts',
    'apps/api/src/modules/sitemap/sitemap.test.ts',
    'apps/api/src/modules/products/import/product-import.test.ts',
    'apps/api/src/modules/products/import/product-import-round-trip.test.ts',
    'apps/api/src/modules/products/import/product-import-variants.test.ts',
    'apps/api/src/modules/contact/contact-inbox.test.ts',
    'apps/api/src/modules/newsletter/newsletter.test.ts',
    'apps/api/src/modules/reviews/review-admin.test.ts',
  ],
  'search and lists: the SQL oracle, keyset pages, filters, sorts, facets, recursive links': [
    'apps/api/src/modules/products/search-index/',
    'apps/api/src/modules/products/query-words.test.ts',
    'apps/api/src/modules/products/autocomplete-typos.test.ts',
    'apps/api/src/modules/products/products.test.ts',
    'apps/api/src/modules/products/product-details.test.ts',
    'apps/api/src/modules/products/product-status.test.ts',
    'apps/api/src/modules/products/product-variants.test.ts',
    'apps/api/src/modules/products/list/product-list.test.ts',
    'apps/api/src/modules/orders/list/order-list.test.ts',
    'apps/api/src/modules/catalog/admin/catalog-admin-catalogs.test.ts',
    'apps/api/src/modules/catalog/admin/catalog-admin-rollup.test.ts',
    'apps/api/src/modules/catalog/admin/catalog-admin-categories.test.ts',
    'apps/api/src/modules/promotions/promotions.test.ts',
    'apps/api/src/modules/operator/operator-api.test.ts',
    'apps/api/src/modules/operator/operator-api-access.test.ts',
  ],
  'transactions, row locks, jobs and requests at once': [
    'apps/api/src/modules/domains/domains.test.ts',
    'apps/api/src/lib/events/event-bus.test.ts',
    'apps/api/src/modules/cart/cart-concurrency.test.ts',
    'apps/api/src/modules/orders/checkout/checkout.test.ts',
    'apps/api/src/modules/orders/checkout/checkout-tables.test.ts',
    'apps/api/src/modules/orders/checkout/paypal-checkout.test.ts',
    'apps/api/src/modules/payments/stripe/webhook/stripe-checkout.test.ts',
    'apps/api/src/modules/orders/checkout/replay-drill.test.ts',
    'apps/api/src/modules/orders/checkout/stuck-orders.test.ts',
    'apps/api/src/modules/products/inventory/inventory.test.ts',
    'apps/api/src/modules/products/inventory/stock.test.ts',
    'apps/api/src/modules/products/inventory/stock-variants.test.ts',
    'apps/api/src/modules/products/inventory/inventory-variants.test.ts',
    'apps/api/src/modules/products/database-rules.test.ts',
    'apps/api/src/modules/jobs/jobs.test.ts',
    'apps/api/src/modules/orders/order-refund.test.ts',
    'apps/api/src/modules/orders/order-transition.test.ts',
    'apps/api/src/modules/orders/admin/order-admin.test.ts',
    'apps/api/src/modules/cancel-request/cancel-request.test.ts',
    'apps/api/src/modules/signup/signup.test.ts',
    'apps/api/src/modules/store-lifecycle/store-lifecycle.test.ts',
    'apps/api/src/modules/payments/seller/seller-state.test.ts',
    'apps/api/src/modules/payments/webhooks/',
    'apps/api/src/modules/drafts/drafts.test.ts',
    'apps/api/src/modules/orders/returns/returns.test.ts',
    'apps/api/src/modules/reviews/reviews.test.ts',
    'apps/api/src/modules/orders/returns/return-variants.test.ts',
    'apps/api/src/modules/reviews/review-variants.test.ts',
    'apps/api/src/modules/orders/return-admin/return-admin.test.ts',
    'apps/api/src/modules/products/admin/product-writer.test.ts',
    'apps/api/src/modules/products/admin/variant-writer.test.ts',
    'apps/api/src/modules/shipping/shipping.test.ts',
    'apps/api/src/modules/shipping/shipping-tables.test.ts',
  ],
  'every page and API operation once, as every caller: each route reaches its SQL on PostgreSQL': [
    'apps/api/src/sweep/sweep.test.ts',
  ],
};

/**
 * Files that do one of the things the check looks for, yet whose answers cannot differ on
 * PostgreSQL: they stay on PGlite, and say why.
 */
export const PGLITE_ENOUGH: Record<string, string> = {
  'apps/api/src/modules/auth/accounts.test.ts':
    'one transaction at a time on one connection: the row lock it takes is never contended',
  'packages/db/src/drizzle-patch.test.ts': "sql`…` is a value for drizzle's is(); no statement reaches a database",
  'apps/api/src/modules/media/media.test.ts': 'requests at once meet in the file store and the image resizer',
  'apps/api/src/modules/media/media.upload.test.ts': 'uploads at once queue in memory (the per-store limit)',
  'apps/api/src/modules/store/store.test.ts': 'three stores read at once: nothing is written',
  'apps/api/src/modules/storefront/page-streams.test.ts': 'clients that drop streamed pages: the HTTP layer',
  'apps/api/src/plugins/costly-routes.test.ts': 'requests at once queue in memory (per-store limits)',
  'apps/api/src/modules/operator/operator-move.test.ts':
    'one count of the stores, read to compare with the answer; the move itself is in operator-move.postgres.test.ts',
};

/** `dir/` stands for every test file under it. */
const globs = (entries: string[]) => entries.map((e) => (e.endsWith('/') ? `${e}**/*.test.ts` : e));

const include = ['packages/**/*.test.ts', 'apps/api/**/*.test.ts', 'apps/web/app/**/*.test.ts', 'scripts/**/*.test.ts'];
const common = {
  setupFiles: ['apps/api/src/test/setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  // A worker keeps its modules from one file to the next: importing the app's graph again for each
  // file was a fifth of the suite's time. Every file closes what it opens (apps, databases, servers),
  // and no test mocks a module or changes process.env, so nothing of one file reaches the next.
  isolate: false,
};

export default defineConfig({
  test: {
    // Migrates and seeds once the databases each test file copies (packages/db/src/testing.ts), and
    // compiles the server the process drills start (apps/api/src/test/processes.ts).
    globalSetup: ['packages/db/src/testing-templates.ts', 'apps/api/src/test/compiled-server-setup.ts'],
    // Vitest's default on two cores is one worker (cores - 1), which leaves the second idle while a
    // test waits on PostgreSQL, a child process or a timer. Two at least; more cores, one less.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The slowest files first, so that no worker idles at the end (apps/api/src/test/sequencer.ts).
    sequence: { sequencer: SlowestFirst },
    projects: [
      {
        test: {
          ...common,
          include,
          name: 'pglite',
          env: { TEST_DB: 'pglite' },
          exclude: [...configDefaults.exclude, '**/*.postgres.test.ts'],
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                ...common,
                include: ['**/*.postgres.test.ts', ...globs(Object.values(ON_POSTGRES).flat())],
                name: 'postgres',
                env: { TEST_DB: 'postgres' },
                exclude: [...configDefaults.exclude],
              },
            },
          ]
        : []),
    ],
  },
});
