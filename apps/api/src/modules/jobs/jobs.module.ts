import { defineModule } from '../../lib/module';
import { createJobRunner, type JobRunner, type JobRunnerOptions } from './jobs.service';

declare module '../../lib/module' {
  interface ModuleServices {
    jobs: { jobs: JobRunner };
  }
  interface BuildOptions {
    /** The job worker's timing (tests poll and retry faster); `startupSweepDelayMs` null: no sweep at start. */
    jobs?: Partial<Pick<JobRunnerOptions, 'pollMs' | 'leaseMs' | 'retryBaseMs' | 'concurrency'>> & {
      startupSweepDelayMs?: number | null;
    };
  }
}

// Long work and mail run as database-backed jobs (decision 017); the worker starts when the app is ready.
export const jobsModule = defineModule({
  name: 'jobs',
  needs: [],
  create({ stores, log, linkOrigin, config, options }) {
    const { startupSweepDelayMs: _, ...timing } = options.jobs ?? {};
    return {
      // Jobs enqueued without a transaction and the schedules are kept on the home database; a job
      // enqueued in a store's transaction is on the store's database, so every database is claimed
      // from. Each handler runs in its store's context, so its queries go where the store lives
      // (decision 123).
      jobs: createJobRunner(stores.home.db, {
        inStore: (tenantId, work) => stores.within(tenantId, work),
        databases: () => stores.names().flatMap((name) => stores.get(name)?.db ?? []),
        log,
        linkOrigin: (host) => linkOrigin(host),
        retentionDays: config.JOB_RETENTION_DAYS ?? 7,
        ...timing,
      }),
    };
  },
  onReady: ({ jobs }) => jobs.start(),
  onClose: ({ jobs }) => jobs.stop(),
});
