import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { MEDIA_UPLOAD_MAX_BYTES } from '@app/contracts';
import { schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStaff } from '../../test/staff';
import { detectImageFormat } from './index';

let t: TestApp;
let owner: BrowserSession;
let gardenOwner: BrowserSession;
let shopper: BrowserSession;
let catalogStaff: BrowserSession;
const HOST = 'lighting.localhost';

beforeAll(async () => {
  t = await createTestApp();
  owner = await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST);
  gardenOwner = await signIn(t.app, 'owner@garden.test', 'owner-demo-1', 'garden.localhost');
  shopper = await signIn(t.app, 'shopper@lighting.test', 'shopper-demo-1', HOST);
  await createStaff(t.database, 'lighting', 'catalog-only@lighting.test', ['catalog']);
  catalogStaff = await signIn(t.app, 'catalog-only@lighting.test', 'owner-demo-1', HOST);
});
afterAll(() => t.close());

/** A multipart body with one file, as a browser's FormData sends it. */
function form(file: Buffer | null, opts: { name?: string; type?: string; fields?: Record<string, string> } = {}) {
  const boundary = `----sf${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(opts.fields ?? {})) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${opts.name ?? 'photo.png'}"\r\n` +
          `Content-Type: ${opts.type ?? 'image/png'}\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

function upload(
  file: Buffer | null,
  opts: Parameters<typeof form>[1] & { session?: BrowserSession | null; host?: string } = {},
) {
  const { payload, contentType } = form(file, opts);
  const host = opts.host ?? HOST;
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/media/upload',
    headers: {
      host,
      origin: `http://${host}`,
      'content-type': contentType,
      ...(opts.session === null ? {} : (opts.session ?? owner)),
    },
    payload,
  });
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .png()
    .toBuffer();

/** A PNG whose header claims `width` × `height` with almost no data: a pixel flood. */
function floodPng(width: number, height: number) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(width * 3 + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const SVG = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);

async function auditOf(mediaId: string) {
  const a = schema.auditLog;
  return t.database.db
    .select()
    .from(a)
    .where(and(eq(a.tenantId, 'lighting'), eq(a.entity, 'media'), eq(a.entityId, mediaId)));
}

describe('detectImageFormat', () => {
  it('tells formats by their bytes', async () => {
    const base = sharp({ create: { width: 4, height: 4, channels: 3, background: '#888' } });
    expect(detectImageFormat(await base.clone().jpeg().toBuffer())).toBe('jpeg');
    expect(detectImageFormat(await base.clone().png().toBuffer())).toBe('png');
    expect(detectImageFormat(await base.clone().webp().toBuffer())).toBe('webp');
    expect(detectImageFormat(await base.clone().gif().toBuffer())).toBe('gif');
    expect(detectImageFormat(await base.clone().avif().toBuffer())).toBe('avif');
    expect(detectImageFormat(SVG)).toBe('svg');
    expect(detectImageFormat(Buffer.from('\uFEFF  <!-- hi --><svg></svg>'))).toBe('svg');
    expect(detectImageFormat(Buffer.from('%PDF-1.7 not a picture'))).toBeNull();
    expect(detectImageFormat(Buffer.alloc(0))).toBeNull();
  });
});

describe('POST /api/v1/media/upload', () => {
  it('stores a PNG as WebP under a random name in the store, records it and audits it', async () => {
    const res = await upload(await png(300, 200), { name: 'My Holiday Photo.png', fields: { altText: 'A lamp' } });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toEqual({
      mediaId: expect.stringMatching(/^[0-9a-f]{32}$/),
      url: `/media/t/lighting/m/${data.mediaId}.webp`,
      width: 300,
      height: 200,
    });
    expect(data.url).not.toContain('Holiday');

    const served = await t.app.inject({ url: data.url, headers: { host: HOST } });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
    // The storefront's narrower copies come from the same key.
    const narrow = await t.app.inject({ url: `${data.url}?w=160`, headers: { host: HOST } });
    expect((await sharp(narrow.rawPayload).metadata()).width).toBe(160);
    // Another store's host cannot read it.
    expect((await t.app.inject({ url: data.url, headers: { host: 'garden.localhost' } })).statusCode).toBe(404);

    const [row] = await t.database.db
      .select()
      .from(schema.media)
      .where(and(eq(schema.media.tenantId, 'lighting'), eq(schema.media.mediaId, data.mediaId)));
    expect(row).toMatchObject({ width: 300, height: 200, sourceFormat: 'png', altText: 'A lamp' });
    expect(row?.createdBy).toBeTruthy();
    const [entry] = await auditOf(data.mediaId);
    expect(entry).toMatchObject({ action: 'upload', actorKind: 'staff' });
    expect(entry?.changes).toMatchObject({ sourceFormat: { after: 'png' }, width: { after: 300 } });
  });

  it('strips EXIF (GPS) and applies the orientation, and narrows wide pictures to 1600 px', async () => {
    const withGps = await sharp({ create: { width: 2400, height: 100, channels: 3, background: '#345' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'SpyCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .toBuffer();
    expect((await sharp(withGps).metadata()).exif).toBeDefined();
    const res = await upload(withGps, { name: 'x.jpg', type: 'image/jpeg' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ width: 1600, height: 67 });
    const stored = await t.app.inject({ url: res.json().data.url, headers: { host: HOST } });
    const meta = await sharp(stored.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(stored.rawPayload.includes(Buffer.from('SpyCam'))).toBe(false);
  });

  it('decides by the bytes, not the name or the content type', async () => {
    const asText = await upload(await png(20, 20), { name: 'notes.txt', type: 'text/plain' });
    expect(asText.statusCode).toBe(200);

    const fake = await upload(Buffer.from('just some text, honestly'), { name: 'photo.jpg', type: 'image/jpeg' });
    expect(fake.statusCode).toBe(415);
    expect(fake.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(fake.json().message).toMatch(/not a JPEG, PNG, WebP, AVIF or GIF picture/);
  });

  it('accepts WebP, AVIF and the first frame of an animated GIF', async () => {
    const webp = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0a0' } })
      .webp()
      .toBuffer();
    expect((await upload(webp, { name: 'a.webp', type: 'image/webp' })).json().data).toMatchObject({ width: 40 });
    const avif = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0a0' } })
      .avif()
      .toBuffer();
    expect((await upload(avif, { name: 'a.avif', type: 'image/avif' })).json().data).toMatchObject({ width: 40 });
    const frame = (background: string) =>
      sharp({ create: { width: 40, height: 30, channels: 3, background } })
        .png()
        .toBuffer();
    const animated = await sharp([await frame('#a00'), await frame('#00a')], { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(2);
    const res = await upload(animated, { name: 'a.gif', type: 'image/gif' });
    expect(res.statusCode).toBe(200);
    const stored = await t.app.inject({ url: res.json().data.url, headers: { host: HOST } });
    const meta = await sharp(stored.rawPayload).metadata();
    expect(meta.pages ?? 1).toBe(1);
    expect(res.json().data).toMatchObject({ width: 40, height: 30 });
  });

  it('refuses SVG with its own message, whatever it is called', async () => {
    const res = await upload(SVG, { name: 'logo.png', type: 'image/png' });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toMatch(/SVG pictures are not accepted/);
  });

  it('refuses a file over 10 MB with 413 saying the limit', async () => {
    const big = Buffer.concat([await png(10, 10), randomBytes(MEDIA_UPLOAD_MAX_BYTES)]);
    const res = await upload(big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(res.json().message).toMatch(/larger than 10 MB/);
  });

  it('refuses a pixel flood before decoding it', async () => {
    const res = await upload(floodPng(20_000, 20_000));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/20000 × 20000 pixels; at most 40 megapixels/);
  });

  it('refuses an empty or damaged file and a request without a file, naming the field', async () => {
    const truncated = (await png(200, 200)).subarray(0, 60);
    const damaged = await upload(truncated);
    expect(damaged.statusCode).toBe(422);
    expect(damaged.json().errors[0]).toMatch(/^file: /);
    const none = await upload(null, { fields: { altText: 'x' } });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0]).toMatch(/file: /);
    const empty = await upload(Buffer.alloc(0));
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toMatch(/file: the file is empty/);
  });

  it('is for the owner and staff with the settings permission only; nothing is stored otherwise', async () => {
    const before = await t.database.db.select().from(schema.media);
    const file = await png(10, 10);
    const visitor = await upload(file, { session: null });
    expect(visitor.statusCode).toBe(401);
    expect((await upload(file, { session: shopper })).statusCode).toBe(403);
    const staff = await upload(file, { session: catalogStaff });
    expect(staff.statusCode).toBe(403);
    expect(staff.json().message).toMatch(/settings permission/);
    // Another store's owner is a visitor here.
    expect((await upload(file, { session: gardenOwner })).statusCode).toBe(401);
    expect(await t.database.db.select().from(schema.media)).toHaveLength(before.length);
  });

  it("stores another store's upload in that store's namespace", async () => {
    const res = await upload(await png(10, 10), { session: gardenOwner, host: 'garden.localhost' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.url).toMatch(/^\/media\/t\/garden\/m\//);
  });
});

describe('GET /api/v1/media', () => {
  const list = (query: string, session: BrowserSession | null = owner, host = HOST) =>
    t.app.inject({ url: `/api/v1/media${query}`, headers: { host, ...(session ?? {}) } });

  it("pages through the store's library, newest first, without another store's pictures", async () => {
    const all = (await list('?limit=100')).json().data;
    expect(all.items.length).toBeGreaterThanOrEqual(5);
    // Uploads, and the seed's own pictures of the lighting store (its variant pictures are media rows).
    const urls = all.items.map((i: { url: string }) => i.url);
    expect(urls.filter((u: string) => !/^\/media\/(t|seed)\/lighting\//.test(u))).toEqual([]);
    const times = all.items.map((i: { createdAt: string }) => i.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.items[0]).toEqual({
      mediaId: expect.any(String),
      url: expect.any(String),
      width: expect.any(Number),
      height: expect.any(Number),
      bytes: expect.any(Number),
      altText: null,
      createdAt: expect.any(String),
    });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { mediaId: string }[]; nextCursor: string | null } = (
        await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      ).json().data;
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((i) => i.mediaId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((i: { mediaId: string }) => i.mediaId));

    const garden = (await list('', gardenOwner, 'garden.localhost')).json().data;
    expect(garden.items).toHaveLength(1);
  });

  it('refuses a bad cursor naming it, and visitors and shoppers', async () => {
    const bad = await list('?cursor=bm9wZQ');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatch(/^cursor: /);
    expect((await list('', null)).statusCode).toBe(401);
    expect((await list('', shopper)).statusCode).toBe(403);
  });
});

describe('uploads are bounded per store (decision 024)', () => {
  it("runs one store's uploads one at a time with a short queue, and never holds up another store", async () => {
    const file = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#468' } })
      .jpeg()
      .toBuffer();
    const flood = Array.from({ length: 14 }, () => upload(file, { name: 'f.jpg', type: 'image/jpeg' }));
    const other = await upload(await png(10, 10), { session: gardenOwner, host: 'garden.localhost' });
    expect(other.statusCode).toBe(200);
    const statuses = (await Promise.all(flood)).map((r) => r.statusCode);
    // One running and eight waiting: the rest are told to come back, in the envelope.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(9);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
  });
});
