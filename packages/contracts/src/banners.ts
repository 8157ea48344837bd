import { z } from 'zod';
import type { DraftStatus } from './drafts';
import type { FormOutcome } from './storefront';

/** The most banners a store keeps: the home shows a hero and a grid, not a gallery. */
export const BANNERS_MAX = 20;

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Where a banner leads: a path of this store (`/categories/LIG_LAMPS`) or an https address. No
 * `//host` or `\` tricks (a browser reads both as another site), no `javascript:` or plain http.
 */
export const bannerLinkSchema = z
  .string()
  .trim()
  .max(500, 'at most 500 characters.')
  .refine((s) => !CONTROL.test(s), 'contains a control character.')
  .refine((s) => {
    if (s.startsWith('/')) return !s.startsWith('//') && !s.includes('\\');
    try {
      const u = new URL(s);
      return u.protocol === 'https:' && !!u.hostname && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'use a path of this store starting with / (e.g. /categories/LAMPS) or an https:// address.');

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `at most ${max} characters.`)
    .transform((s) => s || null)
    .nullable()
    .optional()
    .transform((s) => s ?? null);

/** A field left empty (a form's '') is no value. */
const blankAsNull = <T extends z.ZodType<string | null>>(schema: T) =>
  z
    .preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema.nullable().optional())
    .transform((v) => v ?? null);

/** The id of a banner: made by the server when it is added. */
export const bannerIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'not a banner id.');

const when = z.iso.datetime({ offset: true, error: 'use a date and time like 2026-05-01T00:00:00Z.' });

/** One banner's fields as the owner edits them (the fields of the banners page and of the API). */
const bannerFieldsSchema = z.strictObject({
  /** A picture of the store's media library (POST /api/v1/media/upload). */
  mediaId: z
    .string()
    .regex(/^[0-9a-f]{32}$/, 'choose or upload a picture.')
    .nullable()
    .optional(),
  altText: z
    .string({ error: 'describe the picture for people who cannot see it.' })
    .trim()
    .min(1, 'describe the picture for people who cannot see it.')
    .max(250, 'at most 250 characters.'),
  title: optionalText(120),
  text: optionalText(300),
  ctaLabel: optionalText(40),
  linkUrl: blankAsNull(bannerLinkSchema),
  startsAt: blankAsNull(when),
  endsAt: blankAsNull(when),
});
const endsAfterStart = {
  check: (b: { startsAt: string | null; endsAt: string | null }) =>
    !b.startsAt || !b.endsAt || Date.parse(b.endsAt) > Date.parse(b.startsAt),
  params: { message: 'must be after the start.', path: ['endsAt'] },
};

/** One banner as the owner edits it (the fields of the banners page and of the API). */
export const bannerInputSchema = bannerFieldsSchema.refine(endsAfterStart.check, endsAfterStart.params);
export type BannerInput = z.input<typeof bannerInputSchema>;

/**
 * One banner as a write takes it: the input, plus what the draft read answers
 * besides it, so a banner read can be sent back as it is. `bannerId` and `imageUrl` are read-only
 * (taken when as read, else a 400 naming them); the picture changes with `mediaId`.
 */
export const bannerWriteSchema = bannerFieldsSchema
  .extend({ bannerId: bannerIdSchema.optional(), imageUrl: z.string().max(1000).optional() })
  .refine(endsAfterStart.check, endsAfterStart.params);

/**
 * PUT /api/v1/product/banner/update/{id}: a patch of one banner, so every field is optional (fields
 * left out keep their values; the server checks the banner whole).
 */
export const bannerPatchSchema = bannerFieldsSchema
  .partial()
  .extend({ bannerId: bannerIdSchema.optional(), imageUrl: z.string().max(1000).optional() });

/**
 * One banner of the draft (and of each published version): the input plus its id and the picture's
 * path. The path is the library's (`/media/t/<tenant>/m/...`) or the seed's (`/media/seed/<tenant>/...`).
 */
export const bannerItemSchema = z
  .object({
    bannerId: bannerIdSchema,
    mediaId: z
      .string()
      .regex(/^[0-9a-f]{32}$/)
      .nullable(),
    imageUrl: z.string().regex(/^\/media\/(t|seed)\/[A-Za-z0-9_-]+\/[A-Za-z0-9/_.-]+$/, 'not a picture of this store.'),
    altText: z.string().trim().min(1, 'describe the picture for people who cannot see it.').max(250),
    title: z.string().max(120).nullable(),
    text: z.string().max(300).nullable(),
    ctaLabel: z.string().max(40).nullable(),
    linkUrl: bannerLinkSchema.nullable(),
    startsAt: when.nullable(),
    endsAt: when.nullable(),
  })
  .refine((b) => !b.startsAt || !b.endsAt || Date.parse(b.endsAt) > Date.parse(b.startsAt), {
    message: 'must be after the start.',
    path: ['endsAt'],
  });
export type BannerItem = z.infer<typeof bannerItemSchema>;

/** The draft of a store's banners: the whole ordered list, so adding, deleting and reordering are one edit. */
export const bannersDraftSchema = z
  .array(bannerItemSchema)
  .max(BANNERS_MAX, `at most ${BANNERS_MAX} banners.`)
  .refine((list) => new Set(list.map((b) => b.bannerId)).size === list.length, 'each banner id only once.');

/**
 * PUT /api/v1/product/banner/draft: the whole list (new banners without an id get one). What the
 * draft read answers is taken as it is: its productStoreId and isDraft are read-only.
 */
export const bannersDraftBodySchema = z.strictObject({
  productStoreId: z.string().max(60).optional(),
  isDraft: z.boolean().optional(),
  banners: z.array(bannerWriteSchema).max(BANNERS_MAX, `at most ${BANNERS_MAX} banners.`),
});

/** POST /api/v1/product/banner/reorder: every banner id of the draft, in the new order. */
export const bannersReorderSchema = z.object({ bannerIds: z.array(bannerIdSchema).max(BANNERS_MAX) });

export const bannersStoreQuerySchema = z.strictObject({ productStoreId: z.string().min(1).max(60).optional() });
export const bannerIdParamsSchema = z.object({ id: bannerIdSchema });

/** A banner as the banners page lists it: the item with its picture's absolute address. */
export type BannerView = BannerItem & {
  /** Within its dates now: shoppers see it once published. */
  showing: boolean;
};

/** What the owner's banners page and GET /api/v1/product/banner/draft show: the working list. */
export const bannersWorkingSchema = z.object({
  productStoreId: z.string(),
  banners: z.array(bannerItemSchema),
  /** True when the list above is an unpublished draft, false when it is what shoppers see. */
  isDraft: z.boolean(),
});
export type BannersWorking = z.infer<typeof bannersWorkingSchema>;

export type BannerField = 'mediaId' | 'altText' | 'title' | 'text' | 'ctaLabel' | 'linkUrl' | 'startsAt' | 'endsAt';
export const BANNER_FIELDS: readonly BannerField[] = [
  'mediaId',
  'altText',
  'title',
  'text',
  'ctaLabel',
  'linkUrl',
  'startsAt',
  'endsAt',
];

export type BannerFormResult = { ok: true; message: string } | FormOutcome<BannerField>;

export interface BannersPageData {
  working: BannersWorking;
  status: DraftStatus;
  views: BannerView[];
}
