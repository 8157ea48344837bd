import {
  type CustomerActionResult,
  type CustomersPages,
  customerListQuerySchema,
  customerNoteRequestSchema,
} from '@app/contracts';
import { requireAccess } from '../../lib/access';
import { AppError } from '../../lib/errors';
import { fieldFailure, lenient, nullIfNotFound, type PageModule, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import type { CustomersService } from './customers.service';

const FIELDS = ['note'] as const;

export function customersPages(deps: { customers: CustomersService }): PageModule<CustomersPages> {
  const { customers } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      async customersPage(params) {
        requireAccess(ctx, 'customers');
        const query = lenient(customerListQuerySchema, params);
        const rows = await customers.list(ctx, query).catch((err) => {
          // A cursor from another sort (an old link): the first page instead of an error page.
          if (err instanceof AppError && err.field === 'cursor')
            return customers.list(ctx, { ...query, cursor: undefined });
          throw err;
        });
        return { query, page: rows };
      },

      async customerPage(ref) {
        requireAccess(ctx, 'customers');
        return customers.detail(ctx, ref).catch(nullIfNotFound);
      },

      customerAction(ref, fields): Promise<CustomerActionResult> {
        requireAccess(ctx, 'customers');
        return submitForm(FIELDS, async () => {
          page.assertFormFromStore();
          switch (fields.intent) {
            case 'note.add': {
              const parsed = customerNoteRequestSchema.safeParse({ note: fields.note ?? '' });
              if (!parsed.success) return fieldFailure(parsed.error, FIELDS);
              await customers.addNote(ctx, ref, parsed.data);
              return { ok: true as const, message: 'Note added' };
            }
            case 'note.delete':
              await customers.deleteNote(ctx, ref, fields.noteId ?? '');
              return { ok: true as const, message: 'Note deleted' };
            case 'password-reset': {
              if (!('userId' in ref)) throw AppError.badRequest('A guest has no account to reset.');
              const sent = await customers.sendPasswordReset(ctx, ref.userId);
              if (!sent.ok) return formRefusal(sent, FIELDS);
              return { ok: true as const, message: `Password reset email sent to ${sent.value.email}` };
            }
            default:
              throw AppError.badRequest('Unknown action.');
          }
        });
      },
    };
  };
}
