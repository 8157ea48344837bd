import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { MAIL_JOB } from './index';
import type { MailMessage } from './mailer';

/** A mail server the test controls: it can hold a message, or refuse the next ones. */
const server = {
  delivered: [] as MailMessage[],
  refuseNext: 0,
  hold: null as Promise<void> | null,
  reached: null as (() => void) | null,
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    // Ten attempts with doubling backoff from 1 ms: the whole schedule in about half a second.
    jobs: { retryBaseMs: 1 },
    mailer: {
      async send(m) {
        server.reached?.();
        if (server.hold) await server.hold;
        if (server.refuseNext > 0) {
          server.refuseNext--;
          throw new Error('421 4.3.2 Service not available, closing transmission channel');
        }
        server.delivered.push(m);
      },
      close() {},
    },
  });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.services.jobs.drain();
  server.delivered.length = 0;
  server.refuseNext = 0;
  server.hold = null;
  server.reached = null;
  await t.database.db.delete(schema.jobs);
});

const contact = () =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/store/contact',
    headers: { host: 'lighting.localhost' },
    payload: { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Do you ship the Arden pendant to Canada?' },
    remoteAddress: '10.40.0.1',
  });
const mailJobs = () => t.database.db.select().from(schema.jobs).where(eq(schema.jobs.type, MAIL_JOB));

describe('mail as a job', () => {
  it("the shopper's request does not wait for the mail server", async () => {
    let release: () => void = () => {};
    server.hold = new Promise((r) => {
      release = r;
    });
    const reached = new Promise<void>((r) => {
      server.reached = r;
    });
    const res = await contact();
    expect(res.statusCode).toBe(200);
    // The worker is handing the message to a mail server that does not answer; the shopper has their answer.
    await reached;
    expect(server.delivered).toHaveLength(0);
    release();
    await t.services.jobs.drain();
    expect(server.delivered.map((m) => m.to)).toEqual(['hello@brightside-lighting.test']);
    expect(server.delivered[0]?.messageId).toMatch(/^<[0-9a-f-]{36}@lighting\.localhost>$/);
  });

  it('a mail server that refuses is tried again, and the sent mail keeps no body in the table', async () => {
    server.refuseNext = 2;
    expect((await contact()).statusCode).toBe(200);
    await t.services.jobs.drain();
    expect(server.delivered).toHaveLength(1);
    const [job] = await mailJobs();
    expect(job).toMatchObject({ status: 'succeeded', attempts: 3, tenantId: 'lighting' });
    // The message body (here the shopper's words; elsewhere reset links) is not kept once sent.
    expect(job?.payload).toEqual({
      to: 'hello@brightside-lighting.test',
      subject: 'New message from Ada Lovelace via Brightside Lighting',
    });
  });

  it('a mail server that never takes it leaves a failed job with the reason, for the operator', async () => {
    server.refuseNext = 100;
    await contact();
    await t.services.jobs.drain({ timeoutMs: 60_000 });
    const [job] = await mailJobs();
    expect(job).toMatchObject({ status: 'failed', attempts: 10 });
    expect(job?.lastError).toContain('421 4.3.2');
    expect(server.delivered).toHaveLength(0);
  });
});
