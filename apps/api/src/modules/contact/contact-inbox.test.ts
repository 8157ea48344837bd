import { schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createTestSmtp } from '../../test/smtp';
import { createStaff } from '../../test/staff';
import { createMailer } from '../mail/index';

/** The store's replies go through the mail queue to a real SMTP server on loopback. */
const smtp = createTestSmtp();
const received = smtp.received;

const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const M = '/api/v1/messages';

let t: TestApp;
let owner: BrowserSession;
let gardenOwner: BrowserSession;
let shopper: BrowserSession;
let customersStaff: BrowserSession;
let catalogStaff: BrowserSession;
let ip = 0;

function call(
  method: 'GET' | 'POST',
  url: string,
  opts: { body?: unknown; session?: BrowserSession | null; host?: string } = {},
) {
  const host = opts.host ?? LIGHTING;
  return t.app.inject({
    method,
    url,
    headers: { host, origin: `http://${host}`, ...(opts.session === null ? {} : (opts.session ?? owner)) },
    ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
  });
}

/** A visitor's message through the contact form (each from its own address: the rate limit is per sender). */
async function contact(name: string, email: string, message: string, host = LIGHTING): Promise<string> {
  ip += 1;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/store/contact',
    headers: { host },
    payload: { name, email, message },
    remoteAddress: `10.9.${Math.floor(ip / 250)}.${ip % 250}`,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.messageId;
}

async function auditOf(entityId: string) {
  const al = schema.auditLog;
  return t.database.db
    .select({ action: al.action, actor_id: al.actorId })
    .from(al)
    .where(and(eq(al.tenantId, 'lighting'), eq(al.entity, 'contact_message'), eq(al.entityId, entityId)))
    .orderBy(asc(al.id));
}

beforeAll(async () => {
  const smtpUrl = await smtp.listen();
  t = await createTestApp({
    mailer: createMailer({ smtpUrl, from: 'Shop <no-reply@shop.test>', outboxDir: '' }),
  });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', LIGHTING);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', LIGHTING);
  await createStaff(t.database, 'lighting', 'msg-customers@lighting.test', ['customers']);
  await createStaff(t.database, 'lighting', 'msg-catalog@lighting.test', ['catalog']);
  customersStaff = await signIn(t.app, 'msg-customers@lighting.test', 'owner-demo-1', LIGHTING);
  catalogStaff = await signIn(t.app, 'msg-catalog@lighting.test', 'owner-demo-1', LIGHTING);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  await t.services.jobs.drain();
  received.length = 0;
  await t.database.db.delete(schema.contactMessages);
});

describe('who may read the inbox', () => {
  it('a visitor gets 401, a shopper 403, staff without customers 403; staff with customers may', async () => {
    const id = await contact('Ada Lovelace', 'ada@example.test', 'Do you ship to Leeds?');
    const routes: [method: 'GET' | 'POST', url: string, body?: object][] = [
      ['GET', M],
      ['GET', `${M}/${id}`],
      ['POST', `${M}/${id}/reply`, { text: 'Yes we do.' }],
      ['POST', `${M}/${id}/archive`],
      ['POST', `${M}/${id}/unarchive`],
      ['POST', `${M}/${id}/unread`],
    ];
    for (const [method, url, body] of routes) {
      const visitor = await call(method, url, { body, session: null });
      expect(visitor.statusCode, `${method} ${url}`).toBe(401);
      expect(visitor.json()).toMatchObject({ error: true, code: 'UNAUTHENTICATED' });
      expect((await call(method, url, { body, session: shopper })).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(method, url, { body, session: catalogStaff })).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(method, url, { body, session: customersStaff })).statusCode, `${method} ${url}`).toBe(200);
    }
  });

  it("another store's message is not found and stays as it was; no mail goes", async () => {
    const id = await contact('Ada Lovelace', 'ada@example.test', 'Lighting question');
    for (const [method, url, body] of [
      ['GET', `${M}/${id}`],
      ['POST', `${M}/${id}/reply`, { text: 'From the wrong store' }],
      ['POST', `${M}/${id}/archive`],
      ['POST', `${M}/${id}/unread`],
    ] as const) {
      expect((await call(method, url, { body, session: gardenOwner, host: GARDEN })).statusCode, url).toBe(404);
    }
    expect((await call('GET', M, { session: gardenOwner, host: GARDEN })).json().data.items).toEqual([]);
    const [row] = await t.database.db
      .select()
      .from(schema.contactMessages)
      .where(eq(schema.contactMessages.messageId, id));
    expect(row).toMatchObject({ status: 'new', readAt: null, archivedAt: null });
    await t.services.jobs.drain();
    expect(received.filter((r) => r.to.includes('ada@example.test'))).toEqual([]);
    expect(await auditOf(id)).toEqual([]);
  });
});

describe('the inbox', () => {
  it('lists newest first with the unread count; opening marks read; search; keyset pages; archive tab', async () => {
    const a = await contact('Ada Lovelace', 'ada@example.test', 'First: a question about lamp shades');
    const b = await contact('Brian Kernighan', 'bwk@example.test', 'Second: a question about bulbs');
    const c = await contact('Carol Shaw', 'carol@example.test', 'Third: opening hours?');
    const list = (await call('GET', M)).json().data;
    expect(list.items.map((m: { messageId: string }) => m.messageId)).toEqual([c, b, a]);
    expect(list.unread).toBe(3);
    expect(list.items[0]).toMatchObject({
      name: 'Carol Shaw',
      email: 'carol@example.test',
      unread: true,
      status: 'new',
    });

    const opened = await call('GET', `${M}/${b}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.json().data).toMatchObject({
      messageId: b,
      message: 'Second: a question about bulbs',
      status: 'read',
      readAt: expect.any(String),
      replies: [],
    });
    const after = (await call('GET', M)).json().data;
    expect(after.unread).toBe(2);
    expect(after.items.find((m: { messageId: string }) => m.messageId === b).unread).toBe(false);

    for (const [q, want] of [
      ['kernighan', [b]],
      ['CAROL@EXAMPLE', [c]],
      ['lamp shades', [a]],
      ['100%_', []],
    ] as const) {
      const found = (await call('GET', `${M}?q=${encodeURIComponent(q)}`)).json().data.items;
      expect(
        found.map((m: { messageId: string }) => m.messageId),
        q,
      ).toEqual(want);
    }

    const first = (await call('GET', `${M}?limit=2`)).json().data;
    expect(first.items).toHaveLength(2);
    const second = (await call('GET', `${M}?limit=2&cursor=${first.nextCursor}`)).json().data;
    expect(second.items.map((m: { messageId: string }) => m.messageId)).toEqual([a]);
    expect(second.nextCursor).toBeNull();

    const archived = await call('POST', `${M}/${a}/archive`);
    expect(archived.json().data).toMatchObject({ status: 'archived', archivedAt: expect.any(String) });
    expect((await call('GET', M)).json().data.items.map((m: { messageId: string }) => m.messageId)).toEqual([c, b]);
    const tab = (await call('GET', `${M}?folder=archived`)).json().data;
    expect(tab.items.map((m: { messageId: string }) => m.messageId)).toEqual([a]);
    expect(tab.items[0].unread).toBe(true);
    expect(tab.unread).toBe(1);

    // Back to the inbox as it was (unread); reading then marking unread again.
    expect((await call('POST', `${M}/${a}/unarchive`)).json().data.status).toBe('new');
    expect((await call('GET', `${M}/${a}`)).json().data.status).toBe('read');
    expect((await call('POST', `${M}/${a}/unread`)).json().data).toMatchObject({ status: 'new', readAt: null });
    expect((await auditOf(a)).map((e) => e.action)).toEqual(['archive', 'unarchive', 'read', 'mark_unread']);
    expect((await auditOf(b)).map((e) => e.action)).toEqual(['read']);
  });

  it('refuses a bad folder, cursor or limit, naming it', async () => {
    for (const [qs, field] of [
      ['folder=spam', 'folder'],
      ['cursor=nonsense', 'cursor'],
      ['limit=0', 'limit'],
    ] as const) {
      const res = await call('GET', `${M}?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(JSON.stringify(res.json()), qs).toContain(field);
    }
  });

  it('existing messages count as new after the migration', async () => {
    const id = await contact('Dora Old', 'dora@example.test', 'Sent before the inbox');
    const [row] = await t.database.db
      .select({ status: schema.contactMessages.status })
      .from(schema.contactMessages)
      .where(and(eq(schema.contactMessages.tenantId, 'lighting'), eq(schema.contactMessages.messageId, id)));
    expect(row?.status).toBe('new');
  });
});

describe('replying by email', () => {
  it('mails the sender from the store, answering to its address and quoting the message; the reply shows in the thread', async () => {
    const id = await contact('Ada Lovelace', 'ada@example.test', 'Do you ship to Leeds?\nAnd to York?');
    await t.services.jobs.drain();
    received.length = 0;

    const empty = await call('POST', `${M}/${id}/reply`, { body: { text: '  ' } });
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json())).toContain('text');
    const missing = await call('POST', `${M}/${id}/reply`, { body: {} });
    expect(missing.statusCode).toBe(400);
    expect(JSON.stringify(missing.json())).toContain('text');

    const res = await call('POST', `${M}/${id}/reply`, {
      body: { text: 'Yes, to both: next-day delivery.' },
      session: customersStaff,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      status: 'read',
      replies: [{ text: 'Yes, to both: next-day delivery.', sentByName: 'Staff', sentAt: expect.any(String) }],
    });
    await t.services.jobs.drain();
    expect(received).toHaveLength(1);
    expect(received[0]?.to).toEqual(['ada@example.test']);
    const raw = (received[0]?.raw ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(raw).toMatch(/Subject: Re: your message to Brightside Lighting/);
    expect(raw).toMatch(/Reply-To: .*<hello@brightside-lighting\.test>/);
    expect(raw).toContain('Yes, to both: next-day delivery.');
    expect(raw).toContain('> Do you ship to Leeds?');
    expect(raw).toContain('> And to York?');

    const thread = (await call('GET', `${M}/${id}`)).json().data;
    expect(thread.replies).toHaveLength(1);
    expect((await call('GET', M)).json().data.items[0].replies).toBe(1);
    expect((await auditOf(id)).map((e) => e.action)).toEqual(['reply', 'read']);
    expect((await auditOf(id))[0]?.actor_id).toBe('staff-msg-customers');
  });
});
