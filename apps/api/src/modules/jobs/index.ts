export { jobsModule } from './jobs.module';
export {
  createJobRunner,
  type EnqueueInput,
  type Job,
  type JobHandler,
  type JobProgress,
  type JobRunner,
  type JobRunnerOptions,
  type JobStatus,
  type JobTools,
  type JobView,
  LeaseLostError,
  nextDailyRun,
  type Tx,
} from './jobs.service';
