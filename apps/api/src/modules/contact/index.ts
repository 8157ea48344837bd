export { contactPages } from './contact.pages';
export { contactRoutes } from './contact.routes';
export { CONTACT_LIMIT, type ContactService, createContactService } from './contact.service';
