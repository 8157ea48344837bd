import { defineModule } from '../../lib/module';
import { contactPages } from './contact.pages';
import { contactRoutes } from './contact.routes';
import { type ContactService, createContactService } from './contact.service';
import { contactInboxPages } from './contact-inbox.pages';
import { contactInboxRoutes } from './contact-inbox.routes';
import { type ContactInboxService, createContactInboxService } from './contact-inbox.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /** The contact form, and the store's inbox of its messages. */
    contact: { contact: ContactService; inbox: ContactInboxService };
  }
}

export const contactModule = defineModule({
  name: 'contact',
  needs: ['mail', 'store', 'audit'],
  create: ({ db, log }, { mailer, store, audit }) => ({
    contact: createContactService(db, { mailer, store, log }),
    inbox: createContactInboxService(db, { audit, mailer, store }),
  }),
  async routes(app, { contact, inbox }) {
    await app.register(contactRoutes, { contact });
    await app.register(contactInboxRoutes, { inbox });
  },
  pages: ({ contact, inbox }) => [contactPages({ contact }), contactInboxPages({ inbox })],
});
