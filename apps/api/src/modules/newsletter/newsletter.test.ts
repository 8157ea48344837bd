import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../lib/context';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';
import type { MailMessage } from '../mail/index';
import { csvCell, NEWSLETTER_EMAIL_LIMIT, NEWSLETTER_IP_LIMIT } from './index';

const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const sent: MailMessage[] = [];
let t: TestApp;
let owner: BrowserSession;

beforeAll(async () => {
  t = await createTestApp({
    mailer: {
      async send(m) {
        sent.push(m);
      },
      close() {},
    },
  });
  await createStaff(t.database, 'lighting', 'customers.staff@lighting.test', ['customers']);
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.services.jobs.drain();
  sent.length = 0;
  await t.database.db.delete(schema.newsletterSubscribers);
  await t.database.db.delete(schema.newsletterRequests);
});

let ipSeq = 0;
/** A new client address per call unless given: most tests are not about the per-address limit. */
const subscribe = (email: string, host = LIGHTING, ip = `10.1.0.${++ipSeq % 250}`) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/newsletter/subscribe',
    headers: { host },
    payload: { email },
    remoteAddress: ip,
  });
const post = (url: string, token: string, host = LIGHTING) =>
  t.app.inject({ method: 'POST', url, headers: { host }, payload: { token } });
/** The mails delivered since the last call, after the mail jobs ran. */
async function mails() {
  await t.services.jobs.drain();
  return sent.splice(0);
}
const linkIn = (m: MailMessage | undefined, path: string) => {
  const match = m?.text.match(new RegExp(`(https?://[^\\s]+${path}\\?token=([^\\s]+))`));
  if (!match) throw new Error(`no ${path} link in ${m?.text}`);
  return { url: match[1] as string, token: match[2] as string };
};
const subscribers = (tenantId = 'lighting') =>
  t.database.db.select().from(schema.newsletterSubscribers).where(eq(schema.newsletterSubscribers.tenantId, tenantId));

describe('subscribing (double opt-in)', () => {
  it('mails a confirmation link and counts the subscriber only once confirmed', async () => {
    const res = await subscribe('Ada@Example.com ');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.message).toContain('check your inbox');
    const [mail] = await mails();
    expect(mail?.to).toBe('ada@example.com');
    expect(mail?.subject).toBe('Confirm your subscription to Brightside Lighting');
    const confirm = linkIn(mail, '/newsletter/confirm');
    expect(confirm.url.startsWith('http://lighting.localhost')).toBe(true);
    // The confirmation mail has a way out too.
    linkIn(mail, '/newsletter/unsubscribe');
    const [row] = await subscribers();
    expect(row?.status).toBe('pending');
    // Only the hash is kept: the database holds no usable link.
    expect(row?.confirmTokenHash).not.toContain(confirm.token);
    expect(JSON.stringify(row)).not.toContain(confirm.token);
    let list = await t.app.inject({
      url: '/api/v1/newsletter/subscribers?status=confirmed',
      headers: { host: LIGHTING, ...owner },
    });
    expect(list.json().data.subscribers).toEqual([]);

    const ok = await post('/api/v1/newsletter/confirm', confirm.token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.email).toBe('ada@example.com');
    list = await t.app.inject({
      url: '/api/v1/newsletter/subscribers?status=confirmed',
      headers: { host: LIGHTING, ...owner },
    });
    expect(list.json().data.subscribers.map((s: { email: string }) => s.email)).toEqual(['ada@example.com']);
    // Single use.
    expect((await post('/api/v1/newsletter/confirm', confirm.token)).statusCode).toBe(404);
  });

  it('answers the same whether or not the address is already subscribed', async () => {
    const first = await subscribe('bob@example.com');
    const token = linkIn((await mails())[0], '/newsletter/confirm').token;
    await post('/api/v1/newsletter/confirm', token);
    const again = await subscribe('bob@example.com');
    const stranger = await subscribe('carol@example.com');
    expect(again.statusCode).toBe(stranger.statusCode);
    expect(again.json().data).toEqual(stranger.json().data);
    expect(again.json().data).toEqual(first.json().data);
    // Two mail jobs, sent in whichever order the runner claims them: each is found by its address.
    const batch = await mails();
    expect(batch).toHaveLength(2);
    const note = batch.find((m) => m.to === 'bob@example.com');
    const confirmation = batch.find((m) => m.to === 'carol@example.com');
    // The subscriber learns it by mail, which only the address's owner reads; still one row, still confirmed.
    expect(note?.subject).toContain('already subscribed');
    expect(note?.text).not.toContain('/newsletter/confirm');
    expect(confirmation?.subject).toContain('Confirm');
    const rows = await subscribers();
    expect(rows.find((r) => r.email === 'bob@example.com')?.status).toBe('confirmed');
    expect(rows).toHaveLength(2);
  });

  it('names the bad field and keeps nothing', async () => {
    const bad = await subscribe('not-an-email');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('body.email: Please enter a valid email address.');
    expect(await subscribers()).toHaveLength(0);
    expect(await mails()).toHaveLength(0);
  });

  it('limits requests per client address and per email address', async () => {
    for (let i = 0; i < NEWSLETTER_IP_LIMIT; i++)
      expect((await subscribe(`p${i}@example.com`, LIGHTING, '10.9.9.9')).statusCode).toBe(200);
    const limited = await subscribe('other@example.com', LIGHTING, '10.9.9.9');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The same address on another store is not affected.
    expect((await subscribe('other@example.com', GARDEN, '10.9.9.9')).statusCode).toBe(200);

    for (let i = 0; i < NEWSLETTER_EMAIL_LIMIT; i++)
      expect((await subscribe('target@example.com')).statusCode).toBe(200);
    // From any client address: nobody can fill a stranger's inbox with confirmation mail.
    expect((await subscribe('target@example.com')).statusCode).toBe(429);
    await mails();
  });
});

describe('unsubscribing', () => {
  it('works from every mail without login, and stops newsletter mail', async () => {
    await subscribe('dora@example.com');
    await post('/api/v1/newsletter/confirm', linkIn((await mails())[0], '/newsletter/confirm').token);
    await subscribe('eve@example.com'); // never confirmed: gets no newsletter
    await mails();
    const ctx = systemContext(
      { tenantId: 'lighting', productStoreId: '9000', hostName: LIGHTING, viaDevAlias: false, origin: '' },
      'test',
    );
    const newsletter = t.services.newsletter;
    expect(await newsletter.sendIssue(ctx, { subject: 'Spring lights', text: 'New pendants are in.' })).toEqual({
      queued: 1,
    });
    const [issue] = await mails();
    expect(issue?.to).toBe('dora@example.com');
    const unsub = linkIn(issue, '/newsletter/unsubscribe');
    expect(issue?.headers?.['List-Unsubscribe']).toBe(`<${unsub.url}>`);

    // A forged or altered token does nothing.
    expect((await post('/api/v1/newsletter/unsubscribe', `${unsub.token.slice(0, -2)}xx`)).statusCode).toBe(404);
    const res = await post('/api/v1/newsletter/unsubscribe', unsub.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.email).toBe('dora@example.com');
    expect((await post('/api/v1/newsletter/unsubscribe', unsub.token)).statusCode).toBe(200);
    expect(await newsletter.sendIssue(ctx, { subject: 'Summer', text: 'x' })).toEqual({ queued: 0 });
  });

  it("from the confirmation mail, makes that mail's confirm link useless", async () => {
    await subscribe('fay@example.com');
    const [mail] = await mails();
    await post('/api/v1/newsletter/unsubscribe', linkIn(mail, '/newsletter/unsubscribe').token);
    expect((await post('/api/v1/newsletter/confirm', linkIn(mail, '/newsletter/confirm').token)).statusCode).toBe(404);
    expect((await subscribers())[0]?.status).toBe('unsubscribed');
  });
});

describe('tenant isolation', () => {
  it("never lists another store's subscriber, and one store's links do nothing on another", async () => {
    await subscribe('gus@example.com', GARDEN);
    const [mail] = await mails();
    const confirm = linkIn(mail, '/newsletter/confirm');
    expect(confirm.url.startsWith('http://garden.localhost')).toBe(true);
    expect((await post('/api/v1/newsletter/confirm', confirm.token, LIGHTING)).statusCode).toBe(404);
    expect(
      (await post('/api/v1/newsletter/unsubscribe', linkIn(mail, '/newsletter/unsubscribe').token, LIGHTING))
        .statusCode,
    ).toBe(404);
    expect((await subscribers('garden'))[0]?.status).toBe('pending');
    expect((await post('/api/v1/newsletter/confirm', confirm.token, GARDEN)).statusCode).toBe(200);

    const list = await t.app.inject({ url: '/api/v1/newsletter/subscribers', headers: { host: LIGHTING, ...owner } });
    expect(list.json().data.subscribers).toEqual([]);
    const csv = await t.app.inject({
      url: '/api/v1/newsletter/subscribers.csv',
      headers: { host: LIGHTING, ...owner },
    });
    expect(csv.body).not.toContain('gus@example.com');
    // The garden owner's session is the garden store's, and does not open lighting's list.
    const gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
    expect(
      (await t.app.inject({ url: '/api/v1/newsletter/subscribers', headers: { host: LIGHTING, ...gardenOwner } }))
        .statusCode,
    ).toBe(401);
    const garden = await t.app.inject({
      url: '/api/v1/newsletter/subscribers',
      headers: { host: GARDEN, ...gardenOwner },
    });
    expect(garden.json().data.subscribers.map((s: { email: string }) => s.email)).toEqual(['gus@example.com']);
  });
});

describe("the owner's list", () => {
  it('pages newest first by keyset, filters by status, and needs the customers permission', async () => {
    for (let i = 0; i < 5; i++) {
      await subscribe(`page${i}@example.com`);
      await new Promise((r) => setTimeout(r, 2)); // distinct creation times, like real sign-ups
    }
    await mails();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `/api/v1/newsletter/subscribers?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await t.app.inject({ url: q, headers: { host: LIGHTING, ...owner } });
      expect(res.statusCode).toBe(200);
      seen.push(...res.json().data.subscribers.map((s: { email: string }) => s.email));
      cursor = res.json().data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['page4', 'page3', 'page2', 'page1', 'page0'].map((p) => `${p}@example.com`));
    const pending = await t.app.inject({
      url: '/api/v1/newsletter/subscribers?status=pending',
      headers: { host: LIGHTING, ...owner },
    });
    expect(pending.json().data.subscribers).toHaveLength(5);
    const staff = await signIn(t.app, 'customers.staff@lighting.test', 'owner-demo-1', LIGHTING);
    expect(
      (await t.app.inject({ url: '/api/v1/newsletter/subscribers', headers: { host: LIGHTING, ...staff } })).statusCode,
    ).toBe(200);
    const shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
    expect(
      (await t.app.inject({ url: '/api/v1/newsletter/subscribers.csv', headers: { host: LIGHTING, ...shopper } }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ url: '/api/v1/newsletter/subscribers.csv', headers: { host: LIGHTING } })).statusCode,
    ).toBe(401);
    const bad = await t.app.inject({
      url: '/api/v1/newsletter/subscribers?cursor=nonsense',
      headers: { host: LIGHTING, ...owner },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('exports CSV with quoted fields and defused formulas', async () => {
    await subscribe('-2+3@example.com');
    await mails();
    // Addresses the form refuses may still come from an import: the export must be safe for any text.
    await t.database.db.insert(schema.newsletterSubscribers).values({
      tenantId: 'lighting',
      subscriberId: 'imported-1',
      productStoreId: '9000',
      email: '=HYPERLINK("http://x.test","a,b")',
      status: 'confirmed',
    });
    const res = await t.app.inject({
      url: '/api/v1/newsletter/subscribers.csv',
      headers: { host: LIGHTING, ...owner },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('attachment');
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('email,status,subscribed_at,confirmed_at,unsubscribed_at');
    expect(lines).toHaveLength(3);
    expect(res.body).toContain("'-2+3@example.com,pending,");
    expect(res.body).toContain(`"'=HYPERLINK(""http://x.test"",""a,b"")",confirmed,`);
  });
});

describe('csvCell', () => {
  it.each([
    ['plain@example.com', 'plain@example.com'],
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['=a,"b"', `"'=a,""b"""`],
    ['line\nbreak', '"line\nbreak"'],
  ])('%j becomes %j', (input, output) => {
    expect(csvCell(input)).toBe(output);
  });
});
