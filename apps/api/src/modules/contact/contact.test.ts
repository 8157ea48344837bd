import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { createMailer } from '../mail/index';
import { CONTACT_LIMIT } from './contact.service';

/** A real SMTP server on loopback: what the app sends is what a mail server receives. */
const received: { to: string[]; raw: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (c: Buffer) => {
      raw += c.toString();
    });
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
      callback();
    });
  },
});

let t: TestApp;
beforeAll(async () => {
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  const { port } = smtp.server.address() as { port: number };
  t = await createTestApp({
    mailer: createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Shop <no-reply@shop.test>', outboxDir: '' }),
  });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});
beforeEach(async () => {
  // Mail of the previous test is delivered first, so it cannot land in this test's list.
  await t.services.jobs.drain();
  received.length = 0;
  await t.database.db.delete(schema.contactMessages);
});

const send = (payload: object, host = 'lighting.localhost', ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/v1/store/contact', headers: { host }, payload, remoteAddress: ip });
const good = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Do you ship the Arden pendant to Canada?' };

describe('POST /api/v1/store/contact', () => {
  it("keeps the message for the store and mails it to the store's address, replying to the shopper", async () => {
    const res = await send(good);
    expect(res.statusCode).toBe(200);
    const rows = await t.database.db.select().from(schema.contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tenantId: 'lighting', productStoreId: '9000', email: 'ada@example.com' });
    await t.services.jobs.drain();
    expect(received).toHaveLength(1);
    expect(received[0]?.to).toEqual(['hello@brightside-lighting.test']);
    expect(received[0]?.raw).toContain('Reply-To: Ada Lovelace <ada@example.com>');
    expect(received[0]?.raw).toContain('Subject: New message from Ada Lovelace via Brightside Lighting');
    expect(received[0]?.raw).toContain('Do you ship the Arden pendant to Canada?');
  });

  it('names the bad field and keeps nothing', async () => {
    const bad = await send({ ...good, email: 'not-an-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('body.email: Please enter a valid email address.');
    const short = await send({ ...good, message: 'hi' });
    expect(short.json().message).toContain('body.message');
    const extra = await send({ ...good, admin: true });
    expect(extra.json().message).toContain('admin');
    expect(await t.database.db.select().from(schema.contactMessages)).toHaveLength(0);
    await t.services.jobs.drain();
    expect(received).toHaveLength(0);
  });

  it('limits a sender to a few messages per ten minutes, per store', async () => {
    for (let i = 0; i < CONTACT_LIMIT; i++) expect((await send(good)).statusCode).toBe(200);
    const limited = await send(good);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another sender, and the same sender on another store, are not affected.
    expect((await send(good, 'lighting.localhost', '10.0.0.2')).statusCode).toBe(200);
    expect((await send(good, 'garden.localhost')).statusCode).toBe(200);
    const garden = await t.database.db
      .select()
      .from(schema.contactMessages)
      .where(eq(schema.contactMessages.tenantId, 'garden'));
    expect(garden).toHaveLength(1);
    expect(garden[0]?.productStoreId).toBe('9001');
  });
});

describe('mailer without SMTP', () => {
  it('writes each message as an .eml file to the outbox', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sf-outbox-'));
    try {
      const mailer = createMailer({ from: 'Shop <no-reply@shop.test>', outboxDir: dir });
      await mailer.send({ to: 'owner@shop.test', subject: 'Hello', text: 'A message body' });
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      const eml = readFileSync(join(dir, files[0] as string), 'utf8');
      expect(eml).toContain('To: owner@shop.test');
      expect(eml).toContain('A message body');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
