import { schema } from '@app/db';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsStandIn, type Zone } from '../../test/dns-stand-in';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { auditEntries } from '../../test/owners';
import { makeScheduleDue } from '../../test/schedules';
import { createTestSmtp } from '../../test/smtp';
import { createStaff } from '../../test/staff';
import { createMailer } from '../mail/index';
import type { PlatformActor } from '../store-lifecycle/index';
import { DUE_CHECK_JOB, DUE_CHECKS, GRACE_MS, RECHECK_JOB } from './domain-checks';

// Decision 121: an owner adds a domain, creates the records the platform shows at a DNS provider (a
// local DNS server here, asked through DNS_RESOLVER), and the check job moves it from pending to
// failed, verified and active; the active domain serves the store, gets a certificate (the proxy's
// question), can be made primary (the other hosts answer 301, links use it), and no other store can
// claim it.

const HOST = 'lighting.localhost';
const GARDEN = 'garden.localhost';
const DOMAIN = 'shop.bright-lamps.com';
const APEX = 'bright-lamps.com';
const CNAME_TARGET = 'shops.localhost';
const A_TARGET = '203.0.113.7';
const AAAA_TARGET = '2001:db8::7';

let t: TestApp;
// The owner's mails about their domains go through the mail queue to a real SMTP server on loopback.
const smtp = createTestSmtp();
/** The mails the garden owner got, each as its subject and its body (quoted-printable undone). */
const gardenMails = () =>
  smtp.received
    .filter((m) => m.to.includes('owner@garden.test'))
    .map((m) => {
      const split = m.raw.indexOf('\r\n\r\n');
      const headers = m.raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
      const body = m.raw
        .slice(split + 4)
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
      return { subject: /^Subject: (.*)$/m.exec(headers)?.[1]?.trim() ?? '', body };
    });
let dns: Awaited<ReturnType<typeof startDnsStandIn>>;
let zone: Zone;
let owner: BrowserSession;
let gardenOwner: BrowserSession;
let ordersStaff: BrowserSession;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (
  method: Method,
  url: string,
  who: BrowserSession | Record<string, string>,
  payload?: unknown,
  host = HOST,
) =>
  t.app.inject({
    method,
    url,
    headers: { host, origin: `http://${host}`, ...who },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

type Domain = {
  domain: string;
  displayName: string;
  state: string;
  reason: string;
  isPrimary: boolean;
  aliasOf: string | null;
  lapsedAt: string | null;
  disconnectsAt: string | null;
  checkedAt: string | null;
  nextCheckAt: string | null;
  records: { type: string; name: string; value: string }[];
};
const domainOf = async (name: string, who = owner, host = HOST): Promise<Domain | undefined> => {
  const res = await call('GET', '/api/v1/domains', who, undefined, host);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.domains.find((d: Domain) => d.domain === name);
};
const recheck = async (name: string) => {
  const res = await call('POST', `/api/v1/domains/${name}/check`, owner);
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json().data.state).toBe('pending');
  await t.services.jobs.drain();
};
const ask = (domain: string) =>
  t.app.inject({ method: 'GET', url: `/internal/tls/ask?domain=${domain}`, headers: { host: '127.0.0.1' } });

beforeAll(async () => {
  dns = await startDnsStandIn();
  zone = dns.zone;
  const smtpUrl = await smtp.listen();
  t = await createTestApp({
    mailer: createMailer({ smtpUrl, from: 'Platform <no-reply@platform.test>', outboxDir: '' }),
    modules: ['domains', 'sitemap', 'store-lifecycle'],
    config: {
      DNS_RESOLVER: dns.address,
      DOMAIN_CNAME_TARGET: CNAME_TARGET,
      DOMAIN_A_TARGET: A_TARGET,
      // Written long-hand: the check compares it with DNS answers in their short form.
      DOMAIN_AAAA_TARGET: '2001:DB8:0:0:0:0:0:7',
    },
  });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', GARDEN);
  await createStaff(t.database, 'lighting', 'packer@lighting.test', ['orders']);
  ordersStaff = await signIn(t.app, 'packer@lighting.test', 'owner-demo-1', HOST);
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
  await smtp.close();
});

describe('adding a domain', () => {
  it('shows the TXT token and the CNAME to create; 401 for a visitor, 403 without the settings permission', async () => {
    expect((await call('POST', '/api/v1/domains', {}, { domain: DOMAIN })).statusCode).toBe(401);
    expect((await call('POST', '/api/v1/domains', ordersStaff, { domain: DOMAIN })).statusCode).toBe(403);

    const res = await call('POST', '/api/v1/domains', owner, { domain: ' Shop.Bright-Lamps.com. ' });
    expect(res.statusCode, res.body).toBe(201);
    const added = res.json().data;
    expect(added).toMatchObject({ domain: DOMAIN, state: 'pending', isPrimary: false, reason: '' });
    expect(added.records).toEqual([
      expect.objectContaining({
        type: 'TXT',
        name: `_storefront-verify.${DOMAIN}`,
        value: expect.stringMatching(/^storefront-verify=[0-9a-f]{32}$/),
      }),
      expect.objectContaining({ type: 'CNAME', name: DOMAIN, value: CNAME_TARGET }),
    ]);
    expect(await auditEntries(t.database.db, 'lighting', 'domain')).toBe(1);
  });

  it('asks an apex domain for A and AAAA records instead of a CNAME, and adds its www host with a CNAME', async () => {
    const res = await call('POST', '/api/v1/domains', owner, { domain: APEX });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.records.slice(1)).toEqual([
      expect.objectContaining({ type: 'A', name: APEX, value: A_TARGET }),
      expect.objectContaining({ type: 'AAAA', name: APEX, value: AAAA_TARGET }),
    ]);
    // www comes along, proven by the apex's TXT record: its only record is the CNAME.
    const www = await domainOf(`www.${APEX}`);
    expect(www).toMatchObject({ state: 'pending', aliasOf: APEX, isPrimary: false });
    expect(www?.records).toEqual([
      expect.objectContaining({ type: 'CNAME', name: `www.${APEX}`, value: CNAME_TARGET }),
    ]);
  });

  it('keeps an internationalised name in its ASCII form and shows it in letters', async () => {
    const res = await call('POST', '/api/v1/domains', owner, { domain: 'Laden.Bücher-Eck.de' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      domain: 'laden.xn--bcher-eck-q9a.de',
      displayName: 'laden.bücher-eck.de',
    });
    expect(res.json().data.records[0].name).toBe('_storefront-verify.laden.xn--bcher-eck-q9a.de');
    // Typed either way, it is one domain.
    const again = await call('POST', '/api/v1/domains', owner, { domain: 'laden.xn--bcher-eck-q9a.de' });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors).toEqual([expect.stringMatching(/^domain: /)]);
    // A name no registry takes, or letters around a path: refused, naming the field.
    for (const domain of ['bü cher.de', 'https://bücher.de/shop']) {
      const bad = await call('POST', '/api/v1/domains', owner, { domain });
      expect(bad.statusCode, bad.body).toBe(400);
      // The field is named once, by the answer's path.
      expect(bad.json().errors, bad.body).toEqual([expect.stringMatching(/^body\.domain: enter a domain name /)]);
    }
    expect((await call('DELETE', '/api/v1/domains/laden.xn--bcher-eck-q9a.de', owner)).statusCode).toBe(200);
  });

  it('refuses what is not a domain, the platform own domain, and a domain twice', async () => {
    for (const domain of ['https://shop.bright-lamps.com/', 'no-dot', 'a..b.com', 'x'.repeat(254), 42]) {
      const res = await call('POST', '/api/v1/domains', owner, { domain });
      expect(res.statusCode, `${domain}: ${res.body}`).toBe(400);
    }
    const platform = await call('POST', '/api/v1/domains', owner, { domain: 'lamps.localhost' });
    expect(platform.statusCode).toBe(422);
    expect(platform.json().message).toMatch(/platform's own domain/);
    const twice = await call('POST', '/api/v1/domains', owner, { domain: DOMAIN });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(/added already/);
    const seeded = await call('POST', '/api/v1/domains', owner, { domain: 'garden.example.com' });
    expect(seeded.statusCode, seeded.body).toBe(201);
  });
});

describe('the check job', () => {
  it('fails with the reason when the TXT record is missing; the domain serves nothing', async () => {
    await t.services.jobs.drain();
    const d = await domainOf(DOMAIN);
    expect(d).toMatchObject({ state: 'failed' });
    expect(d?.reason).toMatch(/TXT record _storefront-verify\.shop\.bright-lamps\.com .* was not found/);
    expect((await call('GET', '/robots.txt', {}, undefined, DOMAIN)).statusCode).toBe(404);
    expect((await ask(DOMAIN)).statusCode).toBe(404);
  });

  it('verifies the domain once the token is there, and says what still points elsewhere', async () => {
    const res = await call('GET', '/api/v1/domains', owner);
    const token = res.json().data.domains.find((d: Domain) => d.domain === DOMAIN).records[0].value;
    zone.txt.set(`_storefront-verify.${DOMAIN}`, [token]);
    zone.a.set(DOMAIN, ['198.51.100.1']);
    await recheck(DOMAIN);
    const d = await domainOf(DOMAIN);
    expect(d?.state).toBe('verified');
    expect(d?.reason).toMatch(
      /does not point at your store yet \(DNS shows A 198\.51\.100\.1\): create a CNAME record to shops\.localhost/,
    );
    expect((await ask(DOMAIN)).statusCode).toBe(404);
  });

  it('keeps another store from claiming a verified domain', async () => {
    const res = await call('POST', '/api/v1/domains', gardenOwner, { domain: DOMAIN }, GARDEN);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/another store has verified this domain/);
  });

  it('activates the domain once it points here: it serves the store and may get a certificate', async () => {
    zone.a.delete(DOMAIN);
    zone.cname.set(DOMAIN, `${CNAME_TARGET}.`);
    await recheck(DOMAIN);
    expect(await domainOf(DOMAIN)).toMatchObject({ state: 'active', reason: '' });
    // It serves the store; until it is primary, its pages send shoppers to the primary host.
    const page = await call('GET', '/robots.txt', {}, undefined, DOMAIN);
    expect(page.statusCode, page.body).toBe(301);
    expect(page.headers.location).toBe(`http://${HOST}/robots.txt`);
    const tenant = await call('GET', '/api/fetch/tenant?tenantId=lighting', {}, undefined, DOMAIN);
    expect(tenant.json().data.productStores[0].hostNames).toContain(DOMAIN);
    expect((await ask(DOMAIN)).statusCode).toBe(200);
    expect((await ask('SHOP.bright-lamps.com')).statusCode).toBe(200);
    expect((await ask('other.bright-lamps.com')).statusCode).toBe(404);
    // Re-checking an active domain checks it while it stays active.
    const again = await call('POST', `/api/v1/domains/${DOMAIN}/check`, owner);
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json().data.state).toBe('active');
    await t.services.jobs.drain();
    expect(await domainOf(DOMAIN)).toMatchObject({ state: 'active', reason: '', lapsedAt: null });
  });

  it('tells an owner whose DNS does not answer to try again', async () => {
    zone.failing.add('watts.org');
    const res = await call('POST', '/api/v1/domains', owner, { domain: 'shop.watts.org' });
    expect(res.statusCode, res.body).toBe(201);
    await t.services.jobs.drain();
    expect(await domainOf('shop.watts.org')).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/^DNS did not answer \(ESERVFAIL\)\. Check again in a few minutes\.$/),
    });
  });
});

describe('the primary domain', () => {
  it('makes the others answer 301 and the links use it', async () => {
    const refused = await call('PUT', '/api/v1/domains/primary', owner, { host: 'garden.localhost' });
    expect(refused.statusCode).toBe(422);
    const res = await call('PUT', '/api/v1/domains/primary', owner, { host: DOMAIN });
    expect(res.statusCode, res.body).toBe(200);
    expect(await domainOf(DOMAIN, owner, HOST)).toMatchObject({ isPrimary: true });

    const moved = await call('GET', '/robots.txt?x=1', {}, undefined, HOST);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`http://${DOMAIN}/robots.txt?x=1`);
    // The dashboard and the API stay where they are asked; a form post is not redirected.
    expect((await call('GET', '/api/v1/domains', owner, undefined, HOST)).statusCode).toBe(200);
    expect((await call('POST', '/robots.txt', {}, {}, HOST)).statusCode).not.toBe(301);

    const robots = await call('GET', '/robots.txt', {}, undefined, DOMAIN);
    expect(robots.statusCode).toBe(200);
    expect(robots.body).toContain(`http://${DOMAIN}/sitemap.xml`);
    const tenant = await call('GET', '/api/fetch/tenant?tenantId=lighting', {}, undefined, DOMAIN);
    expect(tenant.json().data.productStores[0].hostName).toBe(DOMAIN);
  });

  it('cannot be removed; back on the subdomain, the domain redirects there and can then go', async () => {
    const refused = await call('DELETE', `/api/v1/domains/${DOMAIN}`, owner);
    expect(refused.statusCode).toBe(409);
    expect((await call('PUT', '/api/v1/domains/primary', owner, { host: HOST })).statusCode).toBe(200);
    expect((await call('GET', '/robots.txt', {}, undefined, HOST)).statusCode).toBe(200);
    const moved = await call('GET', '/', {}, undefined, DOMAIN);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`http://${HOST}/`);

    // Another store cannot touch it.
    const theirs = await call('DELETE', `/api/v1/domains/${DOMAIN}`, gardenOwner, undefined, GARDEN);
    expect(theirs.statusCode).toBe(404);

    expect((await call('DELETE', `/api/v1/domains/${DOMAIN}`, owner)).statusCode).toBe(200);
    expect(await domainOf(DOMAIN)).toBeUndefined();
    expect((await call('GET', '/robots.txt', {}, undefined, DOMAIN)).statusCode).toBe(404);
    expect((await ask(DOMAIN)).statusCode).toBe(404);
  });

  it('an apex whose AAAA record points elsewhere is not connected; its www is proven by the apex TXT record', async () => {
    const token = (await domainOf(APEX))?.records[0]?.value ?? '';
    zone.txt.set(`_storefront-verify.${APEX}`, [token]);
    zone.a.set(APEX, [A_TARGET]);
    zone.aaaa.set(APEX, ['2001:db8::99']);
    await recheck(APEX);
    const stale = await domainOf(APEX);
    expect(stale?.state).toBe('verified');
    expect(stale?.reason).toMatch(
      /DNS shows A 203\.0\.113\.7; AAAA 2001:db8::99\): create an A record to 203\.0\.113\.7 and an AAAA record to 2001:db8::7/,
    );
    zone.aaaa.set(APEX, [AAAA_TARGET]);
    await recheck(APEX);
    expect(await domainOf(APEX)).toMatchObject({ state: 'active', reason: '' });

    // www's first check found no TXT record at the apex; with it there and the CNAME made, www connects.
    expect(await domainOf(`www.${APEX}`)).toMatchObject({ state: 'failed' });
    zone.cname.set(`www.${APEX}`, `${CNAME_TARGET}.`);
    await recheck(`www.${APEX}`);
    expect(await domainOf(`www.${APEX}`)).toMatchObject({ state: 'active', reason: '' });
    const moved = await call('GET', '/robots.txt', {}, undefined, `www.${APEX}`);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`http://${HOST}/robots.txt`);
  });

  it('gives no certificate to a domain of a store that is not active', async () => {
    expect(await domainOf(APEX)).toMatchObject({ state: 'active' });
    expect((await ask(APEX)).statusCode).toBe(200);
    const operator: PlatformActor = { kind: 'operator', operatorId: 'op-x', email: 'ops@platform.localhost' };
    const suspended = await t.services.storeLifecycle.transition(operator, 'lighting', 'suspended', 'Domain test.');
    expect(suspended.ok).toBe(true);
    expect((await ask(APEX)).statusCode).toBe(404);
  });
});

const gardenCall = (method: Method, url: string, payload?: unknown) => call(method, url, gardenOwner, payload, GARDEN);
const gardenDomain = async () => {
  const res = await gardenCall('GET', '/api/v1/domains');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { domains: Domain[]; primaryHost: string };
};

describe('the daily re-check (decision 125)', () => {
  const SHOP = 'shop.garden-tools.com';
  const runDailyCheck = async () => {
    await makeScheduleDue(t, RECHECK_JOB);
    expect(await t.services.jobs.runSchedules()).toBeGreaterThanOrEqual(1);
    await t.services.jobs.drain();
  };
  const shop = async () => (await gardenDomain()).domains.find((d) => d.domain === SHOP);

  it('connects a verified domain once it points here, without the owner asking', async () => {
    smtp.received.length = 0;
    expect((await gardenCall('POST', '/api/v1/domains', { domain: SHOP })).statusCode).toBe(201);
    await t.services.jobs.drain();
    // The owner creates the TXT record first and checks again: proven, not pointing here yet.
    zone.txt.set(`_storefront-verify.${SHOP}`, [(await shop())?.records[0]?.value ?? '']);
    expect((await gardenCall('POST', `/api/v1/domains/${SHOP}/check`)).statusCode).toBe(202);
    await t.services.jobs.drain();
    expect(await shop()).toMatchObject({ state: 'verified' });
    zone.cname.set(SHOP, `${CNAME_TARGET}.`);
    // Proven but not pointing here is nothing to mail about; connected is, once.
    expect(gardenMails()).toEqual([]);
    await runDailyCheck();
    expect(await shop()).toMatchObject({ state: 'active', reason: '' });
    const [connected, ...more] = gardenMails();
    expect(more).toEqual([]);
    expect(connected?.subject).toMatch(/^shop\.garden-tools\.com is connected to /);
    expect(connected?.body).toContain(`http://${GARDEN}/manage-store/settings/domains`);
    expect((await gardenCall('PUT', '/api/v1/domains/primary', { host: SHOP })).statusCode).toBe(200);
  });

  it('keeps a domain whose record is gone serving through the grace period, and tells the owner what to fix', async () => {
    smtp.received.length = 0;
    zone.cname.set(SHOP, 'old-host.example.net.');
    await runDailyCheck();
    const lapsed = await shop();
    expect(lapsed).toMatchObject({ state: 'active', isPrimary: true });
    expect(lapsed?.reason).toBe(
      `The domain no longer points at your store (DNS shows CNAME old-host.example.net): create a CNAME record to ${CNAME_TARGET}.`,
    );
    const since = Date.parse(lapsed?.lapsedAt ?? '');
    expect(Date.parse(lapsed?.disconnectsAt ?? '') - since).toBe(GRACE_MS);
    // The owner is told by mail: what is wrong, what to create, and the day it stops, with a link
    // through the platform subdomain (the domain itself may not reach the store).
    const [warning, ...more] = gardenMails();
    expect(more).toEqual([]);
    expect(warning?.subject).toMatch(/^Action needed: shop\.garden-tools\.com will be disconnected from /);
    expect(warning?.body).toContain(
      '(DNS shows CNAME old-host.example.net): create a CNAME record to shops.localhost.',
    );
    expect(warning?.body).toContain('- CNAME record named shop.garden-tools.com with the value shops.localhost');
    const disconnects = new Date(since + GRACE_MS);
    expect(warning?.body).toContain(
      `until ${new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' }).format(disconnects)} UTC`,
    );
    expect(warning?.body).toContain(`http://${GARDEN}/manage-store/settings/domains`);
    // Still the store's, certificate included.
    expect((await call('GET', '/robots.txt', {}, undefined, SHOP)).statusCode).toBe(200);
    expect((await ask(SHOP)).statusCode).toBe(200);
    // The next day it is still gone: the clock does not start again.
    await runDailyCheck();
    expect((await shop())?.lapsedAt).toBe(lapsed?.lapsedAt);
    // ... and no second mail: the owner was told once.
    expect(gardenMails()).toHaveLength(1);

    // The owner fixes it and presses Check again: nothing left to tell.
    zone.cname.set(SHOP, `${CNAME_TARGET}.`);
    const res = await gardenCall('POST', `/api/v1/domains/${SHOP}/check`);
    expect(res.statusCode, res.body).toBe(202);
    await t.services.jobs.drain();
    expect(await shop()).toMatchObject({ state: 'active', reason: '', lapsedAt: null, disconnectsAt: null });
  });

  it('disconnects it once the grace period is over: the platform subdomain is primary again', async () => {
    smtp.received.length = 0;
    zone.cname.delete(SHOP);
    await runDailyCheck();
    expect((await shop())?.lapsedAt).not.toBeNull();
    // Three days pass.
    await t.database.db
      .update(schema.storeDomains)
      .set({ lapsedAt: new Date(Date.now() - GRACE_MS - 60_000) })
      .where(and(eq(schema.storeDomains.tenantId, 'garden'), eq(schema.storeDomains.domain, SHOP)));
    await runDailyCheck();
    const gone = await gardenDomain();
    const row = gone.domains.find((d) => d.domain === SHOP);
    // The TXT record is still there: the domain stays the owner's, just not connected.
    expect(row).toMatchObject({ state: 'verified', isPrimary: false, lapsedAt: null });
    expect(row?.reason).toMatch(/^Disconnected: The domain no longer points at your store \(DNS shows no record\)/);
    expect(gone.primaryHost).toBe(GARDEN);
    expect((await call('GET', '/robots.txt', {}, undefined, SHOP)).statusCode).toBe(404);
    expect((await ask(SHOP)).statusCode).toBe(404);
    expect((await call('GET', '/robots.txt', {}, undefined, GARDEN)).statusCode).toBe(200);
    expect(await auditEntries(t.database.db, 'garden', 'domain')).toBeGreaterThanOrEqual(2);
    // Two mails: the records went missing (again), then it was disconnected.
    const [warning, disconnected, ...more] = gardenMails();
    expect(more).toEqual([]);
    expect(warning?.subject).toMatch(/^Action needed: /);
    expect(disconnected?.subject).toMatch(/^shop\.garden-tools\.com was disconnected from /);
    expect(disconnected?.body).toContain('The domain no longer points at your store (DNS shows no record)');
    expect(disconnected?.body).toContain(`primary domain is ${GARDEN} again`);
    await runDailyCheck();
    expect(gardenMails()).toHaveLength(2);
  });

  it('enqueues a re-check only in the stores that have a domain of their own', async () => {
    await makeScheduleDue(t, RECHECK_JOB);
    await t.services.jobs.runSchedules();
    const jobs = await t.database.db
      .selectDistinct({ tenantId: schema.jobs.tenantId })
      .from(schema.jobs)
      // Pending: this run's, or (the job key keeps one per store) a suspended store's held one.
      .where(and(eq(schema.jobs.type, RECHECK_JOB), eq(schema.jobs.status, 'pending')));
    const withDomains = await t.database.db
      .selectDistinct({ tenantId: schema.storeDomains.tenantId })
      .from(schema.storeDomains);
    const tenants = (rows: { tenantId: string }[]) => rows.map((r) => r.tenantId).sort();
    // The seed's stores but one have a domain by now; power, with none, gets no daily job.
    expect(tenants(withDomains)).not.toContain('power');
    expect(tenants(jobs)).toEqual(tenants(withDomains));
    expect(tenants(jobs).length).toBeGreaterThan(0);
    await t.services.jobs.drain();
  });
});

describe('a domain not connected yet is checked again by itself (decision 125, later)', () => {
  const SEEDS = 'shop.garden-seeds.com';
  const BULBS = 'shop.garden-bulbs.com';
  const domainNamed = async (name: string) => (await gardenDomain()).domains.find((d) => d.domain === name);
  const dueChecksOf = (name: string) =>
    and(
      eq(schema.jobs.tenantId, 'garden'),
      eq(schema.jobs.type, DUE_CHECK_JOB),
      eq(schema.jobs.status, 'pending'),
      like(schema.jobs.key, `${name} %`),
    );
  const pendingDueChecks = (name: string) => t.database.db.select().from(schema.jobs).where(dueChecksOf(name));
  /** The time the store's next checks wait for passes. */
  const runDueChecks = async (name: string) => {
    await t.database.db
      .update(schema.jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(dueChecksOf(name));
    await t.services.jobs.drain();
  };
  const waitAfterCheck = (d: Domain | undefined) => Date.parse(d?.nextCheckAt ?? '') - Date.parse(d?.checkedAt ?? '');
  const startedAgo = (name: string, ms: number) =>
    t.database.db
      .update(schema.storeDomains)
      .set({ checksFrom: new Date(Date.now() - ms) })
      .where(and(eq(schema.storeDomains.tenantId, 'garden'), eq(schema.storeDomains.domain, name)));

  it('connects a domain added before its records existed, once they do, at the next check', async () => {
    expect((await gardenCall('POST', '/api/v1/domains', { domain: SEEDS })).statusCode).toBe(201);
    await t.services.jobs.drain();
    const failed = await domainNamed(SEEDS);
    expect(failed).toMatchObject({ state: 'failed' });
    // Checked again in ten minutes, and the page says when.
    expect(waitAfterCheck(failed)).toBe(DUE_CHECKS.firstHourEveryMs);
    expect(await pendingDueChecks(SEEDS)).toHaveLength(1);

    // The owner creates the records at the DNS provider and does nothing else.
    zone.txt.set(`_storefront-verify.${SEEDS}`, [failed?.records[0]?.value ?? '']);
    zone.cname.set(SEEDS, `${CNAME_TARGET}.`);
    smtp.received.length = 0;
    await runDueChecks(SEEDS);
    expect(await domainNamed(SEEDS)).toMatchObject({ state: 'active', reason: '', nextCheckAt: null });
    expect(gardenMails().map((m) => m.subject)).toEqual([
      expect.stringMatching(/^shop\.garden-seeds\.com is connected to /),
    ]);
    expect((await call('GET', '/robots.txt', {}, undefined, SEEDS)).statusCode).toBe(301);
  });

  it('checks hourly after the first hour, stops after 72 hours, and starts again when the owner presses Check again', async () => {
    expect((await gardenCall('POST', '/api/v1/domains', { domain: BULBS })).statusCode).toBe(201);
    await t.services.jobs.drain();
    await startedAgo(BULBS, 2 * 60 * 60_000);
    await runDueChecks(BULBS);
    const hourly = await domainNamed(BULBS);
    expect(hourly).toMatchObject({ state: 'failed' });
    expect(waitAfterCheck(hourly)).toBe(DUE_CHECKS.thenEveryMs);

    // The last check of the 72 hours: it stays failed, and nothing is due any more.
    await startedAgo(BULBS, DUE_CHECKS.forMs - 30 * 60_000);
    await runDueChecks(BULBS);
    expect(await domainNamed(BULBS)).toMatchObject({ state: 'failed', nextCheckAt: null });
    expect(await pendingDueChecks(BULBS)).toEqual([]);

    // The owner presses Check again: checked now, and on the backoff again from now.
    expect((await gardenCall('POST', `/api/v1/domains/${BULBS}/check`)).statusCode).toBe(202);
    await t.services.jobs.drain();
    const again = await domainNamed(BULBS);
    expect(again).toMatchObject({ state: 'failed' });
    expect(waitAfterCheck(again)).toBe(DUE_CHECKS.firstHourEveryMs);
  });

  it('a check the owner has since run in its place does nothing when its time comes', async () => {
    const before = await domainNamed(BULBS);
    // Check again moves the next check: the job for the old time finds the row no longer names it.
    expect((await gardenCall('POST', `/api/v1/domains/${BULBS}/check`)).statusCode).toBe(202);
    await t.services.jobs.drain();
    const after = await domainNamed(BULBS);
    expect(after?.nextCheckAt).not.toBe(before?.nextCheckAt);
    await runDueChecks(BULBS);
    const [stale] = await t.database.db
      .select()
      .from(schema.jobs)
      .where(and(eq(schema.jobs.type, DUE_CHECK_JOB), eq(schema.jobs.key, `${BULBS} ${before?.nextCheckAt ?? ''}`)));
    expect(stale).toMatchObject({ status: 'succeeded', result: { skipped: true } });
  });
});
