import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';
import { createMailer } from '../mail/index';

// Decision 027: the owner invites staff by email (a real SMTP server receives the mail here), the
// link sets a password and makes the account staff with the chosen permissions, and the owner
// changes or ends that access; only the owner, only in their own store, every write audited.

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

const LIGHTING = 'lighting.localhost';
const GARDEN = 'garden.localhost';
let t: TestApp;
const heard: { tenantId: string; what: string }[] = [];
const sessions: Record<string, BrowserSession> = {};

beforeAll(async () => {
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  const { port } = smtp.server.address() as { port: number };
  t = await createTestApp({
    mailer: createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Shop <no-reply@shop.test>', outboxDir: '' }),
  });
  t.services.events.on('settings.changed', (p) => {
    heard.push(p);
  });
  await createStaff(t.database, 'lighting', 'settings.staff@lighting.test', ['settings']);
  await createStaff(t.database, 'lighting', 'orders.staff@lighting.test', ['orders']);
  await createStaff(t.database, 'garden', 'garden.staff@garden.test', ['catalog']);
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

async function as(email: string, host = LIGHTING, password?: string): Promise<BrowserSession> {
  const pw = password ?? (email.startsWith('shopper') ? 'shopper-demo-1' : 'owner-demo-1');
  sessions[`${email}@${host}`] ??= await signIn(t.app, email, pw, host);
  return sessions[`${email}@${host}`] as BrowserSession;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, headers: Record<string, string> = {}, payload?: object, host = LIGHTING) =>
  t.app.inject({ method, url, headers: { host, ...headers }, ...(payload ? { payload } : {}) });

const rows = async <T>(q: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(q)) as unknown as { rows: T[] }).rows;
const audit = (tenantId: string, entity: string) =>
  rows<{ action: string; entity_id: string; changes: Record<string, { before?: unknown; after?: unknown }> }>(
    sql`SELECT action, entity_id, changes FROM audit_log WHERE tenant_id = ${tenantId} AND entity = ${entity} ORDER BY id`,
  );

/** The invitation link of the newest mail to `to`, read as a mail server received it. */
async function invitationLink(to: string): Promise<string> {
  await t.services.jobs.drain();
  const mail = [...received].reverse().find((m) => m.to.includes(to));
  expect(mail, `a mail to ${to}`).toBeDefined();
  const raw = (mail?.raw ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const link = /(http:\/\/lighting\.localhost\/auth\/staff-invitation\?token=[A-Za-z0-9_-]+)/.exec(raw)?.[1];
  expect(link, raw).toBeDefined();
  return link as string;
}
const tokenOf = (link: string) => new URL(link).searchParams.get('token') as string;

const invite = (payload: object, who: BrowserSession) => call('POST', '/api/v1/staff/invite', who, payload);
const accept = (token: string, password: string) =>
  call('POST', '/api/v1/staff/invitation/accept', { origin: 'http://lighting.localhost' }, { token, password });

describe('GET /api/v1/staff/fetch', () => {
  it('shows the owner the visibility, the staff (owner first) and that they may manage them', async () => {
    const res = await call('GET', '/api/v1/staff/fetch', await as('owner@lighting.test'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const data = res.json().data;
    expect(data.visibility).toEqual({ tenantId: 'lighting', isWs2Public: true, accessMode: 'public' });
    expect(data.canManage).toBe(true);
    expect(data.staff[0]).toMatchObject({ email: 'owner@lighting.test', role: 'admin', isYou: true });
    expect(data.staff[0].permissions).toEqual(['settings', 'catalog', 'orders', 'customers', 'payments']);
    expect(data.staff.map((s: { email: string }) => s.email)).toContain('settings.staff@lighting.test');
    expect(data.staff.map((s: { email: string }) => s.email)).not.toContain('garden.staff@garden.test');
    expect(data.staff.map((s: { email: string }) => s.email)).not.toContain('shopper@lighting.test');
  });

  it('lets staff with the settings permission look, not manage; refuses everyone else', async () => {
    const staff = await call('GET', '/api/v1/staff/fetch', await as('settings.staff@lighting.test'));
    expect(staff.statusCode).toBe(200);
    expect(staff.json().data.canManage).toBe(false);
    expect((await call('GET', '/api/v1/staff/fetch')).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/staff/fetch', await as('shopper@lighting.test'))).statusCode).toBe(403);
    expect((await call('GET', '/api/v1/staff/fetch', await as('orders.staff@lighting.test'))).statusCode).toBe(403);
  });
});

describe('inviting, accepting, changing and removing staff', () => {
  it('mails an invitation whose link sets the password; the new staff member signs in with only what was granted', async () => {
    const owner = await as('owner@lighting.test');
    heard.length = 0;
    const res = await invite(
      { email: ' Nora.New@Example.test ', firstName: 'Nora', lastName: 'New', permissions: ['catalog', 'catalog'] },
      owner,
    );
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ email: 'nora.new@example.test', firstName: 'Nora', permissions: ['catalog'] });
    expect(Date.parse(data.expiresAt) - Date.parse(data.createdAt)).toBe(7 * 24 * 3600 * 1000);
    expect(heard).toEqual([{ tenantId: 'lighting', what: 'staff' }]);
    const [entry] = await audit('lighting', 'staff.invitation');
    expect(entry).toMatchObject({ action: 'create', entity_id: data.invitationId });
    expect(entry?.changes.email).toEqual({ after: 'nora.new@example.test' });
    // Only the token's hash is stored.
    const link = await invitationLink('nora.new@example.test');
    const token = tokenOf(link);
    const stored = await rows<{ token_hash: string }>(
      sql`SELECT token_hash FROM staff_invitations WHERE email = 'nora.new@example.test'`,
    );
    expect(stored[0]?.token_hash).not.toContain(token);

    const listed = (await call('GET', '/api/v1/staff/fetch', owner)).json().data;
    expect(listed.invitations.map((i: { email: string }) => i.email)).toContain('nora.new@example.test');

    const preview = await call('GET', `/api/v1/staff/invitation?token=${token}`);
    expect(preview.json().data).toEqual({
      email: 'nora.new@example.test',
      firstName: 'Nora',
      storeName: expect.any(String),
      permissions: ['catalog'],
    });

    const weak = await accept(token, 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toContain('password');
    const ok = await accept(token, 'nora-picks-a-long-one');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toEqual({ email: 'nora.new@example.test' });
    expect((await accept(token, 'nora-picks-a-long-one')).statusCode).toBe(400);
    expect((await call('GET', `/api/v1/staff/invitation?token=${token}`)).statusCode).toBe(404);
    const acceptEntry = (await audit('lighting', 'staff')).find((e) => e.action === 'accept-invitation');
    expect(acceptEntry?.changes.permissions).toEqual({ after: ['catalog'] });

    const nora = await as('nora.new@example.test', LIGHTING, 'nora-picks-a-long-one');
    expect((await call('GET', '/api/v1/dashboard/home', nora)).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/staff/fetch', nora)).statusCode).toBe(403);
    expect((await call('GET', '/api/v1/audit/fetch', nora)).statusCode).toBe(403);
  });

  it('validates the invitation, naming the field', async () => {
    const owner = await as('owner@lighting.test');
    const bad = await invite({ email: 'not-an-email', firstName: 'A', lastName: 'B', permissions: ['catalog'] }, owner);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('email');
    const none = await invite({ email: 'x@example.test', firstName: 'A', lastName: 'B', permissions: [] }, owner);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toContain('permissions');
    const unknown = await invite(
      { email: 'x@example.test', firstName: 'A', lastName: 'B', permissions: ['root'] },
      owner,
    );
    expect(unknown.statusCode).toBe(400);
    const role = await invite(
      { email: 'x@example.test', firstName: 'A', lastName: 'B', permissions: ['catalog'], role: 'admin' },
      owner,
    );
    expect(role.statusCode).toBe(400);
    const taken = await invite(
      { email: 'settings.staff@lighting.test', firstName: 'A', lastName: 'B', permissions: ['catalog'] },
      owner,
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('email');
    const self = await invite(
      { email: 'owner@lighting.test', firstName: 'A', lastName: 'B', permissions: ['catalog'] },
      owner,
    );
    expect(self.statusCode).toBe(409);
  });

  it('lets only the owner invite, change or remove staff', async () => {
    const body = { email: 'y@example.test', firstName: 'A', lastName: 'B', permissions: ['catalog'] };
    expect((await invite(body, {} as BrowserSession)).statusCode).toBe(401);
    expect((await invite(body, await as('shopper@lighting.test'))).statusCode).toBe(403);
    const staff = await as('settings.staff@lighting.test');
    const refused = await invite(body, staff);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('Only the store owner');
    const ordersId = 'staff-orders.staff';
    expect((await call('PUT', `/api/v1/staff/update/${ordersId}`, staff, { permissions: ['orders'] })).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `/api/v1/staff/remove/${ordersId}`, staff)).statusCode).toBe(403);
    expect((await rows(sql`SELECT 1 FROM staff_invitations WHERE email = 'y@example.test'`)).length).toBe(0);
  });

  it("changes a staff member's permissions; the owner's and another store's ids are refused", async () => {
    const owner = await as('owner@lighting.test');
    heard.length = 0;
    const res = await call('PUT', '/api/v1/staff/update/staff-orders.staff', owner, {
      permissions: ['orders', 'customers'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      email: 'orders.staff@lighting.test',
      permissions: ['orders', 'customers'],
    });
    expect(heard).toEqual([{ tenantId: 'lighting', what: 'staff' }]);
    const entry = (await audit('lighting', 'staff')).find((e) => e.action === 'update');
    expect(entry?.changes.permissions).toEqual({ before: ['orders'], after: ['orders', 'customers'] });
    const bad = await call('PUT', '/api/v1/staff/update/staff-orders.staff', owner, { permissions: ['nope'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('permissions');

    const ownerId = (await call('GET', '/api/v1/staff/fetch', owner)).json().data.staff[0].userId as string;
    const demote = await call('PUT', `/api/v1/staff/update/${ownerId}`, owner, { permissions: ['orders'] });
    expect(demote.statusCode).toBe(422);
    const foreign = await call('PUT', '/api/v1/staff/update/staff-garden.staff', owner, { permissions: ['orders'] });
    expect(foreign.statusCode).toBe(404);
    const gardenStaff = await rows<{ permissions: string[] }>(
      sql`SELECT permissions FROM users WHERE tenant_id = 'garden' AND user_id = 'staff-garden.staff'`,
    );
    expect(gardenStaff[0]?.permissions).toEqual(['catalog']);
  });

  it('removes a staff member: their sessions end at once; the owner cannot remove themselves', async () => {
    const owner = await as('owner@lighting.test');
    await createStaff(t.database, 'lighting', 'leaving@lighting.test', ['catalog']);
    const leaving = await signIn(t.app, 'leaving@lighting.test', 'owner-demo-1', LIGHTING);
    expect((await call('GET', '/api/v1/dashboard/home', leaving)).statusCode).toBe(200);
    heard.length = 0;
    const res = await call('DELETE', '/api/v1/staff/remove/staff-leaving', owner);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ userId: 'staff-leaving', removed: true });
    expect(heard).toEqual([{ tenantId: 'lighting', what: 'staff' }]);
    expect((await call('GET', '/api/v1/dashboard/home', leaving)).statusCode).toBe(401);
    const [user] = await rows<{ role: string }>(sql`SELECT role FROM users WHERE user_id = 'staff-leaving'`);
    expect(user?.role).toBe('shopper');
    expect(
      (await audit('lighting', 'staff')).some((e) => e.action === 'remove' && e.entity_id === 'staff-leaving'),
    ).toBe(true);
    expect((await call('DELETE', '/api/v1/staff/remove/staff-leaving', owner)).statusCode).toBe(404);

    const ownerId = (await call('GET', '/api/v1/staff/fetch', owner)).json().data.staff[0].userId as string;
    const self = await call('DELETE', `/api/v1/staff/remove/${ownerId}`, owner);
    expect(self.statusCode).toBe(422);
    expect(self.json().message).toContain('owner cannot be removed');
    expect((await call('DELETE', '/api/v1/staff/remove/staff-garden.staff', owner)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/v1/staff/remove/nobody', owner)).statusCode).toBe(404);
  });

  it('revokes an invitation: its link stops working; a second invitation replaces the first', async () => {
    const owner = await as('owner@lighting.test');
    const first = (
      await invite({ email: 'rev@example.test', firstName: 'R', lastName: 'V', permissions: ['orders'] }, owner)
    ).json().data;
    const firstToken = tokenOf(await invitationLink('rev@example.test'));
    const second = (
      await invite({ email: 'rev@example.test', firstName: 'R', lastName: 'V', permissions: ['orders'] }, owner)
    ).json().data;
    const secondToken = tokenOf(await invitationLink('rev@example.test'));
    expect(secondToken).not.toBe(firstToken);
    expect((await call('GET', `/api/v1/staff/invitation?token=${firstToken}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/v1/staff/invitation/${first.invitationId}`, owner)).statusCode).toBe(404);
    heard.length = 0;
    const res = await call('DELETE', `/api/v1/staff/invitation/${second.invitationId}`, owner);
    expect(res.statusCode).toBe(200);
    expect(heard).toEqual([{ tenantId: 'lighting', what: 'staff' }]);
    expect((await accept(secondToken, 'a-long-passphrase-7')).statusCode).toBe(400);
    expect((await audit('lighting', 'staff.invitation')).some((e) => e.action === 'revoke')).toBe(true);

    // Garden's owner cannot revoke lighting's invitations, even by id on garden's host.
    const third = (
      await invite({ email: 'rev@example.test', firstName: 'R', lastName: 'V', permissions: ['orders'] }, owner)
    ).json().data;
    const garden = await as('owner@garden.test', GARDEN);
    const foreign = await call('DELETE', `/api/v1/staff/invitation/${third.invitationId}`, garden, undefined, GARDEN);
    expect(foreign.statusCode).toBe(404);
    expect(
      (await call('GET', `/api/v1/staff/invitation?token=${tokenOf(await invitationLink('rev@example.test'))}`))
        .statusCode,
    ).toBe(200);
  });

  it("makes a customer account staff when its owner accepts, and the link works only on the store's own host", async () => {
    const owner = await as('owner@lighting.test');
    await invite({ email: 'shopper@lighting.test', firstName: 'Sam', lastName: 'S', permissions: ['orders'] }, owner);
    const token = tokenOf(await invitationLink('shopper@lighting.test'));
    const elsewhere = await call('GET', `/api/v1/staff/invitation?token=${token}`, {}, undefined, GARDEN);
    expect(elsewhere.statusCode).toBe(404);
    expect((await accept(token, 'sams-new-long-password')).statusCode).toBe(200);
    const sam = await signIn(t.app, 'shopper@lighting.test', 'sams-new-long-password', LIGHTING);
    expect((await call('GET', '/api/v1/dashboard/home', sam)).statusCode).toBe(200);
  });
});
