import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

let dev: TestApp;
let prod: TestApp;
const prodDir = mkdtempSync(join(tmpdir(), 'sf-prod-'));
beforeAll(async () => {
  dev = await createTestApp();
  prod = await createTestApp({
    config: {
      DATA_DIR: prodDir,
      LOG_LEVEL: 'silent',
      TRUST_PROXY: false,
      NODE_ENV: 'production',
      DEV_TENANT_ID: undefined,
    },
  });
});
afterAll(async () => {
  await dev.close();
  await prod.close();
  rmSync(prodDir, { recursive: true, force: true });
});

describe('/dev/mailbox', () => {
  it('lists the mail written to the outbox and shows a message with its links', async () => {
    const empty = await dev.app.inject({ url: '/dev/mailbox', headers: { host: 'localhost' } });
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('No mail yet');
    await dev.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/profile/newUser',
      headers: { host: 'lighting.localhost' },
      payload: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', password: 'engines-1843' },
    });
    await dev.services.jobs.drain();
    const list = await dev.app.inject({ url: '/dev/mailbox', headers: { host: 'lighting.localhost' } });
    expect(list.body).toContain('Welcome to Brightside Lighting');
    expect(list.body).toContain('ada@example.com');
    const href = /href="(\/dev\/mailbox\/[^"]+)"/.exec(list.body)?.[1] ?? '';
    const one = await dev.app.inject({ url: href, headers: { host: 'lighting.localhost' } });
    expect(one.statusCode).toBe(200);
    expect(one.body).toContain('Hello Ada,');
  });

  it('reads only its own files', async () => {
    const bad = await dev.app.inject({ url: '/dev/mailbox/..%2F..%2Fsecret.eml', headers: { host: 'localhost' } });
    expect(bad.statusCode).toBe(400);
    const missing = await dev.app.inject({ url: '/dev/mailbox/nope.eml', headers: { host: 'localhost' } });
    expect(missing.statusCode).toBe(404);
  });

  it('does not exist in production', async () => {
    const res = await prod.app.inject({ url: '/dev/mailbox', headers: { host: 'lighting.localhost' } });
    expect(res.statusCode).toBe(404);
  });
});
