import { z } from 'zod';
import { MEDIA_PAGE_MAX } from './media-limits';
import { textInt } from './strict-input';

export * from './media-limits';

export const mediaAltTextSchema = z.string().trim().max(250, 'Alt text: at most 250 characters.');

/** POST /api/v1/media/upload answers with the stored picture. */
export const mediaUploadResultSchema = z.object({
  mediaId: z.string(),
  /** Path of the stored WebP (`/media/t/<tenant>/m/<id>.webp`); add `?w=` for a narrower copy. */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type MediaUploadResult = z.infer<typeof mediaUploadResultSchema>;

export const mediaItemSchema = mediaUploadResultSchema.extend({
  bytes: z.number().int(),
  altText: z.string().nullable(),
  createdAt: z.string(),
});
export type MediaItem = z.infer<typeof mediaItemSchema>;

/** GET /api/v1/media: the library, newest first, in keyset pages. */
export const mediaListQuerySchema = z.strictObject({
  cursor: z.string().min(1).max(200).optional(),
  limit: textInt('limit', { min: 1, max: MEDIA_PAGE_MAX }).default(30),
});
export type MediaListQuery = z.infer<typeof mediaListQuerySchema>;

export const mediaPageSchema = z.object({
  items: z.array(mediaItemSchema),
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
});
export type MediaPage = z.infer<typeof mediaPageSchema>;
