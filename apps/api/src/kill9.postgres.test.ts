import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@app/db';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { kill9Drill } from './test/kill9-drill';
import { type Cluster, startCluster } from './test/pg-cluster';

// Drill: SIGKILL the server on PostgreSQL (a throwaway cluster of this test's own) while
// guest checkouts run; restart it; check the books and retry every request with its key.

let cluster: Cluster;
const dataDir = mkdtempSync(join(tmpdir(), 'sf-kill9-pg-'));
beforeAll(async () => {
  cluster = await startCluster();
}, 60_000);
afterAll(() => {
  cluster?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 during checkouts (PostgreSQL)', () => {
  it('loses no acknowledged order, pays none without a reference, balances stock, restarts', async () => {
    await kill9Drill({
      label: 'PostgreSQL',
      env: { DATABASE_URL: cluster.url, DATA_DIR: dataDir },
      openDb: () => openDatabase({ databaseUrl: cluster.url, poolSize: 2 }),
    });
  }, 90_000);
});
