import { configDefaults, defineConfig } from 'vitest/config';

// The same integration suite runs on the embedded PGlite and, when TEST_DATABASE_URL is set,
// on a real PostgreSQL (DESIGN.md section 2). `*.postgres.test.ts` are about what only PostgreSQL
// has (several app processes on one database, LISTEN/NOTIFY): they run in the postgres project only;
// `*.pglite.test.ts` are about the embedded database's own client and run in the pglite project only.
const include = ['packages/**/*.test.ts', 'apps/api/**/*.test.ts', 'apps/web/app/**/*.test.ts', 'scripts/**/*.test.ts'];
const common = {
  include,
  setupFiles: ['apps/api/src/test/setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    // Migrates and seeds once the databases each test file copies (packages/db/src/testing.ts), and
    // compiles the server the process drills start (apps/api/src/test/processes.ts).
    globalSetup: ['packages/db/src/testing-templates.ts', 'apps/api/src/test/compiled-server-setup.ts'],
    projects: [
      {
        test: {
          ...common,
          name: 'pglite',
          env: { TEST_DB: 'pglite' },
          exclude: [...configDefaults.exclude, '**/*.postgres.test.ts'],
        },
      },
      // Process tests start the server on its embedded PGlite: running them twice proves nothing more.
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                ...common,
                name: 'postgres',
                env: { TEST_DB: 'postgres' },
                exclude: ['**/*.process.test.ts', '**/*.pglite.test.ts', 'apps/web/**', '**/node_modules/**'],
              },
            },
          ]
        : []),
    ],
  },
});
