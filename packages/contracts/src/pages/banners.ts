import type { BannerFormResult, BannersPageData } from '../banners';
import type { MediaPage, MediaUploadResult } from '../media';
import type { FormOutcome } from '../storefront';

/** The banners page; each function needs the settings permission. */
export interface BannersPages {
  bannersPage(): Promise<BannersPageData>;
  /** Adds (no bannerId) or changes a banner of the draft, from the page's form fields. */
  saveBanner(bannerId: string | null, fields: Record<string, string>): Promise<BannerFormResult>;
  deleteBanner(bannerId: string): Promise<BannerFormResult>;
  /** One place up (-1) or down (1): the keyboard's and the no-JavaScript way to reorder. */
  moveBanner(bannerId: string, by: -1 | 1): Promise<BannerFormResult>;
  reorderBanners(bannerIds: string[]): Promise<BannerFormResult>;
}

/** The media library for any dashboard page's picture field (components/manage-store/media-field.tsx). */
export interface MediaPages {
  mediaLibrary(cursor?: string | null): Promise<MediaPage>;
  /** An upload posted with a form (no JavaScript): the same pipeline as POST /api/v1/media/upload. */
  uploadMedia(
    file: Uint8Array,
    altText?: string | null,
  ): Promise<{ ok: true; media: MediaUploadResult } | FormOutcome<'file'>>;
}
