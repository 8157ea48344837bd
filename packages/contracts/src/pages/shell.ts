import type { Faqs } from '../products';
import type { Banner, CmsPage } from '../store';
import type { ShellData } from '../storefront';

/** The store frame and its content: what every page of the store shows. */
export interface ShellPages {
  shell(): Promise<ShellData | null>;
  banners(): Promise<Banner[]>;
  cmsPage(pageUrl: string): Promise<CmsPage | null>;
  faqs(): Promise<Faqs>;
}
