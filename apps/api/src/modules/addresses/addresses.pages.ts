import { ADDRESS_FIELDS, type AddressesPages, addressInputSchema } from '@app/contracts';
import { requireSignedIn } from '../../lib/access';
import { signedInUser } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { fieldFailure, formFailure, type PageModule, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import { countryChoices } from '../geo/index';
import type { AddressesService } from './addresses.service';

export function addressesPages(deps: { addresses: AddressesService }): PageModule<AddressesPages> {
  const { addresses } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      async addresses() {
        const me = signedInUser(ctx);
        return { addresses: me ? await addresses.list(ctx, me.userId) : [], countries: countryChoices() };
      },
      async saveAddress(input) {
        const fields = ADDRESS_FIELDS;
        const parsed = addressInputSchema.safeParse({
          ...Object.fromEntries(fields.map((f) => [f, input[f] ?? ''])),
          isDefaultShipping: input.isDefaultShipping === 'on',
          isDefaultBilling: input.isDefaultBilling === 'on',
        });
        if (!parsed.success) return fieldFailure(parsed.error, fields);
        return submitForm(fields, async () => {
          page.assertFormFromStore();
          const me = requireSignedIn(ctx);
          const saved = input.contactMechId
            ? await addresses.update(ctx, me.userId, input.contactMechId, parsed.data)
            : await addresses.create(ctx, me.userId, parsed.data);
          if (!saved.ok) return formRefusal(saved, fields);
          return { ok: true as const, message: input.contactMechId ? 'Address saved.' : 'Address added.' };
        });
      },
      async removeAddress(contactMechId) {
        try {
          page.assertFormFromStore();
          const me = requireSignedIn(ctx);
          await addresses.remove(ctx, me.userId, contactMechId);
          return { ok: true as const, message: 'Address removed.' };
        } catch (err) {
          // An address that is gone (removed in another tab) is said on the page, not as a 404 page.
          if (err instanceof AppError && err.statusCode === 404) {
            return { ok: false as const, status: 400 as const, message: err.message, fieldErrors: {} };
          }
          return formFailure(err);
        }
      },
    };
  };
}
