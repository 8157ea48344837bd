export { newsletterModule } from './newsletter.module';
export { newsletterPages } from './newsletter.pages';
export { newsletterRoutes } from './newsletter.routes';
export {
  CONFIRM_TTL_MS,
  createNewsletterService,
  csvCell,
  NEWSLETTER_EMAIL_LIMIT,
  NEWSLETTER_IP_LIMIT,
  type NewsletterService,
} from './newsletter.service';
