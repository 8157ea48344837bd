import { fileURLToPath } from 'node:url';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { createStaff } from '../../../test/staff';

// The Categories pages' form posts (React Router's actions through the page server), as a browser
// without JavaScript sends them. Needs the web build: npm run build -w @app/web.

const webBuildDir = fileURLToPath(new URL('../../../../../web/build', import.meta.url));
const host = 'garden.localhost';
const origin = `http://${host}`;
const LIST = '/manage-store/categories';

let t: TestApp;
let owner: BrowserSession;
beforeAll(async () => {
  t = await createTestApp({ webBuildDir });
  owner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', host);
});
afterAll(() => t.close());

function post(url: string, fields: Record<string, string>, session: BrowserSession | null = owner, csrf = true) {
  const body = new URLSearchParams({ ...(csrf && session ? { _csrf: session['x-csrf-token'] } : {}), ...fields });
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      host,
      origin,
      'content-type': 'application/x-www-form-urlencoded',
      ...(session ? { cookie: session.cookie } : {}),
    },
    payload: body.toString(),
  });
}

const category = async (id: string) =>
  (
    await t.database.db
      .select()
      .from(schema.categories)
      .where(and(eq(schema.categories.tenantId, 'garden'), eq(schema.categories.productCategoryId, id)))
  )[0];

describe('the Categories pages without JavaScript', () => {
  it('shows the catalogs and their trees to the owner', async () => {
    const res = await t.app.inject({ url: LIST, headers: { host, cookie: owner.cookie } });
    expect(res.statusCode).toBe(200);
    for (const text of ['Plants &amp; Seeds', 'Easy-Care Plants', 'Inside Houseplants', 'Move Houseplants up']) {
      expect(res.body).toContain(text);
    }
  });

  it('creates a category at a catalog top; a refused one keeps what was typed and names the field', async () => {
    const refused = await post(`${LIST}/new`, {
      intent: 'save',
      categoryName: '',
      description: 'Typed text',
      place: 'catalog:GRD_LIVING',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('categoryName is required.');
    expect(refused.body).toContain('Typed text');

    const res = await post(`${LIST}/new`, {
      intent: 'save',
      categoryName: 'Posted Plainly',
      place: 'catalog:GRD_LIVING',
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${LIST}?done=created`);
    expect(await category('POSTED_PLAINLY')).toMatchObject({ categoryName: 'Posted Plainly' });
  });

  it('moves with the Move to form, refuses a cycle with the reason, and asks for a place when none is chosen', async () => {
    const moved = await post(LIST, {
      intent: 'move',
      productCategoryId: 'GRD_HERBS',
      from: 'catalog:GRD_PLANTS',
      to: 'parent:GRD_VEG_SEEDS',
    });
    expect(moved.statusCode).toBe(200);
    const links = await t.database.db
      .select()
      .from(schema.categoryRollups)
      .where(
        and(eq(schema.categoryRollups.tenantId, 'garden'), eq(schema.categoryRollups.productCategoryId, 'GRD_HERBS')),
      );
    expect(links.map((l) => l.parentProductCategoryId)).toEqual(['GRD_VEG_SEEDS']);
    const tops = await t.database.db
      .select()
      .from(schema.catalogCategories)
      .where(
        and(
          eq(schema.catalogCategories.tenantId, 'garden'),
          eq(schema.catalogCategories.productCategoryId, 'GRD_HERBS'),
        ),
      );
    expect(tops).toEqual([]);
    const cycle = await post(LIST, {
      intent: 'move',
      productCategoryId: 'GRD_VEG_SEEDS',
      from: 'catalog:GRD_PLANTS',
      to: 'parent:GRD_HERBS',
    });
    expect(cycle.statusCode).toBe(409);
    expect(cycle.body).toContain('would make a loop');
    const none = await post(LIST, { intent: 'move', productCategoryId: 'GRD_HERBS', from: 'parent:GRD_VEG_SEEDS' });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Choose where to move it.');
  });

  it('refuses to delete a category with products, showing the reason', async () => {
    const res = await post(`${LIST}/GRD_PRUNERS`, { intent: 'delete' });
    expect(res.statusCode).toBe(409);
    expect(res.body).toMatch(/still has \d+ products; move or remove them first/);
    expect(await category('GRD_PRUNERS')).toBeDefined();
  });

  it('refuses a post without the CSRF token, sends visitors to log in, and shows staff without the permission the 403 page', async () => {
    expect((await post(`${LIST}/new`, { intent: 'save', categoryName: 'No Token' }, owner, false)).statusCode).toBe(
      403,
    );
    const visitor = await post(`${LIST}/new`, { intent: 'save', categoryName: 'Visitor' }, null);
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toMatch(/^\/auth\/login\?redirectUrl=/);
    await createStaff(t.database, 'garden', 'pages-orders@garden.test', ['orders']);
    const staff = await signIn(t.app, 'pages-orders@garden.test', 'owner-demo-1', host);
    expect((await t.app.inject({ url: LIST, headers: { host, cookie: staff.cookie } })).statusCode).toBe(403);
    expect((await post(`${LIST}/new`, { intent: 'save', categoryName: 'Staff' }, staff)).statusCode).toBe(403);
    expect(await category('NO_TOKEN')).toBeUndefined();
    expect(await category('VISITOR')).toBeUndefined();
    expect(await category('STAFF')).toBeUndefined();
  });
});
