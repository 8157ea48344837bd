import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { schema } from '@app/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsStandIn } from './test/dns-stand-in';
import { type BrowserSession, createTestApp, signIn, type TestApp } from './test/harness';

// Decision 121: deploy/Caddyfile in front of the app, with Caddy's internal certificate authority in
// place of Let's Encrypt. A store's verified (active) domain gets a certificate at its first visit and
// serves the store over HTTPS; a domain the app has not verified gets none; the platform's subdomains
// use the wildcard; plain HTTP goes to HTTPS. Debian's caddy must be installed (.ci/run installs it):
// without it this file fails, it is never skipped.

const CADDY = ['/usr/bin/caddy', '/usr/local/bin/caddy'].find((p) => existsSync(p));
const CADDYFILE = fileURLToPath(new URL('../../../deploy/Caddyfile', import.meta.url));
const DOMAIN = 'shop.bright-lamps.com';
const UNVERIFIED = 'unverified.bright-lamps.com';
const HOST = 'lighting.localhost';
/** The platform's domain here; the lighting store gets its subdomain on it below. */
const PLATFORM_DOMAIN = 'stores.test';
const SUBDOMAIN = `lighting.${PLATFORM_DOMAIN}`;

let t: TestApp;
let dns: Awaited<ReturnType<typeof startDnsStandIn>>;
let caddy: ChildProcess | undefined;
let caddyLog = '';
let work: string;
let appPort: number;
let httpPort: number;
let httpsPort: number;

/** A free port on 127.0.0.1 for Caddy, which cannot be told to pick one itself. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

type HttpsAnswer = { status: number; body: string; cert: PeerCertificate; headers: Record<string, unknown> };

/** GET over HTTPS to Caddy, as a browser asking for `host` would (SNI and Host), trusting Caddy's root. */
function getHttps(host: string, path: string, ca: string): Promise<HttpsAnswer> {
  return new Promise((done, fail) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port: httpsPort, path, servername: host, headers: { host }, ca, agent: false },
      (res) => {
        const cert = (res.socket as TLSSocket).getPeerCertificate();
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => done({ status: res.statusCode ?? 0, body, cert, headers: res.headers }));
      },
    );
    req.on('error', fail);
    req.end();
  });
}

function getHttp(host: string, path: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port: httpPort, path, headers: { host }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** Waits, by polling, until `ready` holds; fails with Caddy's log after `ms`. */
async function until(ms: number, ready: () => Promise<boolean> | boolean) {
  const started = Date.now();
  while (!(await ready())) {
    if (Date.now() - started > ms) throw new Error(`Caddy was not ready within ${ms} ms:\n${caddyLog}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const rootCert = () => join(work, 'data', 'caddy', 'pki', 'authorities', 'local', 'root.crt');

beforeAll(async () => {
  if (!CADDY) {
    throw new Error(
      "Caddy is not installed: this test runs deploy/Caddyfile with /usr/bin/caddy. Install Debian's package (apt-get install caddy); .ci/run does.",
    );
  }
  work = mkdtempSync(join(tmpdir(), 'caddy-test-'));
  dns = await startDnsStandIn();
  t = await createTestApp({
    modules: ['health', 'domains', 'store-lifecycle'],
    config: {
      DNS_RESOLVER: dns.address,
      DOMAIN_CNAME_TARGET: 'shops.localhost',
      PLATFORM_DOMAIN,
      // The proxy's address: the forwarded host and scheme are believed from it only.
      TRUST_PROXY: '127.0.0.1',
    },
  });
  // The store's platform subdomain, as sign-up gives a new store (the seeded ones are on .localhost).
  await t.database.db
    .insert(schema.storeHosts)
    .values({ hostName: SUBDOMAIN, tenantId: 'lighting', productStoreId: '9000' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app did not listen');
  appPort = address.port;

  // The owner connects a domain: its records are created, the check makes it active.
  const owner: BrowserSession = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  for (const domain of [DOMAIN, UNVERIFIED]) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/domains',
      headers: { host: HOST, origin: `http://${HOST}`, ...owner },
      payload: { domain },
    });
    if (res.statusCode !== 201) throw new Error(res.body);
    if (domain === DOMAIN) {
      dns.zone.txt.set(`_storefront-verify.${DOMAIN}`, [res.json().data.records[0].value]);
      dns.zone.cname.set(DOMAIN, 'shops.localhost');
    }
  }
  await t.services.jobs.drain();

  [httpPort, httpsPort] = [await freePort(), await freePort()];
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: work,
    XDG_DATA_HOME: join(work, 'data'),
    XDG_CONFIG_HOME: join(work, 'config'),
    // Caddy's own certificate authority in place of Let's Encrypt, its admin endpoint off, and its
    // root left out of the machine's trust store.
    CADDY_GLOBAL_OPTIONS: 'admin off\n\tskip_install_trust\n\tlocal_certs',
    HTTP_PORT: String(httpPort),
    HTTPS_PORT: String(httpsPort),
    HTTPS_PORT_SUFFIX: `:${httpsPort}`,
    PLATFORM_DOMAIN,
    APP_UPSTREAMS: `127.0.0.1:${appPort}`,
    APP_ASK: `127.0.0.1:${appPort}`,
    WILDCARD_CERT: 'internal',
    WILDCARD_KEY: '',
    ON_DEMAND_ISSUER: 'internal',
  };
  execFileSync(CADDY, ['validate', '--config', CADDYFILE, '--adapter', 'caddyfile'], { env, stdio: 'pipe' });
  caddy = spawn(CADDY, ['run', '--config', CADDYFILE, '--adapter', 'caddyfile'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  caddy.stdout?.on('data', (c) => {
    caddyLog += c;
  });
  caddy.stderr?.on('data', (c) => {
    caddyLog += c;
  });
  await until(15_000, () => existsSync(rootCert()) && caddyLog.includes('serving initial configuration'));
}, 60_000);

afterAll(async () => {
  if (caddy?.pid && caddy.exitCode === null) {
    const exited = new Promise((done) => caddy?.once('exit', done));
    caddy.kill('SIGTERM');
    await exited;
  }
  await t?.close();
  await dns?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('Caddy in front of the app (deploy/Caddyfile)', () => {
  it('gets a certificate for a verified domain at its first visit and serves its store over HTTPS', async () => {
    const ca = readFileSync(rootCert(), 'utf8');
    const res = await getHttps(DOMAIN, '/api/fetch/tenant?tenantId=lighting', ca);
    expect(res.status, res.body).toBe(200);
    expect(res.cert.subjectaltname).toBe(`DNS:${DOMAIN}`);
    expect(res.cert.issuer.CN).toMatch(/Caddy Local Authority/);
    const tenant = JSON.parse(res.body).data;
    expect(tenant.tenantId).toBe('lighting');
    expect(tenant.productStores[0].hostNames).toContain(DOMAIN);
    // The app saw the shopper's host and scheme through the proxy: it sends the page to the primary host.
    const page = await getHttps(DOMAIN, '/robots.txt', ca);
    expect(page.status).toBe(301);
  });

  it('gives no certificate to a domain the app has not verified', async () => {
    const ca = readFileSync(rootCert(), 'utf8');
    const refused = await getHttps(UNVERIFIED, '/', ca).then(
      () => null,
      (err: NodeJS.ErrnoException) => err,
    );
    expect(refused, 'the handshake should fail').not.toBeNull();
    const issued = join(work, 'data', 'caddy', 'certificates', 'local');
    expect(existsSync(join(issued, DOMAIN))).toBe(true);
    expect(existsSync(join(issued, UNVERIFIED))).toBe(false);
  });

  it('serves the platform subdomains with the wildcard certificate and refuses the certificate question from outside', async () => {
    const ca = readFileSync(rootCert(), 'utf8');
    const res = await getHttps(SUBDOMAIN, '/api/fetch/tenant?tenantId=lighting', ca);
    expect(res.status, res.body).toBe(200);
    expect(res.cert.subjectaltname).toContain(`DNS:*.${PLATFORM_DOMAIN}`);
    expect(JSON.parse(res.body).data.tenantId).toBe('lighting');
    const ask = await getHttps(DOMAIN, `/internal/tls/ask?domain=${DOMAIN}`, ca);
    expect(ask.status).toBe(404);
  });

  it('sends plain HTTP to HTTPS', async () => {
    const res = await getHttp(DOMAIN, '/products?page=2');
    expect(res.status).toBe(308);
    expect(res.location).toBe(`https://${DOMAIN}:${httpsPort}/products?page=2`);
  });
});
