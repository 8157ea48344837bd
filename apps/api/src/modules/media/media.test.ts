import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { createDiskStorage } from './media.storage';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (url: string, host: string) => t.app.inject({ url, headers: { host } });
const BANNER = '/media/seed/garden/banners/grd-banner-1.webp';

describe('GET /media/*', () => {
  it('serves the original with long-lived public caching', async () => {
    const res = await get(BANNER, 'garden.localhost');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(1600);
  });

  it('serves a narrower WebP for ?w= and never enlarges', async () => {
    const small = await get(`${BANNER}?w=480`, 'garden.localhost');
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-type']).toBe('image/webp');
    expect((await sharp(small.rawPayload).metadata()).width).toBe(480);
    expect(small.rawPayload.length).toBeLessThan((await get(BANNER, 'garden.localhost')).rawPayload.length);
    // Served again from storage: the same bytes.
    expect((await get(`${BANNER}?w=480`, 'garden.localhost')).rawPayload.equals(small.rawPayload)).toBe(true);

    const logo = '/media/seed/garden/products/grd-1001-small.webp';
    expect((await sharp((await get(`${logo}?w=1600`, 'garden.localhost')).rawPayload).metadata()).width).toBe(400);
  });

  it('answers many requests at once for a size not made yet, each with the same picture', async () => {
    const url = '/media/seed/garden/banners/grd-banner-2.webp?w=160';
    const all = await Promise.all(Array.from({ length: 6 }, () => get(url, 'garden.localhost')));
    expect(all.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(all.every((r) => r.rawPayload.equals(all[0]?.rawPayload as Buffer))).toBe(true);
    expect((await sharp(all[0]?.rawPayload).metadata()).width).toBe(160);
  });

  it('stores one key written eight times at once, whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'media-put-'));
    try {
      const storage = createDiskStorage(dir);
      const bodies = Array.from({ length: 8 }, (_, i) => Buffer.alloc(200_000, i + 1));
      await Promise.all(bodies.map((body) => storage.put('t/x/m/same.webp', { body, contentType: 'image/webp' })));
      const got = await storage.get('t/x/m/same.webp');
      expect(bodies.some((body) => got?.body.equals(body))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a width outside the list, naming w', async () => {
    const res = await get(`${BANNER}?w=333`, 'garden.localhost');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('querystring.w');
  });

  it("keeps a store's media to its own hosts, for variants too", async () => {
    expect((await get(`${BANNER}?w=480`, 'lighting.localhost')).statusCode).toBe(404);
    expect((await get('/media/seed/garden/banners/nothing.webp?w=480', 'garden.localhost')).statusCode).toBe(404);
  });
});
