import { fileURLToPath } from 'node:url';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CarrierStandIn, startCarrierStandIn } from '../../test/carrier-stand-in';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';

// The Carriers settings page's form posts (React Router's action through the page server), as a
// browser without JavaScript sends them (decision 117). Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../web/build', import.meta.url));
const host = 'lighting.localhost';
const origin = `http://${host}`;
const PAGE = '/manage-store/settings/carriers';
const FEDEX = { clientId: 'lighting-fedex-page', clientSecret: 'fedex-page-secret-Lm4', accountNumber: 'FDX55501' };

let t: TestApp;
let standIn: CarrierStandIn;
let owner: BrowserSession;
let catalogStaff: BrowserSession;

beforeAll(async () => {
  standIn = await startCarrierStandIn({ accounts: [FEDEX] });
  t = await createTestApp({ webBuildDir, config: { UPS_BASE_URL: standIn.url, FEDEX_BASE_URL: standIn.url } });
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', host);
  await createStaff(t.database, 'lighting', 'carriers-pages-catalog@lighting.test', ['catalog']);
  catalogStaff = await signIn(t.app, 'carriers-pages-catalog@lighting.test', 'owner-demo-1', host);
}, 180_000);
afterAll(async () => {
  await t?.close();
  await standIn?.close();
});

function post(fields: [string, string][], session: BrowserSession = owner) {
  return t.app.inject({
    method: 'POST',
    url: PAGE,
    headers: { host, origin, 'content-type': 'application/x-www-form-urlencoded', cookie: session.cookie },
    payload: new URLSearchParams([['_csrf', session['x-csrf-token']], ...fields]).toString(),
  });
}

async function row() {
  const ca = schema.carrierAccounts;
  const [r] = await t.database.db
    .select()
    .from(ca)
    .where(and(eq(ca.tenantId, 'lighting'), eq(ca.carrier, 'fedex')));
  return r;
}

describe('the Carriers page without JavaScript', () => {
  it('opens for the owner, not for staff without the settings permission', async () => {
    const page = await t.app.inject({ url: PAGE, headers: { host, cookie: owner.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Connect FedEx');
    const staff = await t.app.inject({ url: PAGE, headers: { host, cookie: catalogStaff.cookie } });
    expect(staff.statusCode).toBe(403);
    const refused = await post(
      [
        ['carrier', 'fedex'],
        ['intent', 'disconnect'],
      ],
      catalogStaff,
    );
    expect(refused.statusCode).toBe(403);
  });

  it('says a refused secret next to its box, keeps what was typed but never the secret', async () => {
    const res = await post([
      ['carrier', 'fedex'],
      ['intent', 'connect'],
      ['clientId', FEDEX.clientId],
      ['clientSecret', 'wrong-secret-Zz9'],
      ['accountNumber', FEDEX.accountNumber],
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('FedEx refused this client id and secret.');
    expect(res.body).toContain(FEDEX.clientId);
    expect(res.body).not.toContain('wrong-secret-Zz9');
    expect(await row()).toBeUndefined();
    const short = await post([
      ['carrier', 'fedex'],
      ['intent', 'connect'],
      ['clientId', FEDEX.clientId],
      ['clientSecret', FEDEX.clientSecret],
      ['accountNumber', '12'],
    ]);
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Must be 6 to 12 letters or digits.');
  });

  it('connects, then saves services, a fixed markup typed as money, and the box; disconnects', async () => {
    const connected = await post([
      ['carrier', 'fedex'],
      ['intent', 'connect'],
      ['clientId', FEDEX.clientId],
      ['clientSecret', FEDEX.clientSecret],
      ['accountNumber', FEDEX.accountNumber],
    ]);
    expect(connected.statusCode).toBe(200);
    expect(connected.body).toContain('Connected, account ending 5501');
    expect(connected.body).not.toContain(FEDEX.clientSecret);

    const badAmount = await post([
      ['carrier', 'fedex'],
      ['intent', 'settings'],
      ['services', 'FEDEX_GROUND'],
      ['markupKind', 'fixed'],
      ['markupAmount', '2.505'],
      ['lengthIn', '10'],
      ['widthIn', '8'],
      ['heightIn', '4'],
    ]);
    expect(badAmount.statusCode).toBe(400);
    expect((await row())?.markupKind).toBe('none');

    const saved = await post([
      ['carrier', 'fedex'],
      ['intent', 'settings'],
      ['services', 'FEDEX_GROUND'],
      ['services', 'FEDEX_2_DAY'],
      ['markupKind', 'fixed'],
      ['markupAmount', '2.50'],
      ['lengthIn', '10'],
      ['widthIn', '8'],
      ['heightIn', '4'],
    ]);
    expect(saved.statusCode).toBe(200);
    expect(await row()).toMatchObject({
      services: ['FEDEX_GROUND', 'FEDEX_2_DAY'],
      markupKind: 'fixed',
      markupValue: 250,
      boxLengthIn: 10,
      boxWidthIn: 8,
      boxHeightIn: 4,
    });

    const gone = await post([
      ['carrier', 'fedex'],
      ['intent', 'disconnect'],
    ]);
    expect(gone.statusCode).toBe(200);
    expect(await row()).toBeUndefined();
  });
});
