import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, type SeededTenant, type TestApp } from '../../test/harness';
import { auditEntries, ownerCaller, signInOwners } from '../../test/owners';

/**
 * What the API reads can be written back, for CMS pages: one page as
 * `GET /api/v1/cms/fetch?pageUrl=` answers it, sent back to its update, is taken (2xx) and changes
 * nothing (no draft, no audit entry); the update is a patch; read-only fields sent different, and
 * unknown fields, are refused naming them; another store's owner gets a 404 whatever the body.
 */
let t: TestApp;
const owners = {} as Record<SeededTenant, BrowserSession>;

beforeAll(async () => {
  t = await createTestApp();
  await signInOwners(t.app, owners, ['lighting', 'garden']);
});
afterAll(() => t?.close());

const call = ownerCaller(() => t.app, owners);

const auditCount = (tenant: string) => auditEntries(t.database.db, tenant);

type Page = { id: string; pageUrl: string; pageTitle: string; status: string; updatedAt: string };

async function readPage(pageUrl: string): Promise<Page> {
  const res = await call('lighting', 'GET', `/api/v1/cms/fetch?pageUrl=${pageUrl}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data[0];
}

async function firstPage(): Promise<Page> {
  const list = (await call('lighting', 'GET', '/api/v1/cms/fetch')).json().data as Page[];
  expect(list.length).toBeGreaterThan(0);
  return readPage((list[0] as Page).pageUrl);
}

describe('CMS pages: read, then write back', () => {
  it('a page as read, written back, changes nothing', async () => {
    const read = await firstPage();
    const before = await auditCount('lighting');
    const res = await call('lighting', 'PUT', `/api/v1/cms/update/${read.id}`, read);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe(read.status);
    expect(await auditCount('lighting')).toBe(before);
    // No draft was made: the page reads as it did, updatedAt and status included.
    expect(await readPage(read.pageUrl)).toEqual(read);
  });

  it('an update naming only the title changes only the title', async () => {
    const first = await firstPage();
    const placed = await call('lighting', 'PUT', `/api/v1/cms/update/${first.id}`, { ...first, sequenceNum: 7 });
    expect(placed.statusCode, placed.body).toBe(200);
    const read = await readPage(first.pageUrl);
    const res = await call('lighting', 'PUT', `/api/v1/cms/update/${read.id}`, { pageTitle: 'Only the title' });
    expect(res.statusCode, res.body).toBe(200);
    const { pageTitle, status, updatedAt, ...rest } = await readPage(read.pageUrl);
    const { pageTitle: _t, status: _s, updatedAt: _u, ...restBefore } = read;
    expect(pageTitle).toBe('Only the title');
    expect(rest).toEqual(restBefore);
    // The order, which the read does not show, is kept too.
    expect(res.json().data.page.sequenceNum).toBe(7);
  });

  it('a read-only field sent different is refused, naming it', async () => {
    const read = await firstPage();
    for (const field of ['status', 'updatedAt', 'id', 'productStoreId'] as const) {
      const res = await call('lighting', 'PUT', `/api/v1/cms/update/${read.id}`, { ...read, [field]: 'other' });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().message).toMatch(new RegExp(field));
    }
  });

  it('an unknown field is refused', async () => {
    const read = await firstPage();
    const res = await call('lighting', 'PUT', `/api/v1/cms/update/${read.id}`, { ...read, pageTitel: 'Typo' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/pageTitel/);
  });

  it("another store's owner gets a 404 whatever the body", async () => {
    const read = await firstPage();
    for (const body of [{ pageTitle: 'x' }, { sequenceNum: 'x' }, 'not json at all']) {
      const res = await call('garden', 'PUT', `/api/v1/cms/update/${read.id}`, body);
      expect(res.statusCode, res.body).toBe(404);
    }
  });
});
