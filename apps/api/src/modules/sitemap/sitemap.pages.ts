import type { SitemapPages } from '@app/contracts';
import { requireAccess } from '../../lib/access';
import type { PageModule } from '../../lib/page-request';
import { submitForm } from '../../lib/page-request';
import type { SitemapService } from './sitemap.service';

/** The "Search engines" settings page's functions; each checks access itself. */
export function sitemapPages(deps: { sitemap: SitemapService }): PageModule<SitemapPages> {
  return (page) => ({
    async sitemapStatus() {
      requireAccess(page.ctx, 'settings');
      return deps.sitemap.status(page.ctx);
    },
    async generateSitemap() {
      return submitForm([], async () => {
        page.assertFormFromStore();
        requireAccess(page.ctx, 'settings');
        const job = await deps.sitemap.generate(page.ctx, page.ctx.tenantId);
        return {
          ok: true as const,
          message: job.status === 'running' ? 'The sitemap is being generated.' : 'Sitemap generation started.',
          job,
        };
      });
    },
  });
}
