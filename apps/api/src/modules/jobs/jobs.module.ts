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
  create({ db, log, linkOrigin, config, options }) {
    const { startupSweepDelayMs: _, ...timing } = options.jobs ?? {};
    return {
      jobs: createJobRunner(db, {
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
