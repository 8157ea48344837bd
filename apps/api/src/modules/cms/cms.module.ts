import { defineModule } from '../../lib/module';
import { cmsPages } from './cms.pages';
import { cmsRoutes } from './cms.routes';
import { type CmsService, createCmsService } from './cms.service';

declare module '../../lib/module' {
  interface ModuleServices {
    cms: { cms: CmsService };
  }
}

export const cmsModule = defineModule({
  name: 'cms',
  needs: ['drafts', 'audit'],
  uses: ['tenant'],
  // CMS pages are drafts of kind `page` (decision 034); building the service registers the kind.
  create: ({ db, events }, { drafts, audit }) => ({ cms: createCmsService(db, { drafts, audit, events }) }),
  routes: (app, { cms, tenants }, { publicCache }) => app.register(cmsRoutes, { cms, tenants, cache: publicCache }),
  pages: ({ cms, drafts }) => [cmsPages({ cms, drafts })],
});
