import { defineModule } from '../../lib/module';
import { newsletterPages } from './newsletter.pages';
import { newsletterRoutes } from './newsletter.routes';
import { createNewsletterService, type NewsletterService } from './newsletter.service';

declare module '../../lib/module' {
  interface ModuleServices {
    newsletter: { newsletter: NewsletterService };
  }
}

export const newsletterModule = defineModule({
  name: 'newsletter',
  needs: ['mail'],
  create: ({ db, sessionSecret, linkOrigin }, { mailer }) => ({
    newsletter: createNewsletterService(db, { mailer, secret: sessionSecret, linkOrigin }),
  }),
  routes: (app, { newsletter }) => app.register(newsletterRoutes, { newsletter }),
  pages: ({ newsletter }) => [newsletterPages({ newsletter })],
});
