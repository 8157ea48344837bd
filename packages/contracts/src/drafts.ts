import { z } from 'zod';
import { textInt } from './strict-input';

/**
 * Drafts of look and content (decision 032): what an owner's editor shows about the unpublished
 * state of one thing (a store's theme, its banners, a page) and its published versions.
 */
export const draftPathSchema = z.object({
  kind: z.string().regex(/^[a-z][a-z0-9-]{0,40}$/, 'not a draft kind'),
  key: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,120}$/, 'not a valid id'),
});

export const draftVersionSchema = z.object({
  version: z.number().int().positive(),
  publishedAt: z.string(),
  publishedBy: z.string().nullable(),
  publishedByName: z.string().nullable(),
});
export type DraftVersionView = z.infer<typeof draftVersionSchema>;

export const draftStatusSchema = z.object({
  kind: z.string(),
  key: z.string(),
  /** Unpublished changes: when and by whom they were last saved; null when the live state is all. */
  draft: z
    .object({ updatedAt: z.string(), updatedBy: z.string().nullable(), updatedByName: z.string().nullable() })
    .nullable(),
  /** Publishes, newest first. */
  versions: z.array(draftVersionSchema),
});
export type DraftStatus = z.infer<typeof draftStatusSchema>;

/**
 * A publish may say which draft it publishes: the `updatedAt` its status showed. A draft saved
 * again since (another staff member's edit) is refused with 409 rather than published unseen.
 */
export const draftPublishInputSchema = z.strictObject({ seen: z.iso.datetime().optional() }).nullish();
export const draftPublishedSchema = z.object({ version: z.number().int().positive() });
export const draftRestorePathSchema = draftPathSchema.extend({ version: textInt('version', { min: 1 }) });
export const previewSwitchSchema = z.strictObject({ on: z.boolean() });
