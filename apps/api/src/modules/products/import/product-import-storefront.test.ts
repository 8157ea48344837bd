import { fileURLToPath } from 'node:url';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { csvFile } from '../../../test/product-csv-fixture';

// Decision 074: the shopper's side: a description is stored as the owner
// wrote it and made safe when the product page renders it, so `&` reads `&` there, whether it came
// from a CSV, the editor's HTML, or an earlier import that stored `&amp;`. Needs the web build
// (npm run build -w @app/web).

const webBuildDir = fileURLToPath(new URL('../../../../../web/build', import.meta.url));
const host = 'garden.localhost';
const BASE = '/skulocity/api/v1/catalog/products/import';

let t: TestApp;
let owner: BrowserSession;
beforeAll(async () => {
  t = await createTestApp({ webBuildDir });
  owner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', host);
}, 180_000);
afterAll(() => t?.close());

const product = async (sku: string) => {
  const [p] = await t.database.db
    .select()
    .from(schema.products)
    .where(and(eq(schema.products.tenantId, 'garden'), eq(schema.products.sku, sku)));
  if (!p) throw new Error(`no product ${sku}`);
  return p;
};

/** The product page as a shopper's browser gets it: the description's markup and its text as shown. */
async function productPage(sku: string) {
  const p = await product(sku);
  const res = await t.app.inject({ url: `/${p.slug}/${p.productId}`, headers: { host } });
  expect(res.statusCode).toBe(200);
  const markup = /data-testid="description"[^>]*>([\s\S]*?)<\/div>/.exec(res.body)?.[1] ?? '';
  const shown = markup
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
  const jsonLd = [...res.body.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] as string) as { '@type': string; description?: string },
  );
  // The page without its scripts (the app's data holds the description's markup, escaped for JSON).
  const visible = res.body.replace(/<script[\s\S]*?<\/script>/g, '');
  return { visible, markup, shown, product: jsonLd.find((d) => d['@type'] === 'Product') };
}

async function importCsv(csv: string) {
  const headers = { host, origin: `http://${host}`, ...owner };
  const up = await t.app.inject({
    method: 'POST',
    url: `${BASE}?fileName=products.csv`,
    headers: { ...headers, 'content-type': 'text/csv' },
    payload: csv,
  });
  expect(up.statusCode, up.body).toBe(201);
  const { importId } = (up.json() as { data: { importId: string } }).data;
  expect((await t.app.inject({ method: 'POST', url: `${BASE}/${importId}/run`, headers })).statusCode).toBe(202);
  await t.services.jobs.drain({ timeoutMs: 60_000, dueWithinMs: 0 });
}

describe('the product page after an import', { timeout: 120_000 }, () => {
  it('shows & as & (not &amp;) in the description and the structured data', async () => {
    await importCsv(
      csvFile(
        [
          {
            sku: 'SF-AMP',
            name: 'Lamp by Halden & Co.',
            list_price: '12.50',
            description: 'The Lamp by Halden & Co. Statement light.\n\nSize < 40 cm & > 20 cm; "really", it\'s bright.',
          },
        ],
        { columns: ['sku', 'name', 'list_price', 'description'] },
      ),
    );
    expect((await product('SF-AMP')).description).toBe(
      'The Lamp by Halden & Co. Statement light.\n\nSize < 40 cm & > 20 cm; "really", it\'s bright.',
    );
    const page = await productPage('SF-AMP');
    expect(page.shown).toContain('The Lamp by Halden & Co. Statement light.');
    expect(page.shown).toContain('Size < 40 cm & > 20 cm; "really", it\'s bright.');
    // Two paragraphs, as the blank line made them.
    expect(page.markup.match(/<p>/g)).toHaveLength(2);
    // No short description: the structured data takes the description's text.
    expect(page.product?.description).toBe(
      'The Lamp by Halden & Co. Statement light. Size < 40 cm & > 20 cm; "really", it\'s bright.',
    );
    // Nowhere on the page (title, headings, text) is an entity shown as text.
    expect(page.visible).not.toContain('&amp;amp;');
  });

  it('reads a description an earlier import stored as `&amp;` as an ampersand', async () => {
    await t.database.db
      .update(schema.products)
      .set({ description: 'Made by Halden &amp; Co.\n\nSecond paragraph.' })
      .where(and(eq(schema.products.tenantId, 'garden'), eq(schema.products.sku, 'SF-AMP')));
    // Written by hand, so the caches are told as a writer would tell them.
    t.services.events.emit('catalog.changed', {
      tenantId: 'garden',
      productIds: [(await product('SF-AMP')).productId],
    });
    const page = await productPage('SF-AMP');
    expect(page.shown).toContain('Made by Halden & Co.');
    expect(page.visible).not.toContain('&amp;amp;');
  });

  it("renders the editor's HTML as HTML, and drops what the allow-list does not keep", async () => {
    await importCsv(
      csvFile(
        [
          {
            sku: 'SF-HTML',
            name: 'Brass lamp',
            list_price: '20.00',
            description: '<p>Solid <strong>brass</strong> &amp; glass.</p><ul><li>Dimmable</li></ul>',
          },
        ],
        { columns: ['sku', 'name', 'list_price', 'description'] },
      ),
    );
    const page = await productPage('SF-HTML');
    expect(page.markup).toContain('<p>Solid <strong>brass</strong> &amp; glass.</p><ul><li>Dimmable</li></ul>');
    expect(page.shown).toContain('Solid brass & glass.');
    // Something stored before the writer checked it (or by hand) still never reaches the page.
    await t.database.db
      .update(schema.products)
      .set({ description: '<p onclick="steal()">Hi</p><script>steal()</script><img src=x onerror="steal()">' })
      .where(and(eq(schema.products.tenantId, 'garden'), eq(schema.products.sku, 'SF-HTML')));
    t.services.events.emit('catalog.changed', {
      tenantId: 'garden',
      productIds: [(await product('SF-HTML')).productId],
    });
    const owned = await productPage('SF-HTML');
    expect(owned.markup).toBe('<p>Hi</p>');
  });
});
