import type { NewsletterLinkResult, NewsletterSubscribeResult } from '../newsletter';

/** The footer's subscribe form and the links of the newsletter mails. */
export interface NewsletterPages {
  /** Asks for a subscription: mails a confirmation link; the same answer for every valid address. */
  subscribeToNewsletter(input: { email: string }): Promise<NewsletterSubscribeResult>;
  /** Uses a confirmation link (once). */
  confirmNewsletter(token: string): Promise<NewsletterLinkResult>;
  /** Checks an unsubscribe link without using it (the page asks the reader to press the button). */
  peekNewsletterUnsubscribe(token: string): Promise<NewsletterLinkResult>;
  /** Uses an unsubscribe link: no login, the link is signed. */
  unsubscribeFromNewsletter(token: string): Promise<NewsletterLinkResult>;
}
