import { type ContactPages, contactRequestSchema } from '@app/contracts';
import { fieldFailure, type PageModule, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import type { ContactService } from './contact.service';

export function contactPages(deps: { contact: ContactService }): PageModule<ContactPages> {
  return (page) => ({
    async sendContactMessage(input) {
      const parsed = contactRequestSchema.safeParse(input);
      if (!parsed.success) return fieldFailure(parsed.error, ['name', 'email', 'message']);
      return submitForm([], async () => {
        page.assertFormFromStore();
        const sent = await deps.contact.submit(page.ctx, parsed.data, page.ctx.ip);
        if (!sent.ok) return formRefusal(sent);
        return { ok: true as const };
      });
    },
  });
}
