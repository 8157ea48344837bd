import { z } from 'zod';
import type { DraftStatus } from './drafts';
import { PAGE_LINK_FLAGS, type PageLinkFlag } from './store';

/**
 * CMS pages as the owner edits them (decisions 032 and 034). Create and update save a
 * draft; publishing is the drafts seam's. The field names are the clients' (section 3).
 */
export const CMS_PAGE_URL = /^[a-z0-9][a-z0-9-]{0,99}$/;

/** Where a page stands: only a draft, live, or live with unpublished edits. */
export const CMS_PAGE_STATUSES = ['Draft', 'Published', 'Published, with changes'] as const;
export type CmsPageStatus = (typeof CMS_PAGE_STATUSES)[number];

export const cmsPageInputSchema = z.strictObject({
  pageTitle: z.string().trim().min(1, 'enter a title').max(120, 'keep the title under 120 characters'),
  pageUrl: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, 'enter the page URL')
    .regex(CMS_PAGE_URL, 'use lower-case letters, digits and dashes (up to 100), starting with a letter or digit'),
  /** Rich text as HTML; the server sanitises it with an allow-list before storing it. */
  content: z.string().max(200_000, 'the page is too long (200,000 characters at most)').default(''),
  pageLinks: z
    .array(z.enum(PAGE_LINK_FLAGS, { message: 'choose TOP, MENU, BOTTOM or FOOTER' }))
    .max(4)
    .default([])
    .transform((links) => PAGE_LINK_FLAGS.filter((f) => links.includes(f)) as PageLinkFlag[]),
  seoTitle: z.string().trim().max(70, 'keep the SEO title under 70 characters').default(''),
  seoDescription: z.string().trim().max(160, 'keep the SEO description under 160 characters').default(''),
  sequenceNum: z
    .number({ message: 'enter a whole number' })
    .int('enter a whole number')
    .min(0, 'enter 0 or more')
    .max(9999, 'enter 9999 or less')
    .default(0),
});
export type CmsPageInput = z.input<typeof cmsPageInputSchema>;
export type CmsPagePayload = z.output<typeof cmsPageInputSchema>;
export type CmsPageField =
  | 'pageTitle'
  | 'pageUrl'
  | 'content'
  | 'pageLinks'
  | 'seoTitle'
  | 'seoDescription'
  | 'sequenceNum';

export const cmsPageIdSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,120}$/, 'not a valid page id'),
});

/** What create and update answer: the page as saved (a draft) and where it stands. */
export const cmsSavedSchema = z.object({
  id: z.string(),
  status: z.enum(CMS_PAGE_STATUSES),
  page: z.object({
    pageTitle: z.string(),
    pageUrl: z.string(),
    content: z.string(),
    pageLinks: z.array(z.enum(PAGE_LINK_FLAGS)),
    seoTitle: z.string(),
    seoDescription: z.string(),
    sequenceNum: z.number().int(),
  }),
  updatedAt: z.string(),
});
export type CmsSaved = z.infer<typeof cmsSavedSchema>;

/** One row of the owner's list. */
export interface CmsListItem {
  id: string;
  pageTitle: string;
  pageUrl: string;
  pageLinks: PageLinkFlag[];
  status: CmsPageStatus;
  updatedAt: string;
}

/** What the editor opens with: the working copy (draft, else live) and the draft controls' state. */
export interface CmsEditor {
  id: string;
  page: CmsPagePayload;
  status: CmsPageStatus;
  /** The URL shoppers reach it at now (null while it is only a draft). */
  liveUrl: string | null;
  drafts: DraftStatus;
}
