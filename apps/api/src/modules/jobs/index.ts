export { jobsModule } from './jobs.module';
export {
  createJobRunner,
  type EnqueueInput,
  type Job,
  type JobHandler,
  type JobProgress,
  type JobProgressView,
  type JobRunner,
  type JobRunnerOptions,
  type JobStatus,
  type JobTools,
  type JobView,
  jobProgressView,
  LeaseLostError,
  nextDailyRun,
  type Tx,
} from './jobs.service';
