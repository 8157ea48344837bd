import { rmSync } from 'node:fs';
import { openDatabase } from '@app/db';
import { seededDataDir } from '@app/db/testing';
import { afterAll, describe, it } from 'vitest';
import { kill9Drill } from './test/kill9-drill';

// Drill: SIGKILL the server on its embedded PGlite while guest checkouts run, restart it
// on the same data directory, check the books and retry every request with its key.

const dataDir = seededDataDir('sf-kill9-');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('kill -9 during checkouts (PGlite)', () => {
  it('loses no acknowledged order, pays none without a reference, balances stock, reopens the data directory', async () => {
    await kill9Drill({
      label: 'PGlite',
      env: { DATA_DIR: dataDir, DATABASE_URL: '' },
      openDb: () => openDatabase({ dataDir }),
    });
  }, 90_000);
});
