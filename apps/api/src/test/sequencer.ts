import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each of the suite's slowest files took in CI (`.ci/run`, two cores), by project. Only
 * their order matters: a file missing here, or a figure grown stale, costs a few seconds of a
 * worker waiting at the end, never a test. sequencer.test.ts checks that every file named exists.
 */
export const SLOW_FILES: Record<string, Record<string, number>> = {
  pglite: {
    'apps/api/src/sweep/sweep.test.ts': 50,
    'apps/api/src/start-script.process.test.ts': 31,
    'apps/api/src/server.process.test.ts': 21,
    'packages/db/seed/seed-pictures.test.ts': 12,
    'apps/api/src/kill9.process.test.ts': 12,
    'packages/db/src/pglite-prepared.pglite.test.ts': 9,
    'packages/db/src/client.pglite.test.ts': 9,
    'apps/api/src/modules/storefront/page-streams.test.ts': 9,
    'apps/api/src/modules/products/search-index/oracle.test.ts': 8,
    'apps/api/src/modules/operator/operator-auth.test.ts': 8,
    'apps/api/src/modules/operator/operator-api.test.ts': 8,
    'apps/api/src/modules/orders/checkout/stuck-orders.test.ts': 8,
    'apps/api/src/visitor-pages.process.test.ts': 7,
    'apps/api/src/modules/tenant/dev-alias.test.ts': 7,
    'apps/api/src/server-shutdown.process.test.ts': 6,
    'apps/api/src/plugins/costly-routes.test.ts': 6,
  },
  postgres: {
    'apps/api/src/sweep/sweep.test.ts': 39,
    'apps/api/src/modules/products/search-index/oracle.test.ts': 25,
    'apps/api/src/modules/store-move/store-move.postgres.test.ts': 17,
    'apps/api/src/kill9.postgres.test.ts': 13,
    'apps/api/src/db-outage.postgres.test.ts': 13,
    'apps/api/src/modules/store-move/moved-store.postgres.test.ts': 7,
    'apps/api/src/modules/orders/checkout/stuck-orders.test.ts': 7,
    'apps/api/src/server-events.postgres.test.ts': 6,
    'apps/api/src/modules/products/search-index/patches.test.ts': 6,
  },
};

/** The order projects run in: each project's workers are started afresh, so one project after the other. */
const PROJECTS = ['postgres', 'pglite'];

/**
 * Longest files first (decision 108), so that no worker is left alone with a long file at the end
 * while the other has nothing to do. A file's duration is the last run's when Vitest remembers it
 * (node_modules/.vite), else SLOW_FILES' figure (a fresh clone, as in CI), else its size in bytes
 * stands in: a file with more tests tends to take longer, and all of those come after the listed ones.
 *
 * Projects are not mixed: a worker runs the next file only if it belongs to its own project, so
 * interleaving them would start new workers (and import the app again) over and over.
 */
export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weight = new Map<TestSpecification, number>();
    for (const spec of files) {
      const project = spec.project.name;
      const path = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${project}:${path}`)?.duration;
      const listed = SLOW_FILES[project]?.[path];
      // Listed and remembered durations in ms; sizes well below any of them (a test file is < 100 kB).
      weight.set(spec, cached ?? (listed !== undefined ? listed * 1000 : 0) + sizeOf(spec.moduleId) / 1e6);
    }
    const projectOrder = (spec: TestSpecification) => {
      const i = PROJECTS.indexOf(spec.project.name);
      return i === -1 ? PROJECTS.length : i;
    };
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        projectOrder(a) - projectOrder(b) ||
        (weight.get(b) ?? 0) - (weight.get(a) ?? 0),
    );
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
