export { contactModule } from './contact.module';
export { contactPages } from './contact.pages';
export { contactRoutes } from './contact.routes';
export { CONTACT_LIMIT, type ContactService, createContactService } from './contact.service';
export { contactInboxPages } from './contact-inbox.pages';
export { contactInboxRoutes } from './contact-inbox.routes';
export { type ContactInboxService, createContactInboxService, quoteMessage } from './contact-inbox.service';
