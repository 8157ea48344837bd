import { errorEnvelopeSchema } from '@app/contracts';
import { z } from 'zod';
import { fileAnswer } from '../../lib/api-docs';
import type { App } from '../../lib/app-types';
import { AppError } from '../../lib/errors';
import { MEDIA_KEY, type MediaObject, type MediaStorage } from './media.storage';

interface Deps {
  storage: MediaStorage;
  /** Makes an object that is missing but can be generated (the demo seed's images). */
  generate?: (key: string) => Promise<MediaObject | null>;
}

/**
 * Serves stored media at /media/<key>. Keys start with a namespace and the owning tenant
 * (`seed/<tenantId>/...`, `t/<tenantId>/...`): a host may only read its own tenant's media.
 */
/**
 * Widths a picture can be asked for (`?w=`), like an image CDN's: a phone downloads a 480 px hero,
 * not the 1600 px original. A fixed list keeps the number of stored variants bounded.
 */
export const MEDIA_WIDTHS = [160, 320, 480, 640, 800, 1200, 1600] as const;
const RESIZABLE = /\.(webp|png|jpe?g|avif)$/i;

export async function mediaRoutes(app: App, { storage, generate }: Deps) {
  const inFlight = new Map<string, Promise<MediaObject | null>>();

  async function load(key: string): Promise<MediaObject | null> {
    const stored = await storage.get(key);
    if (stored || !generate) return stored;
    let p = inFlight.get(key);
    if (!p) {
      p = (async () => {
        const made = await generate(key);
        if (made) await storage.put(key, made);
        return made;
      })().finally(() => inFlight.delete(key));
      inFlight.set(key, p);
    }
    return p;
  }

  async function loadWidth(key: string, width: number): Promise<MediaObject | null> {
    if (!RESIZABLE.test(key)) return load(key);
    const variantKey = key.replace(RESIZABLE, `.w${width}.webp`);
    const stored = await storage.get(variantKey);
    if (stored) return stored;
    // Requests for a size not made yet (a page with the picture twice, a reload) share one making.
    let p = inFlight.get(variantKey);
    if (!p) {
      p = (async () => {
        const original = await load(key);
        if (!original) return null;
        const { default: sharp } = await import('sharp');
        // Never enlarge: a request wider than the original gets the original's width.
        const body = await sharp(original.body)
          .resize({ width, withoutEnlargement: true })
          .webp({ quality: 80 })
          .toBuffer();
        const made = { body, contentType: 'image/webp' };
        await storage.put(variantKey, made);
        return made;
      })().finally(() => inFlight.delete(variantKey));
      inFlight.set(variantKey, p);
    }
    return p;
  }

  app.get(
    '/media/*',
    {
      schema: {
        tags: ['media'],
        summary: "An image or file of this store's media",
        params: z.object({ '*': z.string() }),
        querystring: z.strictObject({
          w: z.coerce
            .number()
            .int()
            .refine((n) => (MEDIA_WIDTHS as readonly number[]).includes(n), {
              message: `must be one of ${MEDIA_WIDTHS.join(', ')}`,
            })
            .optional(),
        }),
        response: {
          200: fileAnswer('The picture', ['image/*'], { binary: true }),
          404: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
        },
      },
    },
    async (req, reply) => {
      const key = req.params['*'];
      const owner = key.split('/')[1];
      if (!MEDIA_KEY.test(key) || key.includes('..') || owner !== req.ctx.tenantId) {
        throw AppError.notFound('No such media file.');
      }
      const obj = req.query.w ? await loadWidth(key, req.query.w) : await load(key);
      if (!obj) throw AppError.notFound('No such media file.');
      return reply
        .header('Cache-Control', 'public, max-age=86400, stale-while-revalidate=604800')
        .header('Content-Type', obj.contentType)
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .send(obj.body);
    },
  );
}
