import type { CmsEditor, CmsListItem, CmsPageField } from '../cms';
import type { FormOutcome } from '../storefront';

export type CmsSaveResult = { ok: true; id: string; message: string } | FormOutcome<CmsPageField>;
export type CmsDeleteResult = { ok: true; message: string } | FormOutcome<never>;

/** The owner's CMS pages (settings permission): the list, the editor, save as draft, delete. */
export interface CmsPages {
  cmsList(): Promise<CmsListItem[]>;
  /** Null for an id this store has no page (or draft) under. */
  cmsEditor(id: string): Promise<CmsEditor | null>;
  /** Saves the form as the page's draft; a new page when `id` is null. */
  saveCmsPage(id: string | null, input: Record<string, unknown>): Promise<CmsSaveResult>;
  deleteCmsPage(id: string): Promise<CmsDeleteResult>;
}
