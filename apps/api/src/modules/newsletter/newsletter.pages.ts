import { type NewsletterPages, newsletterSubscribeSchema, newsletterTokenSchema } from '@app/contracts';
import { fieldFailure, type PageModule, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import type { NewsletterService } from './newsletter.service';

const invalid = { ok: false as const, code: 'invalid' as const };

export function newsletterPages(deps: { newsletter: NewsletterService }): PageModule<NewsletterPages> {
  return (page) => ({
    async subscribeToNewsletter(input) {
      const parsed = newsletterSubscribeSchema.safeParse(input);
      if (!parsed.success) return fieldFailure(parsed.error, ['email']);
      return submitForm([], async () => {
        page.assertFormFromStore();
        const r = await deps.newsletter.subscribe(page.ctx, parsed.data.email, page.ctx.ip);
        if (!r.ok) return formRefusal(r);
        return { ok: true as const, message: r.value.message };
      });
    },
    async confirmNewsletter(token) {
      if (!newsletterTokenSchema.safeParse({ token }).success) return invalid;
      return deps.newsletter.confirm(page.ctx, token);
    },
    async peekNewsletterUnsubscribe(token) {
      if (!newsletterTokenSchema.safeParse({ token }).success) return invalid;
      return deps.newsletter.peekUnsubscribe(page.ctx, token);
    },
    async unsubscribeFromNewsletter(token) {
      if (!newsletterTokenSchema.safeParse({ token }).success) return invalid;
      page.assertFormFromStore();
      return deps.newsletter.unsubscribe(page.ctx, token);
    },
  });
}
