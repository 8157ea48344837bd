import { type ContactInboxPages, messageListQuerySchema, messageReplySchema } from '@app/contracts';
import { requireAccess } from '../../lib/access';
import { AppError } from '../../lib/errors';
import { fieldFailure, nullIfNotFound, type PageModule, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import type { ContactInboxService } from './contact-inbox.service';

/** The messages pages' functions; each checks the customers permission itself. */
export function contactInboxPages(deps: { inbox: ContactInboxService }): PageModule<ContactInboxPages> {
  const { inbox } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      async messagesPage(raw) {
        requireAccess(ctx, 'customers');
        const parsed = messageListQuerySchema.safeParse({
          folder: raw.folder || undefined,
          q: raw.q || undefined,
          cursor: raw.cursor || undefined,
        });
        const query = parsed.success ? parsed.data : {};
        try {
          return { ...(await inbox.list(ctx, query)), query };
        } catch (err) {
          if (err instanceof AppError && err.field === 'cursor') {
            const { cursor: _dropped, ...rest } = query;
            return { ...(await inbox.list(ctx, rest)), query: rest };
          }
          throw err;
        }
      },

      async messagePage(messageId) {
        requireAccess(ctx, 'customers');
        try {
          return await inbox.open(ctx, messageId);
        } catch (err) {
          return nullIfNotFound(err);
        }
      },

      async messageAction(messageId, fields) {
        requireAccess(ctx, 'customers');
        if (fields.intent === 'reply') {
          const parsed = messageReplySchema.safeParse({ text: fields.text ?? '' });
          if (!parsed.success) return fieldFailure(parsed.error, ['text']);
          return submitForm(['text'], async () => {
            page.assertFormFromStore();
            const sent = await inbox.reply(ctx, messageId, parsed.data.text);
            if (!sent.ok) return formRefusal(sent, ['text']);
            return { ok: true as const, message: `Reply sent to ${sent.value.email}.` };
          });
        }
        return submitForm([], async () => {
          page.assertFormFromStore();
          switch (fields.intent) {
            case 'archive':
              await inbox.archive(ctx, messageId);
              return { ok: true as const, message: 'Message archived.' };
            case 'inbox':
              await inbox.unarchive(ctx, messageId);
              return { ok: true as const, message: 'Message moved to the inbox.' };
            case 'unread':
              await inbox.markUnread(ctx, messageId);
              return { ok: true as const, message: 'Message marked unread.' };
            default:
              throw AppError.badRequest('intent: reply, archive, inbox or unread.');
          }
        });
      },
    };
  };
}
