// The first module of a worker thread whose code is TypeScript (decision 002: tsx at run time).
// Node 20 does not apply `--import tsx` given in a Worker's execArgv before the worker's entry is
// loaded, so the worker registers tsx itself and then imports the real entry (workerData.entry).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
