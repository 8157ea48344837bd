/**
 * `npm run bench:signup`: how long a merchant waits from confirming a sign-up to a live store
 * (decision 103; target under 5 s), against the production server on a fresh PGlite (or DATABASE_URL).
 * For BENCH_SIGNUPS sign-ups (default 20), half with the demo catalog: the confirmation (provisioning
 * in one transaction), the first answer of the new host as its store, and the one-time sign-in link
 * followed to the dashboard's first page, rendered. Prints p50, p95 and the slowest of each.
 * A benchmark: it prints figures only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fetchBody, startServer, stopServer } from './lib';

const PORT = Number(process.env.BENCH_PORT ?? 3479);
const SIGNUPS = Number(process.env.BENCH_SIGNUPS ?? 20);
const DATA_DIR = `.bench/data-${PORT}`;
const PLATFORM = 'platform.localhost';

const json = { 'content-type': 'application/json' };

function tokenFor(email: string): string | null {
  let files: string[] = [];
  try {
    files = readdirSync(join(DATA_DIR, 'outbox'));
  } catch {
    return null;
  }
  for (const f of files) {
    const raw = readFileSync(join(DATA_DIR, 'outbox', f), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    if (!raw.includes(`To: ${email}`)) continue;
    const m = raw.match(/\/signup\/confirm\?token=([A-Za-z0-9_-]+)/);
    if (m?.[1]) return m[1];
  }
  return null;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0);
};

async function main() {
  const server = await startServer(PORT, { TRUST_PROXY: 'true', LOG_LEVEL: 'error' });
  const confirmMs: number[] = [];
  const liveMs: number[] = [];
  const dashboardMs: number[] = [];
  try {
    for (let i = 0; i < SIGNUPS; i++) {
      const subdomain = `bench-${Date.now().toString(36)}-${i}`;
      const email = `bench-${i}-${Date.now().toString(36)}@example.com`;
      const asked = await fetchBody(
        PORT,
        '/platform-api/signup',
        PLATFORM,
        'POST',
        JSON.stringify({
          storeName: `Bench Store ${i}`,
          subdomain,
          email,
          password: 'bench-store-password-1',
          starter: i % 2 ? 'demo' : 'empty',
        }),
        // One address per sign-up: the per-address limit is not what is measured.
        { ...json, 'x-forwarded-for': `10.9.${Math.floor(i / 250)}.${i % 250}` },
      );
      if (asked.status !== 202) throw new Error(`sign-up ${i}: ${asked.status} ${asked.body}`);
      let token: string | null = null;
      for (let tries = 0; !token && tries < 100; tries++) {
        token = tokenFor(email);
        if (!token) await new Promise((r) => setTimeout(r, 20));
      }
      if (!token) throw new Error(`no mail for ${email}`);

      const started = performance.now();
      const confirmed = await fetchBody(
        PORT,
        '/platform-api/signup/confirm',
        PLATFORM,
        'POST',
        JSON.stringify({ token }),
        json,
      );
      if (confirmed.status !== 200) throw new Error(`confirm ${i}: ${confirmed.status} ${confirmed.body}`);
      confirmMs.push(performance.now() - started);
      const { host, signInUrl, tenantId } = JSON.parse(confirmed.body.toString()).data;
      // Live: the host answers as the new store.
      for (;;) {
        const r = await fetchBody(PORT, `/api/fetch/tenant?tenantId=${tenantId}`, host);
        if (r.status === 200) break;
        if (performance.now() - started > 30_000) throw new Error(`${host} not live after 30 s`);
        await new Promise((res) => setTimeout(res, 10));
      }
      liveMs.push(performance.now() - started);
      const link = new URL(signInUrl);
      const signedIn = await fetchBody(PORT, `${link.pathname}${link.search}`, host);
      const cookie = String(signedIn.headers['set-cookie'] ?? '').split(';')[0] ?? '';
      const dashboard = await fetchBody(PORT, '/manage-store', host, 'GET', undefined, { cookie });
      if (dashboard.status !== 200) throw new Error(`dashboard of ${host}: ${dashboard.status}`);
      dashboardMs.push(performance.now() - started);
    }
  } finally {
    await stopServer(server);
  }
  const row = (name: string, xs: number[]) => ({
    step: name,
    'p50 ms': pct(xs, 50),
    'p95 ms': pct(xs, 95),
    'max ms': Math.round(Math.max(...xs)),
  });
  console.log(
    `${SIGNUPS} sign-ups confirmed on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'} (target: live within 5,000 ms)`,
  );
  console.table([
    row('confirm answered (store provisioned)', confirmMs),
    row('new host answers as the store', liveMs),
    row('signed in, dashboard rendered', dashboardMs),
  ]);
}

await main();
