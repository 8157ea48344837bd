import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { createMailer } from '../mail/index';

/** Account mail through a real SMTP server on loopback: what the app sends is what a mail server gets. */
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

describe('account mail over SMTP', () => {
  it('the reset mail reaches the account holder with a working single-use link', async () => {
    const res = await t.app.inject({
      url: '/skulocity/api/v1/public/ecommerce/forgotpassword?email=shopper%40garden.test',
      headers: { host: 'garden.localhost' },
    });
    expect(res.statusCode).toBe(200);
    await t.services.jobs.drain();
    expect(received).toHaveLength(1);
    expect(received[0]?.to).toEqual(['shopper@garden.test']);
    const raw = (received[0]?.raw ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(raw).toContain('Subject: Reset your Fernwood Garden Supply password');
    const link = /(http:\/\/garden\.localhost\/auth\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(raw)?.[1];
    expect(link).toBeDefined();
    const token = new URL(link as string).searchParams.get('token');
    const reset = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/public/ecommerce/resetpassword',
      headers: { host: 'garden.localhost' },
      payload: { token, password: 'seedlings-and-soil' },
    });
    expect(reset.statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/skulocity/api/v1/login',
      headers: { host: 'garden.localhost' },
      payload: { email: 'shopper@garden.test', password: 'seedlings-and-soil' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('a stranger asking for a reset sends no mail at all', async () => {
    const before = received.length;
    const res = await t.app.inject({
      url: '/skulocity/api/v1/public/ecommerce/forgotpassword?email=nobody%40garden.test',
      headers: { host: 'garden.localhost' },
    });
    expect(res.statusCode).toBe(200);
    await t.services.jobs.drain();
    expect(received.length).toBe(before);
  });
});
