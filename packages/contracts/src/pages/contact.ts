import type { ContactResult } from '../storefront';

/** The contact form. */
export interface ContactPages {
  /** Stores a contact-form message for the store and mails it to the store's address. */
  sendContactMessage(input: { name: string; email: string; message: string }): Promise<ContactResult>;
}
