import { isMainThread, parentPort, type ResourceLimits, type Transferable, Worker } from 'node:worker_threads';
import { AppError } from './errors';

export interface WorkerPoolOptions {
  /** The worker's module. A `.ts` file is run through tsx, as the server itself is (decision 002). */
  entry: URL;
  /** Workers at most; they start on the first jobs and stay. */
  size: number;
  /** Jobs waiting for a worker at most; past that `run` refuses with 503 and Retry-After. */
  maxQueue: number;
  /** A job running longer than this ends its worker (a fresh one takes its place) and fails. */
  timeoutMs?: number;
  /** Heap limits of each worker, so a pathological job cannot take the process's memory. */
  resourceLimits?: ResourceLimits;
}

type Reply = { id: number; ok: true; output: unknown } | { id: number; ok: false; message: string };

interface Job {
  id: number;
  input: unknown;
  resolve(output: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/** Registers tsx in the worker, then imports the TypeScript entry named in workerData. */
const TS_ENTRY = new URL('./ts-worker-entry.mjs', import.meta.url);

/**
 * In the compiled server (decision 061) this module is part of `dist/server.mjs`, and each worker's
 * entry is compiled beside it under the same name: `./x.worker.ts` asked from there is `x.worker.mjs`.
 */
const COMPILED = !import.meta.url.endsWith('.ts');

/**
 * A fixed set of worker threads for CPU-heavy jobs, so they run beside the event loop instead of on
 * it. Jobs wait in one bounded first-come queue; a worker that crashes or overruns is replaced.
 */
export class WorkerPool<In, Out> {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: WorkerPoolOptions) {
    if (!Number.isInteger(opts.size) || opts.size < 1)
      throw new RangeError('size must be a whole number of at least 1');
  }

  /** Runs one job in a worker; its input and output cross as structured clones. */
  run(input: In): Promise<Out> {
    if (this.closed) return Promise.reject(new Error('worker pool is closed'));
    return new Promise<Out>((resolve, reject) => {
      const job: Job = { id: this.nextId++, input, resolve: resolve as (o: unknown) => void, reject };
      const idle = this.slots.find((s) => !s.job);
      if (idle) return this.dispatch(idle, job);
      if (this.slots.length < this.opts.size) return this.dispatch(this.spawn(), job);
      if (this.queue.length >= this.opts.maxQueue) {
        return reject(
          new AppError(503, 'UNAVAILABLE', 'The server is busy right now. Please try again in a moment.', undefined, {
            'retry-after': '2',
          }),
        );
      }
      this.queue.push(job);
    });
  }

  /** Starts every worker now, so the first jobs do not wait for a start (about a second under tsx). */
  async warm(): Promise<void> {
    while (this.slots.length < this.opts.size) this.spawn();
    await Promise.all(this.slots.map((s) => new Promise<void>((r) => s.worker.once('online', () => r()))));
  }

  /** Workers started and jobs waiting (tests, metrics). */
  stats(): { workers: number; busy: number; queued: number } {
    return { workers: this.slots.length, busy: this.slots.filter((s) => s.job).length, queued: this.queue.length };
  }

  async close(): Promise<void> {
    this.closed = true;
    const closedError = () => new Error('worker pool is closed');
    for (const job of this.queue.splice(0)) job.reject(closedError());
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      const job = slot.job;
      this.finish(slot);
      job?.reject(closedError());
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private spawn(): Slot {
    const entry = COMPILED ? new URL(this.opts.entry.href.replace(/\.ts$/, '.mjs')) : this.opts.entry;
    const typescript = entry.pathname.endsWith('.ts');
    const worker = new Worker(typescript ? TS_ENTRY : entry, {
      workerData: typescript ? { entry: entry.href } : undefined,
      // Not the parent's flags: `--import tsx` there does nothing useful in a worker on Node 20.
      execArgv: [],
      resourceLimits: this.opts.resourceLimits,
    });
    // The pool's owner closes it; a forgotten pool must not keep the process alive.
    worker.unref();
    const slot: Slot = { worker, job: null, timer: null };
    worker.on('message', (reply: Reply) => {
      const job = slot.job;
      if (!job || reply.id !== job.id) return;
      this.finish(slot);
      if (reply.ok) job.resolve(reply.output);
      else job.reject(new Error(reply.message));
      this.next(slot);
    });
    worker.on('error', (err) => this.lose(slot, err));
    worker.on('exit', (code) => this.lose(slot, new Error(`worker exited with code ${code}`)));
    this.slots.push(slot);
    return slot;
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    if (this.opts.timeoutMs) {
      slot.timer = setTimeout(() => {
        this.lose(slot, new Error(`job took longer than ${this.opts.timeoutMs} ms`));
        void slot.worker.terminate();
      }, this.opts.timeoutMs);
    }
    slot.worker.postMessage({ id: job.id, input: job.input });
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
  }

  private next(slot: Slot): void {
    const job = this.queue.shift();
    if (job) this.dispatch(slot, job);
  }

  /** A worker that failed or ended: its job fails, and a queued job gets a fresh worker. */
  private lose(slot: Slot, err: Error): void {
    const i = this.slots.indexOf(slot);
    if (i === -1) return;
    this.slots.splice(i, 1);
    const job = slot.job;
    this.finish(slot);
    slot.worker.removeAllListeners('message');
    job?.reject(err);
    if (this.closed) return;
    const waiting = this.queue.shift();
    if (waiting) this.dispatch(this.spawn(), waiting);
  }
}

/**
 * The worker side: answers each job with `handle`'s result. `transfer` names buffers to move rather
 * than copy (a rendered file).
 */
export function serveJobs<In, Out>(handle: (input: In) => Promise<{ output: Out; transfer?: Transferable[] }>): void {
  if (isMainThread || !parentPort) throw new Error('serveJobs runs in a worker thread');
  const port = parentPort;
  port.on('message', async ({ id, input }: { id: number; input: In }) => {
    try {
      const { output, transfer } = await handle(input);
      port.postMessage({ id, ok: true, output } satisfies Reply, transfer ?? []);
    } catch (err) {
      port.postMessage({ id, ok: false, message: err instanceof Error ? err.message : String(err) } satisfies Reply);
    }
  });
}
